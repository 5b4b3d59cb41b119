"""The orchestrator's sub-questions name their subject (the workers answer them alone)."""

from __future__ import annotations

from typing import Any

import pytest
from debate_fakes import SETTINGS, context, run, scripted

from disputatio.nodes.debate.orchestrator import self_contained, stated_parts
from disputatio.state.retrieval import Section
from disputatio.testing import FakeRetriever

MAIN = (
    "How often must the CTD-41's temperature channel be calibrated, and what is its depth rating?"
)
CTD = Section(id="s-ctd", source="ctd41.md", text="The CTD-41 is calibrated every 12 months.")


def test_the_sub_question_the_worker_receives_names_the_subject() -> None:
    """The orchestrator dropped the CTD-41 from a sub-question; the worker still gets it."""
    plan = {
        "subquestions": [
            "How often must its temperature channel be calibrated?",
            "What is the depth rating of the CTD-41?",
        ]
    }
    models = {
        "orchestrator": scripted("orchestrator", plan),
        "worker-1-0": scripted("w1", "Every 12 months [s-ctd]."),
        "worker-2-0": scripted("w2", "The sections do not give it."),
    }
    retriever = FakeRetriever([CTD], match_all=True)
    ctx = context(models, retriever, max_depth=1, workers=1, no_debate=True, max_tool_calls=0)
    out, _, _ = run(MAIN, ctx)
    fixed = "How often must the CTD-41's temperature channel be calibrated?"
    assert [n["question"] for n in out["tree"]][1:] == [
        fixed,
        "What is the depth rating of the CTD-41?",
    ]
    # what worker 1 was asked, and what it searched for, name the sensor
    prompt = "\n".join(str(m.content) for m in models["worker-1-0"].prompts[0])
    assert fixed in prompt and "How often must its" not in prompt
    assert any("CTD-41" in query and "temperature" in query for query in retriever.queries)
    # the orchestrator was told, and the repair is on record
    assert "names its subject" in str(models["orchestrator"].prompts[0][0].content)
    assert [n for n in out["notes"] if "named no subject" in n] == [
        f"sub-question 1 named no subject ('its' read as \"the CTD-41's\"): {fixed}"
    ]


@pytest.mark.parametrize(
    ("sub", "main", "expected"),
    [
        # a pronoun that is not "its": the question it came from goes along as context
        (
            "How often must it be calibrated?",
            MAIN,
            f"How often must it be calibrated? (About: {MAIN})",
        ),
        (
            "Where did she study?",
            "Did Marie Curie work in Paris, and where did she study?",
            "Where did she study? (About: Did Marie Curie work in Paris, and where did she study?)",
        ),
        # "that" + a noun refers back as much as "it" does
        (
            "Is that device rated for 6000 m?",
            "Is the CTD-41 calibrated yearly, and is it rated for 6000 m?",
            "Is that device rated for 6000 m? (About: Is the CTD-41 calibrated yearly, and is it "
            "rated for 6000 m?)",
        ),
        # two possessors: "its" could be either, so no guess
        (
            "How does its pump fail?",
            "Does the SBE-911's pump outlast the CTD-41's?",
            "How does its pump fail? (About: Does the SBE-911's pump outlast the CTD-41's?)",
        ),
        # the possessor's extent is unclear ("the new sensor" or "sensor"?): no guess either
        (
            "What is its depth rating?",
            "What is the new sensor's drift, and what is its depth rating?",
            "What is its depth rating? (About: What is the new sensor's drift, and what is its "
            "depth rating?)",
        ),
        # a possessor without article, at the start of the sub-question
        (
            "Its dose?",
            "What is aspirin's mechanism, and its dose?",
            "Aspirin's dose?",
        ),
    ],
)
def test_sub_questions_that_refer_back_get_their_subject(
    sub: str, main: str, expected: str
) -> None:
    question, repair = self_contained(sub, main)
    assert question == expected and repair is not None


