"""The public retrieval path as a row of the retrieval evaluation.

The stage rows of :mod:`disputatio.eval.retrieval` run the funnel's stages with raised depths;
users get something else: ``retriever.search(query, k=32)`` of the default funnel (the call of
the retrieval tool, the API's ``/query`` and the LangChain retriever), which reranks at most its
candidate list, refuses below the refusal threshold and trims the sections below the conformal
(or ``α · s_max``) threshold. This module runs each question through exactly that call and
scores what comes back like every other row (:func:`~disputatio.eval.retrieval_metrics.quality`),
beside the same call's ranking before the trim (the reranked list the funnel records in its
trace, cut at ``k``), so the trim's cost in recall and gain in precision are read off one run:

* ``search(k=32)``: the sections returned (a refusal returns none);
* ``search(k=32) before trim``: the same search's reranked sections, first ``k``, no refusal;
* per question, the sections returned (mean / min / max) and the precision of what was
  returned (relevant documents / documents returned, over the questions answered).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from disputatio.eval.retrieval_metrics import dedupe, ndcg_at, percentiles, quality
from disputatio.retrievers.base import CorpusRetriever
from disputatio.state.retrieval import RetrievalResult

#: ``k`` of the public call: the most sections the retrieval tool lets an agent ask for.
PUBLIC_K = 32
#: Row names of the public path in the results (``result["public"]``).
AFTER = f"search(k={PUBLIC_K})"
BEFORE = f"search(k={PUBLIC_K}) before trim"
#: Section ids → document label (the id scored), for the sections of one search.
SectionLabels = Callable[[Sequence[str]], Mapping[str, str]]


def public_search(retriever: CorpusRetriever, query: str, k: int = PUBLIC_K) -> RetrievalResult:
    """The call users get: ``retriever.search(query, k=k)``, its threshold the retriever's own.

    The same call as the retrieval tool's (``disputatio.tools.retrieval``) when an agent gives
    no threshold, the API's and the LangChain retriever's.
    """
    return retriever.search(query, k=k)


@dataclass
class PublicRun:
    """What the public call returned for each question.

    Attributes:
        after: Document labels returned per question (empty when refused).
        before: The same search's reranked labels before the trim, first ``k``.
        returned: Sections returned per question.
        candidates: Sections reranked per question (the list the trim cut).
        refused: Questions refused.
        times_ms: Milliseconds of each call.
    """

    after: list[list[str]] = field(default_factory=list)
    before: list[list[str]] = field(default_factory=list)
    returned: list[int] = field(default_factory=list)
    candidates: list[int] = field(default_factory=list)
    refused: int = 0
    times_ms: list[float] = field(default_factory=list)


def run_public(
    retriever: CorpusRetriever,
    queries: Sequence[str],
    labels: SectionLabels,
    *,
    k: int = PUBLIC_K,
    tick: Callable[[int, int, str], None] | None = None,
) -> PublicRun:
    """Run each query through :func:`public_search` and map the sections to document labels.

    Args:
        retriever: The default funnel (any ``CorpusRetriever``).
        queries: The questions.
        labels: Section ids → document labels (ids it does not know are dropped).
        k: Sections asked for.
        tick: Callback after each question: ``(done, total, phase)``.
    """
    out = PublicRun()
    for i, query in enumerate(queries):
        t0 = time.perf_counter()
        result = public_search(retriever, query, k)
        out.times_ms.append((time.perf_counter() - t0) * 1000)
        kept = [s.id for s in result.sections]
        # the reranked list before refusal and trim; a retriever without a trace trims nothing
        ranked = list(result.trace.rerank_scores) or kept
        found = labels(dedupe([*ranked, *kept]))
        out.after.append(dedupe(found[s] for s in kept if s in found))
        out.before.append(dedupe(found[s] for s in ranked[:k] if s in found))
        out.returned.append(len(kept))
        out.candidates.append(len(ranked))
        out.refused += bool(result.refused)
        if tick:
            tick(i + 1, len(queries), "public search")
    return out


def precision(rankings: Sequence[Sequence[str]], relevants: Sequence[Collection[str]]) -> float:
    """Mean share of relevant ids among those returned, over the non-empty rankings (0: none)."""
    shares = [len(set(r) & set(g)) / len(r) for r, g in zip(rankings, relevants, strict=True) if r]
    return sum(shares) / len(shares) if shares else 0.0


def _spread(values: Sequence[int]) -> dict[str, float]:
    if not values:
        return {"mean": 0.0, "min": 0, "max": 0}
    return {"mean": sum(values) / len(values), "min": min(values), "max": max(values)}


def public_rows(
    run: PublicRun, relevants: Sequence[Collection[str]], k: int = PUBLIC_K
) -> dict[str, Any]:
    """The public rows (scored like the stage rows) and what the trim costs and gains.

    Returns:
        ``rows``: ``{AFTER: row, BEFORE: row}``, each :func:`quality` + ``precision`` (and the
        call's latency on ``AFTER``); ``trim``: sections returned and reranked per question
        (mean/min/max), refusals, and the differences after − before; ``per_query``: each
        question's nDCG@10 after and before the trim and its sections returned.
    """
    after: dict[str, Any] = quality(run.after, relevants)
    after |= {"precision": precision(run.after, relevants)}
    after |= percentiles(run.times_ms)
    before: dict[str, Any] = quality(run.before, relevants)
    before |= {"precision": precision(run.before, relevants)}
    before |= {"p50_ms": None, "p95_ms": None}
    delta = {m: after[m] - before[m] for m in ("recall@10", "recall@32", "ndcg@10", "precision")}
    return {
        "call": f"retriever.search(q, k={k})",
        "rows": {AFTER: after, BEFORE: before},
        "trim": {
            "returned": _spread(run.returned),
            "reranked": _spread(run.candidates),
            "refused": run.refused,
            "after_minus_before": delta,
        },
        "per_query": [
            {
                "ndcg@10": round(ndcg_at(a, g, 10), 4),
                "ndcg@10 before trim": round(ndcg_at(b, g, 10), 4),
                "returned": n,
            }
            for a, b, g, n in zip(run.after, run.before, relevants, run.returned, strict=True)
        ],
    }
