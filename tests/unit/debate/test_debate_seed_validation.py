"""Seed 000's validation hooks in the hierarchical and medrag graphs, and the bias default."""

from __future__ import annotations

from typing import Any

from debate_fakes import aspirin_retriever, context, run, scripted

from disputatio.graphs.medrag_debate import MedragContext
from disputatio.graphs.medrag_debate import graph as medrag_graph
from disputatio.testing import ScriptedChatModel
from disputatio.validators import ValidationContext, ValidationResult
from disputatio.validators.hooks import BiasValidator, LexicalBiasDetector


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
