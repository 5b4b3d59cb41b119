"""Fakes shared by the referee tests: a keyword retriever and scripted agent replies."""

from __future__ import annotations

from typing import Any

from disputatio.graphs.referee import RefereeContext
from disputatio.state.retrieval import Section
from disputatio.testing import FakeRetriever, ScriptedChatModel

CORPUS = {
    "pg-1": "pgvector adds vector similarity search to PostgreSQL with HNSW and IVFFlat indexes.",
    "pg-2": "pgvector keeps vectors next to relational data, so operations reuse Postgres backups.",
    "fa-1": "FAISS is an in-memory library for fast similarity search on billions of vectors.",
    "fa-2": "FAISS has no persistence or transactions; the application must store the index.",
    "neo-1": "Neo4j is a graph database with a vector index for node embeddings.",
}

#: Axes of the happy path and the referee's scores on them.
AXES = [("latency", 8), ("operations", 3)]
AXIS_NAMES = [a for a, _ in AXES]
SCORES = {
    ("pgvector", "latency"): 6,
    ("pgvector", "operations"): 9,
    ("FAISS", "latency"): 9,
    ("FAISS", "operations"): 4,
}


def keyword_retriever(corpus: dict[str, str] | None = None) -> FakeRetriever:
    """The sections sharing the most words with the query (3 unless asked; ties by id)."""
    texts = corpus or CORPUS
    return FakeRetriever([Section(id=sid, text=texts[sid]) for sid in sorted(texts)], k=3)


def plan_reply(options: list[str], axes: list[tuple[str, int]], **extra: Any) -> dict[str, Any]:
    """A planner reply; ``constraints={"budget": "small"}`` becomes ``{kind, text}`` items."""
    constraints = extra.pop("constraints", {})
    return {
        "options": options,
        "axes": [{"name": n, "weight": w} for n, w in axes],
        "constraints": [{"kind": k, "text": v} for k, v in constraints.items()],
        **extra,
    }


def advocate_reply(option: str, cite: str, axes: list[str]) -> dict[str, Any]:
    """An advocate reply with one claim per axis; the first cites ``cite``, the rest nothing."""
    claims = [
        {"axis": axis, "text": f"{option} is good at {axis}", "citations": [cite] if i == 0 else []}
        for i, axis in enumerate(axes)
    ]
    return {"summary": f"{option} fits", "claims": claims, "weaknesses": [f"{option} has limits"]}


def examiner_reply(checks: list[tuple[str, str, list[str]]], defense: str = "") -> dict[str, Any]:
    """An examiner reply: ``(claim_id, verdict, citations)`` per check."""
    return {
        "checks": [{"claim_id": c, "verdict": v, "citations": ids} for c, v, ids in checks],
        "defense": defense,
    }


def ruling_reply(
    scores: dict[tuple[str, str], int], recommendation: str, **extra: Any
) -> dict[str, Any]:
    """A referee reply from ``{(option, axis): score}``."""
    return {
        "scores": [{"option": o, "axis": a, "score": s} for (o, a), s in scores.items()],
        "recommendation": recommendation,
        "confidence": extra.pop("confidence", "high"),
        **extra,
    }


def scripted(**scripts: list[Any]) -> dict[str, ScriptedChatModel]:
    """One ScriptedChatModel per agent (keyword ``advocate_pgvector`` → ``advocate-pgvector``)."""
    return {
        name.replace("_", "-"): ScriptedChatModel(script=script, name=name.replace("_", "-"))
        for name, script in scripts.items()
    }


ROLES = ("planner", "advocate", "examiner", "referee")


def context(models: dict[str, ScriptedChatModel], **kwargs: Any) -> RefereeContext:
    """A context with the scripted models and the keyword retriever.

    An agent without a script falls back to an empty per-role script, so it fails at once
    (never reaching for a real model).
    """
    kwargs.setdefault("retriever", keyword_retriever())
    kwargs.setdefault("structured_retries", 0)
    fallbacks = {r: ScriptedChatModel(script=[], name=f"unscripted-{r}") for r in ROLES}
    return RefereeContext(models={**fallbacks, **models}, **kwargs)


def happy_models(**overrides: list[Any]) -> dict[str, ScriptedChatModel]:
    """Scripts of a full pgvector-vs-FAISS run (``overrides`` replace an agent's script).

    The pgvector advocate also cites an id it never saw (``made-up-id``).
    """
    pg = advocate_reply("pgvector", "pg-1", AXIS_NAMES)
    pg["claims"][0]["citations"].append("made-up-id")
    ruling = ruling_reply(SCORES, "FAISS", trade_offs=[{"if_matters": "ops", "choose": "pgvector"}])
    scripts: dict[str, list[Any]] = {
        "planner": [plan_reply(["pgvector", "FAISS"], AXES, constraints={"budget": "small"})],
        "advocate_pgvector": [pg],
        "advocate_faiss": [advocate_reply("FAISS", "fa-1", AXIS_NAMES)],
        "examiner_pgvector": [
            examiner_reply([("faiss#1", "confirmed", ["fa-1"]), ("faiss#2", "disputed", [])])
        ],
        "examiner_faiss": [examiner_reply([("pgvector#1", "confirmed", ["pg-1"])], "fast [fa-1]")],
        "referee": [ruling],
    }
    scripts.update(overrides)
    return scripted(**scripts)
