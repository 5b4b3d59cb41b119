"""Orchestration of the hierarchical debate with scripted agents and a fixed retriever.

Agent names: ``orchestrator``, ``worker-<node>-<i>``, ``reviewer-<node>``,
``summarizer-<node>``, ``aggregator-<node>``; each gets its own scripted model.
"""

from __future__ import annotations

from typing import Any

import pytest
from debate_fakes import ASPIRIN, DOSE, SETTINGS, aspirin_retriever, context, run, scripted

from disputatio.errors import ConfigError
from disputatio.nodes.debate.context import resolve_config
from disputatio.prompts.debate import PERSONAS
from disputatio.testing import FakeRetriever

AGREE = "Aspirin irreversibly inhibits COX-1 [s-aspirin]."
OTHER = "The sections say nothing about the mechanism at all, only about risks."


def _moves(out: dict[str, Any], kind: str = "answer") -> list[tuple[str, int]]:
    return [(m["agent"], m["round"]) for m in out["transcript"] if m["kind"] == kind]


def test_decomposition_respects_limits_and_answers_bubble_up() -> None:
    plan = {
        "subquestions": [
            {"question": "Mechanism?", "subquestions": [{"question": "x?"}, {"question": "y?"}]},
            # each leaf question shares a word with the answer's sentence (the relevance check)
            {
                "question": "Dose?",
                "subquestions": [{"question": "Aspirin, adults?"}, {"question": "Aspirin, kids?"}],
            },
            {"question": "Risks?"},
            {"question": "History?"},
        ]
    }
    models = {
        "orchestrator": scripted("orchestrator", plan),
        "worker": scripted("worker", AGREE),  # shared by every worker (group fallback)
    }
    models["worker"].repeat_last = True
    ctx = context(models, max_depth=2, max_breadth=2, workers=1, max_tool_calls=0)
    out, _, _ = run("How does aspirin work and how is it dosed?", ctx)
    ids = [n["id"] for n in out["tree"]]
    assert ids == ["root", "1", "1.1", "1.2", "2", "2.1", "2.2"]  # breadth 2, depth 2
    assert "at most 2 sub-questions" in str(models["orchestrator"].prompts[0][0].content)
    # leaves first (4 workers), then the two depth-1 nodes, then the root
    assert sorted(a for a, _ in _moves(out)) == [
        f"worker-{n}-0" for n in ("1.1", "1.2", "2.1", "2.2")
    ]
    aggregated = [m["agent"] for m in out["transcript"] if m["kind"] == "aggregate"]
    assert aggregated == ["aggregator-1", "aggregator-2", "aggregator-root"]
    # the root's answer is composed of its children's own answers (no model rewrites them)
    assert out["answer"].count(AGREE) == 4
    assert "Mechanism?" in out["answer"] and "Aspirin, adults?" in out["answer"]
    assert [c["id"] for c in out["citations"]] == ["s-aspirin"]
    assert {n["id"]: n["status"] for n in out["tree"]}["1.1"] == "agreed"


def test_each_parallel_worker_runs_its_own_script_and_persona() -> None:
    models = {f"worker-root-{i}": scripted(f"w{i}", AGREE) for i in range(3)}
    retriever = aspirin_retriever()
    out, _, _ = run("How does aspirin work?", context(models, retriever, flat=True, workers=3))
    names = SETTINGS.debate.personas  # synthesizer, critic, close reader
    for i, name in enumerate(names):
        model = models[f"worker-root-{i}"]
        assert model.calls == 1
        assert str(model.prompts[0][0].content).endswith(PERSONAS[name])
        assert out["usage"][f"worker-root-{i}"]["role"] == name
    assert len(retriever.queries) == 3  # one seed retrieval per worker


def test_personas_are_configurable_by_name_or_as_an_instruction() -> None:
    own = "You are the statistician: judge the study designs behind the sections."
    models = {f"worker-root-{i}": scripted(f"w{i}", AGREE) for i in range(2)}
    ctx = context(models, flat=True, workers=2, personas=["devils_advocate", own])
    run("How does aspirin work?", ctx)
    first, second = (str(models[f"worker-root-{i}"].prompts[0][0].content) for i in range(2))
    assert first.endswith(PERSONAS["devils_advocate"]) and second.endswith(own)


@pytest.mark.parametrize(
    ("personas", "workers", "problem"),
    [
        (["synthesizer", " "], 2, "personas must be"),
        (["synthesizer"], 2, "workers must be 1..1"),
        (["synthesizer", "devil_advocate"], 2, "unknown persona 'devil_advocate'"),
        ("critic", 1, "not a string"),
    ],
)
def test_a_bad_persona_list_is_a_config_error(
    personas: list[str] | str, workers: int, problem: str
) -> None:
    ctx = context({}, workers=workers, personas=personas)
    with pytest.raises(ConfigError, match=problem):
        resolve_config(ctx)


