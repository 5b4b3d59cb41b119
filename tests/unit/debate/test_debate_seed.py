"""The hierarchical debate does what seed 000 says (scripted agents, one script per agent)."""

from __future__ import annotations

from typing import Any

from debate_fakes import ASPIRIN, BLEED, DOSE, aspirin_retriever, context, run, scripted

from disputatio.graphs.medrag_debate import MedragContext
from disputatio.graphs.medrag_debate import graph as medrag_graph
from disputatio.nodes.debate.agreement import lexical_similarity, pair_similarity
from disputatio.nodes.debate.workers import REPAIR_MAX_TOKENS
from disputatio.state.retrieval import Section
from disputatio.testing import FakeRetriever, ScriptedChatModel
from disputatio.validators import ValidationContext, ValidationResult
from disputatio.validators.claims import NOT_FOUND_ANSWER
from disputatio.validators.hooks import BiasValidator, LexicalBiasDetector

TERN_DRILLS = Section(
    id="polar-tern-drills-0001", source="ops.md", text="Fire drills are held on Mondays."
)
TERN_BATTERY = Section(
    id="ctd41-battery-000000002", source="ctd41.md", text="Battery: the battery lasts 300 h."
)


def test_workers_see_short_labels_and_their_citations_map_back() -> None:
    models = {
        "worker-root-0": scripted("w0", "Verdict: COX-1.\nIt inhibits COX-1 [S1].", "Same [S1]."),
        "worker-root-1": scripted("w1", "Verdict: unknown.\nNo idea.", "Verdict: COX-1 [S1]."),
        "reviewer-root": scripted("rev", "Fine."),
        "summarizer-root": scripted("sum", "Verdict: COX-1.\nInhibits COX-1 [S1]."),
    }
    ctx = context(models, flat=True, workers=2, rounds=1, max_tool_calls=0, review_searches=0)
    out, _, _ = run("How does aspirin work?", ctx)
    first = "\n".join(str(m.content) for m in models["worker-root-0"].prompts[0])
    assert '<section id="S1" source="pharma.md"' in first and "s-aspirin" not in first
    # the debate round shows the other worker's citations with this worker's labels
    debate = str(models["worker-root-1"].prompts[1][1].content)
    assert "COX-1 [S1]" in debate and "s-aspirin" not in debate
    assert out["transcript"][0]["citations"] == ["s-aspirin"]
    assert [c["id"] for c in out["citations"]] == ["s-aspirin"]


def test_workers_receive_their_own_temperatures() -> None:
    models = {
        "worker-root-0": scripted("w0", "Verdict: yes.\nA [S1]."),
        "worker-root-1": scripted("w1", "Verdict: yes.\nB [S1]."),
    }
    run("Does aspirin inhibit COX?", context(models, flat=True, workers=2, max_tool_calls=0))
    assert [r["temperature"] for r in models["worker-root-0"].received] == [0.7]
    assert [r["temperature"] for r in models["worker-root-1"].received] == [0.3]


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


def test_agreement_compares_verdicts_not_wording() -> None:
    same = pair_similarity(
        "Verdict: Serology and blood culture.\nLong support one [S1].",
        "Verdict: blood culture and serology\nCompletely different prose [S2].",
        lexical_similarity,
    )
    figures = pair_similarity(
        "Verdict: the battery lasts 300 hours.", "Verdict: 6 hours.", lexical_similarity
    )
    assert same == 1.0 and figures == 0.0
    models = {
        "worker-root-0": scripted("w0", "Verdict: COX-1 inhibition.\nAspirin blocks it [S1]."),
        "worker-root-1": scripted("w1", "Verdict: inhibition of COX-1\nSee the section [S1]."),
    }
    out, _, _ = run("How?", context(models, flat=True, workers=2, rounds=2, max_tool_calls=0))
    assert out["tree"][0]["status"] == "agreed" and not out["tree"][0]["debated"]


