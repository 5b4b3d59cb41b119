"""Private agent memory (seed §9): per-agent diaries in the LangGraph store, used for priors.

After each debate the jury writes one diary entry per specialist under the namespace
``("rdc_diary", <tenant>, <agent>)`` (key: the run id) with the case, the agent's accepted and
rejected claims, its entropy gain (the sum of the entropy drops of its turns), its last vote's top
choice, the verdict and, when the case names one, whether the agent's top choice was the gold.
A specialist reads only its own namespace.

At the start of the next debate (``seed``) each specialist's diary gives its priors:

* ``reliability = min(1, (correct + 1) / (graded + 1))`` over the graded past cases (cases with a
  gold): 1 with no record, lower after wrong calls, back up with right ones. It multiplies the
  quality of the agent's claims (:mod:`.moves`), so it scales their weight ``(βq)^α``.
* ``gain`` — the mean entropy gain per turn in past debates: the bandit's prior for the agent's
  recent-gain feature before its first turn (:mod:`.speakers`).

Graphs compiled with a store get it as ``runtime.store``: the LangGraph server provides one,
``disputatio rdc`` compiles with the Postgres store (:func:`disputatio.storage.checkpoint
.open_store`), tests with ``InMemoryStore``. Without a store nothing is kept.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from langgraph.store.base import BaseStore

#: First element of every diary namespace.
NAMESPACE = "rdc_diary"
#: Diary entries read per agent (the most recent first).
MAX_ENTRIES = 100


def namespace(tenant: str, agent: str) -> tuple[str, str, str]:
    """Return the diary namespace of ``agent`` in ``tenant``."""
    return (NAMESPACE, tenant, agent)


def agent_priors(
    store: BaseStore | None, tenant: str, agents: Sequence[str]
) -> dict[str, dict[str, float]]:
    """Return ``{agent: {"reliability", "gain", "cases"}}`` from each agent's diary."""
    priors: dict[str, dict[str, float]] = {}
    for agent in agents:
        entries = [] if store is None else store.search(namespace(tenant, agent), limit=MAX_ENTRIES)
        values = [e.value for e in entries]
        graded = [v for v in values if v.get("correct") is not None]
        correct = sum(1 for v in graded if v["correct"])
        turns = sum(int(v.get("turns", 0)) for v in values)
        gain = math.fsum(float(v.get("gain", 0.0)) for v in values)
        priors[agent] = {
            "reliability": min(1.0, (correct + 1) / (len(graded) + 1)),
            "gain": gain / turns if turns else 0.0,
            "cases": float(len(values)),
        }
    return priors


def diary_entries(
    state: Mapping[str, Any], verdict: Mapping[str, Any], gold: str | None
) -> dict[str, dict[str, Any]]:
    """Return the diary entry of every specialist for the finished debate of ``state``."""
    moves = state.get("moves") or []
    rejected = state.get("rejected") or []
    votes = [v for v in state.get("votes") or [] if v.get("vote_round") == state.get("vote_round")]
    out: dict[str, dict[str, Any]] = {}
    for spec in state["specialists"]:
        name = spec["name"]
        mine = [m for m in moves if m["speaker"] == name]
        vote = next((v for v in votes if v["speaker"] == name), None)
        top = vote["ranking"][0] if vote and vote.get("ranking") else None
        out[name] = {
            "case": verdict.get("case"),
            "at": datetime.now(UTC).isoformat(timespec="seconds"),
            "turns": len(mine),
            "accepted": sum(len(m["nodes"]) for m in mine),
            "rejected": sum(1 for r in rejected if r.get("speaker") == name),
            "gain": math.fsum(m["entropy_before"] - m["entropy_after"] for m in mine),
            "vote_top": top,
            "verdict_top": verdict.get("top"),
            "gold": gold,
            "correct": None if gold is None or top is None else top == gold,
        }
    return out


def write_diaries(
    store: BaseStore | None, tenant: str, run_id: str, entries: Mapping[str, dict[str, Any]]
) -> None:
    """Put each agent's entry in its own namespace (idempotent per run: the key is the run id)."""
    if store is None:
        return
    for agent, value in entries.items():
        store.put(namespace(tenant, agent), run_id, dict(value))
