"""Fixtures of the eval harness tests: toy questions, a fake retriever, scripted envs."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from disputatio.eval.config import EvalConfig
from disputatio.eval.protocols import ProtocolEnv
from disputatio.eval.question import Question
from disputatio.nodes.debate.context import DebateContext
from disputatio.nodes.medrag.context import MedragContext
from disputatio.settings import load_settings
from disputatio.state.retrieval import Section
from disputatio.testing import FakeRetriever, ScriptedChatModel

OPTIONS = {"A": "one", "B": "two", "C": "three", "D": "four"}


def toy_questions(n: int = 4, dataset: str = "toy") -> list[Question]:
    golds = "ABCD"
    return [
        Question(
            id=f"q{i}",
            dataset=dataset,
            question=f"Question {i}?",
            options=OPTIONS,
            gold=golds[i % 4],
            context=(f"snippet {i}",),
        )
        for i in range(n)
    ]


#: What :func:`fake_retriever` returns for every query: the first ``k`` (2 unless asked).
RANKING = [Section(id=f"s{i}", text=f"Evidence {i}.", score=1.0) for i in range(32)]


def fake_retriever() -> FakeRetriever:
    """Returns the first ``k`` sections of :data:`RANKING`; records every search."""
    return FakeRetriever(RANKING, k=2, match_all=True)


def scripted_models(answer: str = "A", agents: tuple[str, str] = ("A", "A")) -> dict[str, Any]:
    """Baseline always answers ``answer``; debate agents answer ``agents``."""
    return {
        "baseline": ScriptedChatModel(script=[f"Answer Choice: {answer}"], repeat_last=True),
        "agent1": ScriptedChatModel(script=[f"Answer Choice: {agents[0]}"], repeat_last=True),
        "agent2": ScriptedChatModel(script=[f"Answer Choice: {agents[1]}"], repeat_last=True),
        "summarizer": ScriptedChatModel(script=["summary"], repeat_last=True),
        "verifier": ScriptedChatModel(script=[f"Answer Choice: {agents[0]}"], repeat_last=True),
    }


def hier_models(reply: str) -> dict[str, Any]:
    """One scripted ``reply`` for every role of the hierarchical debate; no decomposition."""
    worker = ScriptedChatModel(script=[reply], repeat_last=True)
    models: dict[str, Any] = {k: worker for k in ("worker", "reviewer", "summarizer", "aggregator")}
    models["orchestrator"] = ScriptedChatModel(script=['{"subquestions": []}'], repeat_last=True)
    return models


def hier_env(models: dict[str, Any], retriever: Any = None) -> Callable[[str, Any], ProtocolEnv]:
    """An env factory whose medrag and hierarchical contexts use ``models`` (and ``retriever``).

    The settings name a chat model that fails if called: every model a protocol uses must be
    scripted.
    """
    settings = load_settings(models={"chat": "openai:never-called"})

    def env_for(_dataset: str, _questions: Any) -> ProtocolEnv:
        return ProtocolEnv(
            medrag=MedragContext(models=models, settings=settings),
            hier=DebateContext(models=models, retriever=retriever, settings=settings),
        )

    return env_for


@pytest.fixture
def make_env() -> Callable[..., Callable[[str, Any], ProtocolEnv]]:
    """``make_env(models, retriever)`` → an env factory for ``run_eval``."""

    def make(models: dict[str, Any], retriever: Any = None, **ctx: Any) -> Any:
        def env_for(_dataset: str, _questions: Any) -> ProtocolEnv:
            medrag = MedragContext(models=models, retriever=retriever or fake_retriever(), **ctx)
            return ProtocolEnv(medrag=medrag)

        return env_for

    return make


@pytest.fixture
def config() -> EvalConfig:
    return EvalConfig(model="scripted", seed=0, corpus="oracle", k=2, code={"fingerprint": "t"})
