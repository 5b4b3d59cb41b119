"""Grounding in the hierarchical debate: each part stands on its sentences or says not found."""

from __future__ import annotations

from debate_fakes import context, run, scripted

from disputatio.nodes.debate import aggregate
from disputatio.state.retrieval import Section
from disputatio.testing import FakeRetriever

DRILLS = Section(id="drills", source="ops.md", text="Fire drills are held every 2 weeks.")
BATTERY = Section(id="battery", source="ctd41.md", text="The CTD-41 battery lasts 40 hours.")


def _decomposed(battery_answer: str) -> dict:
    plan = {"subquestions": ["How often are fire drills held?", "How long does the battery last?"]}
    models = {
        "orchestrator": scripted("o", plan),
        "worker-1-0": scripted("w1", "Fire drills are held every 2 weeks [S1]."),
        "worker-2-0": scripted("w2", battery_answer),
    }
    retriever = FakeRetriever([DRILLS], match_all=True, by_keyword={"battery": [BATTERY]})
    ctx = context(models, retriever, max_depth=1, workers=1, max_tool_calls=0)
    out, _, _ = run("How often are drills held and how long does the battery last?", ctx)
    return out


def test_a_part_the_documents_do_not_support_says_so_and_the_other_part_stays() -> None:
    out = _decomposed("The battery lasts 3 years [S1].")  # the section says 40 hours
    answer = out["answer"]
    assert "3 years" not in answer
    battery_part = answer.split("How long does the battery last?")[1]
    assert aggregate.NOT_FOUND_PART in battery_part
    assert "every 2 weeks [drills]" in answer
    verdicts = {c["text"]: c["verdict"] for c in out["claims"]}
    assert verdicts[aggregate.NOT_FOUND_PART] == "not_found"
    assert verdicts["Fire drills are held every 2 weeks."] == "supported"


def test_a_supported_part_is_kept_with_its_citation() -> None:
    out = _decomposed("The CTD-41 battery lasts 40 hours [S1].")
    assert "lasts 40 hours [battery]" in out["answer"]
    assert aggregate.NOT_FOUND_PART not in out["answer"]
    assert {c["id"] for c in out["citations"]} == {"drills", "battery"}


def test_a_fabricated_label_never_reaches_the_answer() -> None:
    out = _decomposed("The CTD-41 battery lasts 40 hours [CTD-41 Pressure Housing].")
    assert "Pressure Housing" not in out["answer"]
    assert "lasts 40 hours [battery]" in out["answer"]  # attributed to the sentence it copies


def test_a_part_whose_workers_were_shown_nothing_says_so_instead_of_answering_from_memory() -> None:
    # `disputatio ask` on the sample corpus: "What vaccine protects humans against brucellosis?"
    # retrieved nothing, and its worker's invented vaccine and dose stayed in the answer, flagged
    plan = {"subquestions": ["How often are fire drills held?", "How long does the battery last?"]}
    models = {
        "orchestrator": scripted("o", plan),
        "worker-1-0": scripted("w1", "Fire drills are held every 2 weeks [S1]."),
        "worker-2-0": scripted("w2", "The CTD-41 battery lasts about 3 years."),
    }
    retriever = FakeRetriever([], by_keyword={"drill": [DRILLS]})  # nothing for the battery
    ctx = context(models, retriever, max_depth=1, workers=1, max_tool_calls=0)
    out, _, _ = run("How often are drills held and how long does the battery last?", ctx)
    battery_part = out["answer"].split("How long does the battery last?")[1]
    assert "3 years" not in out["answer"]
    assert aggregate.NOT_FOUND_PART in battery_part
    assert "every 2 weeks [drills]" in out["answer"]
