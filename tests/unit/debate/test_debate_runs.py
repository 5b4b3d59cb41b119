"""Ablations, accounting, streaming, checkpoint serialisation and degradations."""

from __future__ import annotations

import pytest
from debate_fakes import aspirin_retriever, context, run, scripted
from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer

from disputatio.errors import ConfigError
from disputatio.testing import ScriptedChatModel
from disputatio.validators import ValidationContext, ValidationResult

AGREE = "Aspirin inhibits COX-1 [s-aspirin]."
OTHER = "Nothing in the sections explains it; only bleeding risk is mentioned."


def _debate_models() -> dict[str, ScriptedChatModel]:
    return {
        "worker-root-0": scripted("w0", AGREE, AGREE),
        "worker-root-1": scripted("w1", OTHER, OTHER),
        "reviewer-root": scripted("rev", "Only worker 0 is supported."),
        "summarizer-root": scripted("sum", AGREE),
    }


def test_no_debate_uses_one_worker() -> None:
    models = {
        "orchestrator": scripted("o", {"subquestions": []}),
        "worker-root-0": scripted("w0", AGREE),
    }
    out, _, _ = run("How does aspirin work?", context(models, workers=3, rounds=2, no_debate=True))
    assert set(out["usage"]) == {"orchestrator", "worker-root-0"}
    assert out["tree"][0]["status"] == "agreed" and out["answer"] == AGREE


def test_flat_never_calls_the_orchestrator() -> None:
    models = {
        "orchestrator": ScriptedChatModel(script=[], name="must-not-run"),
        "worker-root-0": scripted("w0", AGREE),
    }
    out, _, _ = run("Q?", context(models, max_depth=2, flat=True, no_debate=True))
    assert models["orchestrator"].calls == 0
    assert [n["id"] for n in out["tree"]] == ["root"]
    assert not [m for m in out["transcript"] if m["kind"] == "plan"]


def test_no_rag_never_retrieves_and_cites_nothing() -> None:
    retriever = aspirin_retriever()
    models = {"worker-root-0": scripted("w0", AGREE)}
    out, _, _ = run("Q?", context(models, retriever, flat=True, no_debate=True, no_rag=True))
    assert retriever.queries == []
    prompt = str(models["worker-root-0"].prompts[0][1].content)
    assert "<sections>" not in prompt and "retrieve_corpus_sections" not in prompt
    assert out["citations"] == [] and out["answer"] == "Aspirin inhibits COX-1."
    assert out["tree"][0]["unverified"] == ["s-aspirin"]
    # ungrounded: its claim is uncited (kept: nothing was shown to ground it on)
    assert [(c["verdict"], c["dropped"]) for c in out["claims"]] == [("uncited", False)]
    assert 0.0 <= out["confidence"] <= 1.0


def test_usage_is_summed_per_agent_from_every_call() -> None:
    models = _debate_models()
    out, _, _ = run("How does aspirin work?", context(models, flat=True, workers=2, rounds=1))
    for agent, model in models.items():
        record = out["usage"][agent]
        # ScriptedChatModel counts words: input = words of the prompt, output = words of reply
        expected_in = sum(len(str(m.content).split()) for p in model.prompts for m in p)
        expected_out = sum(len(str(r).split()) for r in model.script[: model.calls])
        assert record["calls"] == model.calls
        assert (record["input_tokens"], record["output_tokens"]) == (expected_in, expected_out)
        assert record["latency_ms"] > 0
    assert out["usage"]["reviewer-root"]["role"] == "reviewer"


def test_stream_emits_updates_and_custom_events() -> None:
    out, events, updates = run(
        "How does aspirin work?", context(_debate_models(), flat=True, workers=2, rounds=1)
    )
    turns = [(e["agent"], e["round"], e["kind"]) for e in events if e["event"] == "turn"]
    # parallel turns stream in completion order; the transcript is in task order
    assert sorted(turns) == sorted((m["agent"], m["round"], m["kind"]) for m in out["transcript"])
    kinds = [e["event"] for e in events]
    assert {"decomposed", "retrieval", "agreement"} <= set(kinds) and kinds[-1] == "final"
    nodes = {name for chunk in updates for name in chunk}
    assert {"decompose", "schedule", "worker_turn", "review", "summarize", "finalize"} <= nodes


def test_state_round_trips_through_the_checkpoint_serializer() -> None:
    out, _, _ = run(
        "How does aspirin work?", context(_debate_models(), flat=True, workers=2, rounds=1)
    )
    serde = JsonPlusSerializer()
    assert serde.loads_typed(serde.dumps_typed(out)) == out