def test_reviewer_can_ask_for_more_evidence_bounded() -> None:
    models = {
        "worker-root-0": scripted("w0", "Verdict: safe.\nFine [S1].", "Verdict: safe."),
        "worker-root-1": scripted("w1", "Verdict: risky.\nBleeds.", "Verdict: risky."),
        "reviewer-root": scripted(
            "rev", 'Risk is disputed.\nretrieve("bleeding risk")\nretrieve("dose")'
        ),
        "summarizer-root": scripted("sum", "Verdict: risky.\nIt raises bleeding risk [S2]."),
    }
    retriever = FakeRetriever(
        [ASPIRIN], match_all=True, by_keyword={"bleed": [BLEED], "dose": [DOSE]}
    )
    ctx = context(models, retriever, flat=True, workers=2, rounds=1, max_tool_calls=0)
    out, _, _ = run("Is aspirin safe?", ctx)
    queries = retriever.queries
    assert queries.count("bleeding risk") == 1 and "dose" not in queries  # review_searches=1
    # the found section comes with the summarizer's request, labelled after the reviewed ones
    prompt = models["summarizer-root"].prompts[0]
    request, critique = str(prompt[-1].content), str(prompt[-2].content)
    assert '<section id="S2" source="risks.md"' in request and "raises bleeding risk" in request
    assert critique == "Risk is disputed." and "retrieve(" not in critique
    review = next(m for m in out["transcript"] if m["kind"] == "review")
    assert review["queries"] == ["bleeding risk"] and "retrieve(" not in review["content"]
    assert [c["id"] for c in out["citations"]] == ["s-bleed"]


def test_a_summary_citing_nothing_gives_way_to_the_best_grounded_worker_answer() -> None:
    """The 0.5B e2e failure: the summarizer looped on the moderator's instruction, uncited."""
    loop = "Verdict: The debate is ongoing, and every answer above is supported."
    models = {
        "worker-root-0": scripted("w0", "Verdict: safe.\nFine.", "Verdict: safe.\nStill fine."),
        "worker-root-1": scripted("w1", "Verdict: risky.\nBleeds [S1].", "Verdict: risky [S1]."),
        "reviewer-root": scripted("rev", "They disagree."),
        "summarizer-root": scripted("sum", loop, "no labels"),  # the answer (and a repair)
    }
    ctx = context(models, flat=True, workers=2, rounds=1, max_tool_calls=0, review_searches=0)
    out, _, _ = run("Is aspirin safe?", ctx)
    # worker 1's answer (the notes say so); no claim of it is supported, so neither its short
    # answer "Verdict: risky" nor the id that line cited is shown: the answer says not found
    assert out["answer"] == NOT_FOUND_ANSWER and out["citations"] == []
    assert any("summary cited no section" in n and "worker-root-1" in n for n in out["notes"])
    summary = next(m for m in out["transcript"] if m["kind"] == "summary")
    assert summary["content"] == loop  # what the summarizer said stays in the transcript
    # a summary that cites is kept as it is
    models = {
        **models,
        "summarizer-root": scripted(
            "sum", "Verdict: risky.\nAspirin irreversibly inhibits COX-1 [S1]."
        ),
        "worker-root-0": scripted("w0", "Verdict: safe.\nFine.", "Verdict: safe."),
        "worker-root-1": scripted("w1", "Verdict: risky.\nBleeds [S1].", "Verdict: risky."),
        "reviewer-root": scripted("rev", "They disagree."),
    }
    ctx = context(models, flat=True, workers=2, rounds=1, max_tool_calls=0, review_searches=0)
    out, _, _ = run("Is aspirin safe?", ctx)
    assert out["answer"].startswith("Verdict: risky.\nAspirin irreversibly") and not out.get(
        "notes"
    )


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


class _Always:
    def detect(self, answer: str, context: ValidationContext) -> list[str]:
        return ["custom finding"]


class _Fixed:
    def estimate(self, answer: str, context: ValidationContext) -> float:
        return 0.123


class _Boom:
    name = "boom"

    def validate(self, answer: str, context: ValidationContext) -> ValidationResult:
        raise RuntimeError("kaput")


class _Handler:
    def __init__(self) -> None:
        self.seen: list[str] = []

    def handle(self, name: str, exc: Exception, context: ValidationContext) -> ValidationResult:
        self.seen.append(f"{name}:{exc}")
        return ValidationResult(name=name, passed=False, message="handled")


def _hooks() -> tuple[list[Any], _Handler]:
    from disputatio.validators import ConfidenceValidator

    handler = _Handler()
    return [BiasValidator(_Always()), ConfidenceValidator(estimator=_Fixed()), _Boom()], handler


def test_validation_hooks_run_in_the_hierarchical_graph() -> None:
    validators, handler = _hooks()
    models = {"worker-root-0": scripted("w", "Verdict: yes.\nIt clearly does [S1].")}
    ctx = context(models, flat=True, workers=1, max_tool_calls=0, validators=validators)
    ctx.error_handler = handler
    out, _, _ = run("Q?", ctx)
    by_name = {v["name"]: v for v in out["validation"]}
    assert by_name["bias"]["details"]["findings"] == ["custom finding"]
    assert out["confidence"] == 0.123
    assert handler.seen == ["boom:kaput"] and by_name["boom"]["message"] == "handled"