def test_agreement_skips_the_debate() -> None:
    models = {
        "worker-root-0": scripted("w0", AGREE),
        "worker-root-1": scripted("w1", "Aspirin irreversibly inhibits COX-1 [s-aspirin]!"),
    }
    out, _, _ = run("How does aspirin work?", context(models, flat=True, workers=2, rounds=2))
    assert _moves(out) == [("worker-root-0", 0), ("worker-root-1", 0)]
    assert not _moves(out, "review") and not _moves(out, "summary")
    assert set(out["usage"]) == {"worker-root-0", "worker-root-1"}
    root = out["tree"][0]
    assert root["status"] == "agreed" and not root["debated"] and root["agreement"] == 1.0
    assert out["answer"] == AGREE


def test_disagreement_runs_bounded_rounds_then_review_and_summary() -> None:
    models = {
        "worker-root-0": scripted("w0", AGREE, AGREE, AGREE, AGREE),
        "worker-root-1": scripted("w1", OTHER, OTHER, OTHER, OTHER),
        "reviewer-root": scripted("rev", "Worker 0 cites [s-aspirin]; worker 1 cites nothing."),
        "summarizer-root": scripted("sum", "COX-1 inhibition [s-aspirin] [s-fabricated]."),
    }
    out, _, _ = run("How does aspirin work?", context(models, flat=True, workers=2, rounds=2))
    assert _moves(out) == [(f"worker-root-{i}", r) for r in range(3) for i in range(2)]
    assert models["worker-root-0"].calls == 3  # round 0 + 2 debate rounds, no more
    debate_prompt = str(models["worker-root-0"].prompts[1][1].content)
    assert "<other_answers>" in debate_prompt and OTHER in debate_prompt
    assert models["reviewer-root"].calls == 1 and models["summarizer-root"].calls == 1
    review_prompt = str(models["reviewer-root"].prompts[0][1].content)
    assert review_prompt.count("<move ") == 6
    assert out["answer"] == "COX-1 inhibition [s-aspirin]."  # fabricated id stripped
    root = out["tree"][0]
    assert root["status"] == "summarized" and root["rounds"] == 2
    assert root["unverified"] == ["s-fabricated"]
    citations = next(v for v in out["validation"] if v["name"] == "citations")
    assert citations["details"]["stripped_earlier"] == ["s-fabricated"]


def test_debate_stops_early_when_workers_converge() -> None:
    models = {
        "worker-root-0": scripted("w0", AGREE, AGREE),
        "worker-root-1": scripted("w1", OTHER, AGREE),
        "reviewer-root": scripted("rev", "They now agree."),
        "summarizer-root": scripted("sum", AGREE),
    }
    out, _, _ = run("How does aspirin work?", context(models, flat=True, workers=2, rounds=3))
    assert models["worker-root-1"].calls == 2
    assert out["agreement"]["root"] == {"round": 1, "score": 1.0, "agreed": True}
    assert out["tree"][0]["debated"] and out["tree"][0]["confidence"] == 1.0


def test_worker_citing_an_unretrieved_section_is_not_trusted() -> None:
    models = {"worker-root-0": scripted("w0", "COX [s-aspirin]; 75 mg daily [s-dose].")}
    retriever = FakeRetriever([ASPIRIN], match_all=True)
    out, _, _ = run("How does aspirin work?", context(models, retriever, flat=True, no_debate=True))
    move = out["transcript"][0]
    assert move["citations"] == ["s-aspirin"] and move["unverified"] == ["s-dose"]
    # the dose rests on a section the worker never retrieved: not supported, not shown
    (claim, *_) = out["claims"]
    assert claim["verdict"] == "unsupported" and claim["dropped"] and "75" in claim["reason"]
    assert "75 mg" not in out["answer"] and out["citations"] == []
    assert out["retrieved"] == {"worker-root-0": ["s-aspirin"]}


#: The dose sentence naming what was asked (a flat root's claims must answer its question).
GIVEN = DOSE.model_copy(update={"text": "Aspirin is given at a usual dose of 75 mg daily."})


def test_text_tool_call_is_run_and_bounded() -> None:
    calls = (
        '```json\n{"name": "retrieve_corpus_sections", "arguments": {"query": "aspirin dose"}}'
        '\n```\nretrieve_corpus_sections(query="bleeding")'
    )
    models = {"worker-root-0": scripted("w0", calls, "75 mg daily [S2].")}
    retriever = FakeRetriever([ASPIRIN], match_all=True, by_keyword={"dose": [GIVEN]})
    ctx = context(models, retriever, flat=True, no_debate=True, max_tool_calls=1)
    out, _, _ = run("How is aspirin given?", ctx)
    assert retriever.queries == ["How is aspirin given?", "aspirin dose"]
    offer = str(models["worker-root-0"].prompts[0][1].content)
    assert '{"name": "retrieve_corpus_sections", "arguments": {"query": ' in offer
    second = "\n".join(str(m.content) for m in models["worker-root-0"].prompts[1])
    assert '<section id="S2" source="dosing.md">' in second and "s-dose" not in second
    assert out["transcript"][0]["queries"] == ["How is aspirin given?", "aspirin dose"]
    assert out["answer"] == "75 mg daily [s-dose]." and out["usage"]["worker-root-0"]["calls"] == 2
    assert (
        set(out["citations"][0]) >= {"id", "source"}
        and out["citations"][0]["source"] == "dosing.md"
    )