def test_token_budget_stops_the_debate_but_still_concludes() -> None:
    models = _debate_models()
    ctx = context(models, flat=True, workers=2, rounds=2, token_budget=1000)
    ctx.token_budget = 1  # below anything round 0 spends (context bypasses the settings floor)
    out, _, _ = run("How does aspirin work?", ctx)
    assert models["worker-root-0"].calls == 1
    assert any("token budget" in n for n in out["notes"])
    assert out["tree"][0]["status"] == "summarized" and out["answer"] == AGREE


def test_failed_decomposition_degrades_to_flat_with_a_note() -> None:
    models = {
        "orchestrator": scripted("o", "not json", "still not", "nope"),
        "worker-root-0": scripted("w0", AGREE),
    }
    out, _, _ = run("How does aspirin work?", context(models, no_debate=True))
    assert models["orchestrator"].calls == 3  # structured_invoke: 1 + 2 retries
    assert [n["id"] for n in out["tree"]] == ["root"] and out["answer"] == AGREE
    assert out["notes"] and "decomposition failed" in out["notes"][0]


class _Shout:
    name = "shout"

    def validate(self, answer: str, context: ValidationContext) -> ValidationResult:
        return ValidationResult(name=self.name, passed=True, revised_answer=answer.upper())


def test_user_validators_from_the_context_run_and_may_revise() -> None:
    models = {"worker-root-0": scripted("w0", AGREE)}
    ctx = context(models, flat=True, no_debate=True, validators=["citations", _Shout()])
    out, _, _ = run("Q?", ctx)
    assert [v["name"] for v in out["validation"]] == ["citations", "shout"]
    # the revision is re-verified: the upper-cased id is no longer a retrieved section
    assert out["answer"] == "ASPIRIN INHIBITS COX-1." and out["citations"] == []


def test_options_reach_the_workers() -> None:
    models = {"worker-root-0": scripted("w0", "Verdict: B. [s-aspirin]")}
    ctx = context(models, flat=True, no_debate=True)
    out, _, _ = run("Which enzyme?", ctx, options={"A": "Lipase", "B": "COX-1"})
    prompt = str(models["worker-root-0"].prompts[0][1].content)
    assert "A. Lipase" in prompt and "B. COX-1" in prompt
    assert out["tree"][0]["question"].startswith("Which enzyme?")


@pytest.mark.parametrize(
    ("field", "value"), [("workers", 4), ("rounds", -1), ("agreement_threshold", 1.5)]
)
def test_invalid_run_settings_raise_config_error(field: str, value: object) -> None:
    ctx = context({"worker": scripted("w", AGREE)}, flat=True, **{field: value})
    with pytest.raises(ConfigError, match="debate:"):
        run("Q?", ctx)


def test_empty_question_is_refused() -> None:
    with pytest.raises(ConfigError, match="empty"):
        run("  ", context({}, flat=True))


def test_debate_rounds_can_skip_the_tool_offer() -> None:
    call = '{"name": "retrieve_corpus_sections", "arguments": {"query": "aspirin dose"}}'
    models = _debate_models()
    models["worker-root-0"] = scripted("w0", call, AGREE, AGREE)
    ctx = context(models, flat=True, workers=2, rounds=1, max_tool_calls=1, debate_tools=False)
    out, _, _ = run("How does aspirin work?", ctx)
    prompts = models["worker-root-0"].prompts
    assert len(prompts) == 3  # round 0: tool call + answer; round 1: answer only
    assert "retrieve_corpus_sections" in str(prompts[0][1].content)
    assert "retrieve_corpus_sections" not in str(prompts[2][1].content)
    assert "s-dose" in out["retrieved"]["worker-root-0"]


def test_a_bad_validator_spec_fails_before_any_model_call() -> None:
    models = {"worker-root-0": scripted("w0", AGREE)}
    with pytest.raises(ConfigError, match="unknown validator"):
        run("Q?", context(models, flat=True, no_debate=True, validators=["nope"]))
    assert models["worker-root-0"].calls == 0


def test_graph_schemas_are_exportable_for_the_langgraph_server() -> None:
    from disputatio.graphs.debate import graph

    assert set(graph.get_input_jsonschema()["properties"]) == {"question", "options"}
    output = set(graph.get_output_jsonschema()["properties"])
    assert {
        "answer",
        "citations",
        "confidence",
        "tree",
        "transcript",
        "usage",
        "validation",
    } <= output
    context_schema = graph.get_context_jsonschema()
    assert context_schema is not None
    assert {"flat", "no_debate", "no_rag"} <= set(context_schema["properties"])