@pytest.mark.parametrize(
    "sub",
    [
        "What is the depth rating of the CTD-41?",  # names it (and holds no pronoun)
        "Is the CTD-41 rated for 6000 m, and how often is it serviced?",  # "it" has its subject
        "What is the rating that is required?",  # relative "that", no reference back
        "Which calibration schedule applies?",
    ],
)
def test_self_contained_sub_questions_are_kept(sub: str) -> None:
    assert self_contained(sub, MAIN) == (sub, None)


LESSONS = "I'm 40 and I'd like 60-minute lessons. What's the fee per term, and can I spread it?"


@pytest.mark.parametrize(
    ("question", "parts"),
    [
        # the lead-in goes with every part; "it" is the question's, so the question goes along
        (
            LESSONS,
            [
                "I'm 40 and I'd like 60-minute lessons. What's the fee per term?",
                f"I'm 40 and I'd like 60-minute lessons. Can I spread it? (About: {LESSONS})",
            ],
        ),
        # a yes/no part naming none of the question's names: elliptical, the question goes along
        (
            "When is Summer Music Week, and is lunch provided?",
            [
                "When is Summer Music Week?",
                "Is lunch provided? (About: When is Summer Music Week, and is lunch provided?)",
            ],
        ),
        # "its" with one clear possessor becomes it; a part naming its own subject stays
        (MAIN, ["How often must the CTD-41's temperature channel be calibrated?",
                "What is the CTD-41's depth rating?"]),
        (
            "How much does the CBT course cost, and how many days does A2 training take?",
            ["How much does the CBT course cost?", "How many days does A2 training take?"],
        ),
        # an "it" that stands for nothing is no reference back (set 18's f012)
        (
            "What does it cost to move a lesson, and how long does it take for a change of "
            "instructor to take effect?",
            ["What does it cost to move a lesson?",
             "How long does it take for a change of instructor to take effect?"],
        ),
        ("What is the daily allowance in Bergen?", []),  # one part: the orchestrator decides
    ],
)  # fmt: skip
def test_a_question_stating_its_parts_is_split_on_them(question: str, parts: list[str]) -> None:
    assert stated_parts(question) == parts


def _stated(question: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """``question`` debated on its stated parts, one scripted worker a part; the output and
    the models (the orchestrator fails if called)."""
    models = {
        "orchestrator": scripted("orchestrator", RuntimeError("the orchestrator was called")),
        "worker-1-0": scripted("w1", "Every 12 months [s-ctd]."),
        "worker-2-0": scripted("w2", "The sections do not give it."),
    }
    settings = SETTINGS.model_copy(
        update={"debate": SETTINGS.debate.model_copy(update={"stated_parts": True})}
    )
    ctx = context(models, FakeRetriever([CTD], match_all=True), max_depth=1, workers=1,
                  no_debate=True, max_tool_calls=0)  # fmt: skip
    ctx.settings = settings
    out, _, _ = run(question, ctx)
    return out, models


def test_the_stated_parts_are_what_the_workers_answer_without_an_orchestrator_call() -> None:
    """The 1.5B orchestrator turned LESSONS' first part into "What is the fee per term?"."""
    out, models = _stated(LESSONS)
    assert [n["question"] for n in out["tree"]][1:] == stated_parts(LESSONS)
    assert models["orchestrator"].calls == 0
    asked = "\n".join(str(m.content) for m in models["worker-1-0"].prompts[0])
    assert "I'm 40 and I'd like 60-minute lessons. What's the fee per term?" in asked


def test_a_part_is_asked_with_its_context_once_and_answered_without_it() -> None:
    """Set 18's f012 (2026-12-04): the guard gave a stated part its context a second time,
    and the root's answer showed "(About: <the question>)", which was split into claims and
    shown as uncited."""
    question = "When is the open day, and can I bring my children to it?"
    out, _ = _stated(question)
    asked = [n["question"] for n in out["tree"]][1:]
    assert asked == stated_parts(question) and asked[1].count("(About:") == 1
    assert "(About:" not in out["answer"]
    assert all("(About:" not in c["text"] for c in out["claims"])
