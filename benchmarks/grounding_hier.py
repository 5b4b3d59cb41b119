"""The hierarchical debate on the grounding questions, scored as the quick path and plain chain.

``benchmarks/grounding.py --systems plain,project,hier`` runs it beside the other two in the
same run, on the same in-process funnel and model; ``hier`` records are scored by the same
:func:`grounding.score` (parts right, claims supported, fabricated citations, refusals, per-part
"not found", citations on gold evidence). The debate's claims are those its ``support``
validator judged on the final answer; the sections it counts as shown are every section any
agent retrieved.

The debate runs decomposed (the orchestrator splits the question), sized for a CPU like
``make demo``: one level of at most two sub-questions, two workers each, one debate round when
they disagree, the seed sections only (no retrieval tool calls). The settings are recorded in
each record (``hier_settings``) so a run with others is told apart.
"""

from __future__ import annotations

import time
import uuid
from typing import Any

#: The debate's size on a CPU (DebateContext fields; recorded with each answer).
HIER_SETTINGS: dict[str, Any] = {
    "max_depth": 1,
    "max_breadth": 2,
    "workers": 2,
    "rounds": 1,
    "max_tool_calls": 0,
    "seed_k": 4,
    "max_tokens": 320,
}


def run_hier(q: dict[str, Any], funnel: Any, model: str) -> dict[str, Any]:
    """Ask ``q`` through the hierarchical debate; its record (scores, answer, claims)."""
    from grounding import score
    from langgraph.checkpoint.memory import InMemorySaver

    from disputatio.graphs.debate import build_graph
    from disputatio.nodes.debate.context import DebateContext

    ctx = DebateContext(model=model, retriever=funnel, **HIER_SETTINGS)
    graph = build_graph().compile(checkpointer=InMemorySaver())
    config: Any = {"configurable": {"thread_id": f"{q['id']}-{uuid.uuid4().hex[:8]}"}}
    t0 = time.perf_counter()
    graph.invoke({"question": q["question"]}, config, context=ctx)
    wall = time.perf_counter() - t0
    values = dict(graph.get_state(config).values)
    shown = values.get("sections") or {}
    claims = values.get("claims") or []
    support: dict[str, Any] = next(
        (v for v in values.get("validation", []) if v.get("name") == "support"), {}
    )
    fabricated = len((support.get("details") or {}).get("fabricated_labels") or [])
    rec = score(q, values["answer"], claims, shown, fabricated)
    rec.update(answer=values["answer"], wall_s=wall, claims_detail=claims)
    rec.update(
        hier_settings=HIER_SETTINGS,
        tree=[{k: n.get(k) for k in ("id", "question", "answer")} for n in values.get("tree", [])],
        notes=values.get("notes") or [],
        calls=sum(int(u.get("calls", 0)) for u in (values.get("usage") or {}).values()),
    )
    return rec
