"""Seed 000's debate plans: the orchestrator's decomposition, aggregation, final verdicts."""

from __future__ import annotations

from typing import Any

from debate_fakes import context, run, scripted

from disputatio.state.retrieval import Section
from disputatio.testing import FakeRetriever

TERN_DRILLS = Section(
    id="polar-tern-drills-0001", source="ops.md", text="Fire drills are held on Mondays."
)
TERN_BATTERY = Section(
    id="ctd41-battery-000000002", source="ctd41.md", text="Battery: the battery lasts 300 h."
)


def test_orchestrator_gets_a_one_shot_example_and_a_flat_list_at_depth_one() -> None:
    models = {
        "orchestrator": scripted("o", {"subquestions": ["What is the dose?", "Any risks?"]}),
        "worker": scripted("w", "Verdict: 75 mg.\nDaily [S1]."),
    }
    models["worker"].repeat_last = True
    ctx = context(models, max_depth=1, workers=1, max_tool_calls=0)
    out, _, _ = run("What is the dose of aspirin and what are its risks?", ctx)
    system = str(models["orchestrator"].prompts[0][0].content)
    assert "Example:" in system and '{"subquestions": ["' in system
    assert [n["question"] for n in out["tree"][1:]] == ["What is the dose?", "Any risks?"]


def test_nested_plans_keep_their_example_at_depth_two() -> None:
    models = {
        "orchestrator": scripted("o", {"subquestions": []}),
        "worker-root-0": scripted("w", "Verdict: yes."),
    }
    run("Q?", context(models, max_depth=2, workers=1, max_tool_calls=0))
    system = str(models["orchestrator"].prompts[0][0].content)
    assert "Example:" in system and '"subquestions": []}' in system


def test_orchestrator_tokens_are_counted_when_decomposition_fails() -> None:
    models = {
        "orchestrator": scripted("o", "not json", "still not json", "no"),
        "worker-root-0": scripted("w", "Verdict: yes."),
    }
    out, _, _ = run("Q?", context(models, max_depth=1, workers=1, max_tool_calls=0))
    assert any("decomposition failed" in n for n in out["notes"])
    usage = out["usage"]["orchestrator"]
    assert usage["calls"] == 3 and usage["output_tokens"] > 0


def test_aggregation_keeps_each_sub_answer_and_its_citations() -> None:
    """The held-out failure: one sub-answer invented the other's figure, uncited."""
    plan = {"subquestions": ["When are fire drills held?", "How long does the battery last?"]}
    models = {
        "orchestrator": scripted("o", plan),
        "worker-1-0": scripted(
            "w1",
            "Verdict: on Mondays.\nFire drills are held on Mondays [S1]. "
            "The CTD-41 battery lasts 6 hours.",
        ),
        "worker-2-0": scripted("w2", "Verdict: 300 hours.\nThe battery lasts 300 hours [S1]."),
    }
    retriever = FakeRetriever(
        [TERN_DRILLS],
        match_all=True,
        by_keyword={"battery": [TERN_BATTERY], "drill": [TERN_DRILLS]},
    )
    ctx = context(models, retriever, max_depth=1, workers=1, max_tool_calls=0)
    out, _, _ = run(
        "When are fire drills held on the Polar Tern, and how long does the CTD-41 battery last?",
        ctx,
    )
    answer = out["answer"]
    assert "300 hours [ctd41-battery-000000002]" in answer
    assert "Mondays [polar-tern-drills-0001]" in answer
    assert "6 hours" not in answer
    assert {c["id"] for c in out["citations"]} == {
        "polar-tern-drills-0001",
        "ctd41-battery-000000002",
    }