def test_validation_hooks_run_in_the_medrag_graph() -> None:
    validators, handler = _hooks()
    retriever = aspirin_retriever()
    models = {
        "agent1": ScriptedChatModel(script=["B [S1]. \\boxed{B}"]),
        "agent2": ScriptedChatModel(script=["B. \\boxed{B}"]),
    }
    ctx = MedragContext(
        models=models,
        retriever=retriever,
        agent_query=False,
        validators=validators,
        error_handler=handler,
    )
    out = medrag_graph.invoke({"question": "Q?", "options": {"A": "x", "B": "y"}}, context=ctx)
    by_name = {v["name"]: v for v in out["validation"]}
    assert by_name["bias"]["details"]["findings"] == ["custom finding"]
    assert out["confidence"] == 0.123 and handler.seen == ["boom:kaput"]


def test_default_validators_include_the_basic_bias_detector() -> None:
    models = {
        "worker-root-0": scripted(
            "w", "Verdict: yes.\nAspirin always irreversibly inhibits COX-1 [S1]."
        )
    }
    out, _, _ = run("Q?", context(models, flat=True, workers=1, max_tool_calls=0))
    bias = next(v for v in out["validation"] if v["name"] == "bias")
    assert not bias["passed"] and "always" in bias["message"]
    assert LexicalBiasDetector().detect("It may help [x].", ValidationContext()) == []


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


def test_agreeing_workers_keep_the_cited_answer() -> None:
    models = {
        "worker-root-0": scripted("w0", "Verdict: COX-1 inhibition.\nAspirin blocks COX-1."),
        "worker-root-1": scripted("w1", "Verdict: COX-1 inhibition\nIt inhibits COX-1 [S1]."),
    }
    out, _, _ = run("How?", context(models, flat=True, workers=2, rounds=1, max_tool_calls=0))
    assert out["tree"][0]["status"] == "agreed"
    assert out["answer"] == "Verdict: COX-1 inhibition\nIt inhibits COX-1 [s-aspirin]."
    assert [c["id"] for c in out["citations"]] == ["s-aspirin"]


def test_an_uncited_answer_is_asked_once_for_its_labels() -> None:
    worker = scripted("w", "Verdict: COX-1.\nAspirin blocks COX-1.", "[S1]")
    stubborn = scripted("s", "Verdict: COX-1.\nNo labels.", "Still none.")
    ctx = context(
        {"worker-root-0": worker, "worker-root-1": stubborn},
        flat=True,
        workers=2,
        rounds=0,
        max_tool_calls=0,
        cite_repair=True,
    )
    out, _, _ = run("How?", ctx)
    assert worker.calls == 2 and stubborn.calls == 2  # one repair each, no more
    asked = worker.prompts[1]
    assert "cites no section" in str(asked[-1].content)
    assert asked[-2].content == "Verdict: COX-1.\nAspirin blocks COX-1."  # its own answer
    assert worker.received[1]["max_tokens"] == REPAIR_MAX_TOKENS < worker.received[0]["max_tokens"]
    moves = {m["agent"]: m for m in out["transcript"]}
    assert moves["worker-root-0"]["citations"] == ["s-aspirin"]
    # the answer stays as written; the named section is cited at the sentence it supports
    assert moves["worker-root-0"]["content"] == "Verdict: COX-1.\nAspirin blocks COX-1 [s-aspirin]."
    assert moves["worker-root-1"]["content"] == "Verdict: COX-1.\nNo labels."  # original kept
    assert out["usage"]["worker-root-0"]["calls"] == 2


def test_each_worker_keeps_one_slot_and_leaves_spread_over_slots() -> None:
    from disputatio.models.local import request_options
    from disputatio.nodes.debate.workers import worker_slot
    from disputatio.settings import load_settings

    assert [worker_slot("root", f"worker-root-{i}", 2) for i in range(2)] == [0, 1]
    assert [worker_slot(n, f"worker-{n}-0", 1) for n in ("1", "2", "3")] == [0, 1, 2]
    settings = load_settings(local_llm={"n_parallel": 2})
    assert request_options(settings, 3) == {"cache_prompt": True, "id_slot": 1}
    off = load_settings(local_llm={"cache_prompt": False, "slot_affinity": False})
    assert request_options(off, 1) == {"cache_prompt": False}