def test_a_decomposed_question_gets_a_final_verdict_over_its_composed_parts() -> None:
    """The composition names no option; the root's aggregator reads the parts and chooses."""
    plan = {"subquestions": ["When are fire drills held?", "How long does the battery last?"]}

    def models(verdict: str | None) -> dict[str, Any]:
        scripts = {
            "orchestrator": scripted("o", plan),
            "worker-1-0": scripted("w1", "Verdict: on Mondays.\nDrills are held on Mondays [S1]."),
            "worker-2-0": scripted("w2", "Verdict: 300 hours.\nThe battery lasts 300 hours [S1]."),
        }
        if verdict is not None:
            scripts["aggregator-root"] = scripted("agg", verdict)
        return scripts

    retriever = FakeRetriever(
        [TERN_DRILLS],
        match_all=True,
        by_keyword={"battery": [TERN_BATTERY], "drill": [TERN_DRILLS]},
    )
    question = "How long does the CTD-41 battery last?"
    # options: on by default, the verdict names an option's letter
    scripts = models("Verdict: B\nThe battery sub-answer decides it.")
    ctx = context(scripts, retriever, max_depth=1, workers=1, max_tool_calls=0)
    out, _, _ = run(question, ctx, options={"A": "6 hours", "B": "300 hours"})
    chooser = scripts["aggregator-root"]
    assert chooser.calls == 1
    received = "\n".join(str(m.content) for m in chooser.prompts[0])
    assert "A. 6 hours" in received and "B. 300 hours" in received
    assert "letter of one option" in received and "Choose exactly one option" in received
    assert "The battery lasts 300 hours" in received and "Mondays" in received  # every part
    assert out["answer"].splitlines()[0] == "Verdict: B"  # its reason is not kept
    assert "The battery lasts 300 hours [ctd41-battery-000000002]" in out["answer"]
    assert out["usage"]["aggregator-root"]["role"] == "aggregator"
    # no options: the bare composition, no model asked ...
    ctx = context(models(None), retriever, max_depth=1, workers=1, max_tool_calls=0)
    out, _, _ = run(question, ctx)
    assert out["answer"].startswith("When are fire drills held?")
    assert "aggregator-root" not in out["usage"]
    # ... unless asked for: the short answer heads it (e.g. a number)
    scripts = models("300 hours, from the battery sub-answer.")  # no verdict line: first line
    ctx = context(scripts, retriever, max_depth=1, workers=1, max_tool_calls=0, final_verdict=True)
    out, _, _ = run(question, ctx)
    system = str(scripts["aggregator-root"].prompts[0][0].content)
    assert "the short answer" in system and "option" not in system
    assert out["answer"].splitlines()[0] == "Verdict: 300 hours, from the battery sub-answer."


def test_a_flat_root_that_names_no_option_gets_one_call_that_chooses_one() -> None:
    """Run B's MedQA 579: not decomposed, its answer said no section answers it."""
    refusal = (
        "Verdict: None of the provided sections answers the question.\n"
        "The battery lasts 300 h [S1]."
    )
    options = {"A": "6 hours", "B": "300 hours"}
    question = "How long does the CTD-41 battery last?"

    def models(worker: str) -> dict[str, Any]:
        return {
            "worker-root-0": scripted("w", worker),
            "aggregator-root": scripted("agg", "Verdict: B\nThe answer gives 300 h."),
        }

    retriever = FakeRetriever([TERN_BATTERY], match_all=True)
    scripts = models(refusal)
    ctx = context(scripts, retriever, flat=True, workers=1, max_tool_calls=0)
    out, _, _ = run(question, ctx, options=options)
    chooser = scripts["aggregator-root"]
    assert chooser.calls == 1
    received = "\n".join(str(m.content) for m in chooser.prompts[0])
    assert "B. 300 hours" in received and "Choose exactly one option" in received
    assert "None of the provided sections" in received and "The battery lasts 300 h" in received
    lines = out["answer"].splitlines()
    assert lines[0] == "Verdict: B" and "None of the provided sections" in out["answer"]
    assert [c["id"] for c in out["citations"]] == [TERN_BATTERY.id]  # the answer's own kept
    assert out["tree"][0]["status"] == "agreed"  # still the workers' answer below the verdict
    assert [m["kind"] for m in out["transcript"]][-1] == "verdict"
    # an answer that names an option, no options, or final_verdict off: nobody is asked
    for worker, inputs, extra in [
        ("Verdict: B\nIt lasts 300 hours [S1].", {"options": options}, {}),
        (refusal, {}, {}),
        (refusal, {"options": options}, {"final_verdict": False}),
    ]:
        scripts = models(worker)
        ctx = context(scripts, retriever, flat=True, workers=1, max_tool_calls=0, **extra)
        out, _, _ = run(question, ctx, **inputs)
        assert scripts["aggregator-root"].calls == 0
        assert out["answer"].splitlines()[0] == worker.splitlines()[0]


def test_small_local_models_get_a_flat_plan_of_at_most_three() -> None:
    from disputatio.graphs.debate import DebateContext
    from disputatio.nodes.debate.context import resolve_config
    from disputatio.settings import load_settings

    settings = load_settings(debate={"max_depth": 2, "max_breadth": 5})
    local = resolve_config(DebateContext(model="local:qwen2.5-coder-1.5b", settings=settings))
    assert (local.max_depth, local.max_breadth, local.flat_plan) == (1, 3, True)
    hosted = resolve_config(DebateContext(model="openai:gpt-4o-mini", settings=settings))
    assert (hosted.max_depth, hosted.max_breadth, hosted.flat_plan) == (2, 5, False)
    chosen = resolve_config(
        DebateContext(model="local:qwen2.5-coder-1.5b", settings=settings, max_depth=2)
    )
    assert chosen.max_depth == 2 and not chosen.flat_plan
