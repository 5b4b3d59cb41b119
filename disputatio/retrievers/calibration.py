"""Calibration of the funnel's scores on labelled queries (``disputatio calibrate``).

Labelled pairs come from a JSONL file (``{"query": ..., "relevant_ids": [...]}``; ids are
section ids, document ids or document labels — file names without extension), or are
synthesised from the corpus (a chunk's first sentence as the query, its parent section as the
relevant one). The funnel runs without guard and trim, keeping its raw scores (the best stored-
vector cosine of each candidate section, or the model reranker's score). Then:

1. **Platt scaling**: a one-feature logistic regression ``P(relevant | raw) = sigmoid(a·raw + b)``
   over every candidate section of every query, so scores in [0, 1] mean probabilities;
2. **refusal threshold**: the ``refusal_alpha`` quantile of each on-topic query's best calibrated
   score, so at most that share of on-topic questions is refused;
3. **conformal trim**: the split-conformal threshold over the best calibrated score of a relevant
   section per query (0 when none was retrieved, which is conservative).

All three are stored in ``calibrations`` and used by every later funnel of the tenant and
reranker.
"""

from __future__ import annotations

import dataclasses
import json
import math
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from disputatio.errors import ConfigError
from disputatio.retrievers.base import RetrievalFilters
from disputatio.retrievers.funnel import FunnelConfig
from disputatio.retrievers.fusion import conformal_threshold
from disputatio.retrievers.relevance import platt
from disputatio.settings import Settings, get_settings
from disputatio.state.retrieval import Section
from disputatio.storage.calibrations import insert_calibration
from disputatio.storage.chunk_reads import sample_children
from disputatio.storage.db import connect

_SENTENCE = re.compile(r"(?<=[.!?])\s+")
_SUFFIX = re.compile(r"\.(txt|md|markdown|html?|pdf|docx)$", re.IGNORECASE)
MAX_NEWTON_STEPS = 50
"""Newton iterations of the Platt fit at most (it converges in well under 20)."""


def load_examples(path: Path) -> list[tuple[str, set[str]]]:
    """Read ``{"query": ..., "relevant_ids": [ids]}`` lines (``relevant`` is accepted too).

    Raises:
        ConfigError: If the file is missing or a line is malformed.
    """
    if not path.is_file():
        raise ConfigError(f"calibration file {path} does not exist")
    examples = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            ids = row["relevant_ids"] if "relevant_ids" in row else row["relevant"]
            if isinstance(ids, str):
                raise TypeError("relevant_ids must be a list")
            examples.append((str(row["query"]), {str(i) for i in ids}))
        except (ValueError, KeyError, TypeError) as exc:
            raise ConfigError(
                f"{path}:{n}: expected {{query, relevant_ids: [...]}}: {exc}"
            ) from None
    return examples


def synthetic_examples(settings: Settings, tenant: str, n: int) -> list[tuple[str, set[str]]]:
    """Sample ``n`` chunks (deterministically) and use a sentence of each as its query."""
    with connect(settings) as conn:
        rows = sample_children(conn, tenant, n)
    examples = []
    for text, parent_id in rows:
        sentences = [s for s in _SENTENCE.split(text.replace("\n", " ")) if len(s.split()) >= 6]
        if sentences:
            examples.append((sentences[0][:300], {parent_id}))
    return examples


def is_relevant(section: Section, relevant: set[str]) -> bool:
    """Whether ``section`` matches a label: its id, its document id or its file's base name."""
    label = _SUFFIX.sub("", section.source.replace("\\", "/").rsplit("/", 1)[-1])
    return bool({section.id, section.document_id, label} & relevant)


def fit_platt(raw: Sequence[float], labels: Sequence[bool]) -> tuple[float, float]:
    """Fit ``P(label | raw) = sigmoid(a·raw + b)`` (Newton's method, Platt's smoothed targets).

    Raises:
        ConfigError: If the labels are all equal (nothing to separate).
    """
    x = np.asarray(raw, dtype=np.float64)
    y = np.asarray(labels, dtype=bool)
    n_pos, n_neg = int(y.sum()), int((~y).sum())
    if n_pos == 0 or n_neg == 0:
        raise ConfigError(
            "calibration needs relevant and non-relevant candidates: "
            f"got {n_pos} relevant, {n_neg} not"
        )
    t = np.where(y, (n_pos + 1) / (n_pos + 2), 1 / (n_neg + 2))
    a, b = 0.0, math.log((n_pos + 1) / (n_neg + 1))
    for _ in range(MAX_NEWTON_STEPS):
        p = 1 / (1 + np.exp(-(a * x + b)))
        w = np.maximum(p * (1 - p), 1e-12)
        g = np.array([np.sum((p - t) * x), np.sum(p - t)])
        h = np.array([[np.sum(w * x * x), np.sum(w * x)], [np.sum(w * x), np.sum(w)]])
        h += np.eye(2) * 1e-9
        step = np.linalg.solve(h, g)
        a, b = a - float(step[0]), b - float(step[1])
        if float(np.abs(step).max()) < 1e-9:
            break
    return a, b


def calibrate(
    *,
    file: Path | None = None,
    synthetic: int = 0,
    alpha: float | None = None,
    refusal_alpha: float | None = None,
    tenant: str | None = None,
    collection: str | None = None,
    settings: Settings | None = None,
    retriever: Any = None,
) -> dict[str, Any]:
    """Fit and store the Platt parameters, refusal threshold and conformal trim.

    Args:
        file: JSONL of labelled queries.
        synthetic: Or sample this many chunks as synthetic queries.
        alpha: Miscoverage of the conformal trim (default: settings).
        refusal_alpha: Share of on-topic queries the refusal threshold may refuse (default:
            settings).
        tenant: Tenant (default: settings).
        collection: Only this collection.
        settings: Settings (default: process settings).
        retriever: A funnel to use instead of building a Postgres one (tests).

    Returns:
        What was stored, with the fit's numbers.

    Raises:
        ConfigError: If there are no examples, or nothing to fit.
    """
    settings = settings or get_settings()
    tenant = settings.run_tenant(tenant)
    alpha = settings.retrieval.conformal_alpha if alpha is None else alpha
    refusal_alpha = settings.retrieval.refusal_alpha if refusal_alpha is None else refusal_alpha
    examples = load_examples(file) if file else synthetic_examples(settings, tenant, synthetic)
    if not examples:
        raise ConfigError("no calibration examples: pass --file or --synthetic N")
    funnel = _raw_funnel(retriever, settings, tenant, collection)
    model_scores = not getattr(funnel.reranker, "uses_stored_vectors", False)
    runs = _scored_runs(funnel, examples)
    flat = [pair for run in runs for pair in run]
    a, b = fit_platt([r for r, _ in flat], [y for _, y in flat])
    best = [max((platt(r, (a, b)) for r, _ in run), default=0.0) for run in runs]
    best_relevant = [max((platt(r, (a, b)) for r, y in run if y), default=0.0) for run in runs]
    refusal = float(np.quantile(best, refusal_alpha)) if best else 0.0
    trim = conformal_threshold(best_relevant, alpha)
    coverage = sum(s >= trim for s in best_relevant) / len(best_relevant)
    record: dict[str, Any] = {
        "tenant": tenant,
        "reranker": settings.models.reranker,
        "alpha": alpha,
        "n": len(examples),
        "threshold": trim,
        "coverage": coverage,
        "refusal_threshold": refusal,
        "refusal_alpha": refusal_alpha,
        "on_topic_refused": sum(s < refusal for s in best) / len(best),
        "platt": [a, b],
        "platt_on": "reranker" if model_scores else "stored-vector cosine",
        "candidates": len(flat),
        "relevant_candidates": sum(y for _, y in flat),
    }
    details = {
        "coverage": coverage,
        "refusal_threshold": refusal,
        "refusal_alpha": refusal_alpha,
        ("rerank_platt" if model_scores else "relevance_platt"): [a, b],
        "n_candidates": len(flat),
    }
    with connect(settings) as conn:
        insert_calibration(conn, tenant, record["reranker"], alpha, trim, len(examples), details)
    return record


def _raw_funnel(retriever: Any, settings: Settings, tenant: str, collection: str | None) -> Any:
    """``retriever`` (default: a Postgres funnel over the scope), set to keep its raw scores.

    No Platt scaling, no refusal guard, no trim: what the calibration fits is the raw score.
    """
    from disputatio.retrievers.postgres import PostgresFunnel

    funnel = retriever or PostgresFunnel(
        settings,
        default_filters=RetrievalFilters(
            tenant=tenant, collections=(collection,) if collection else None
        ),
        config=FunnelConfig.from_settings(settings),
    )
    # raw scores: no Platt, no guard, no trim
    funnel.config = dataclasses.replace(
        funnel.config, relevance_platt=None, rerank_platt=None, trim_alpha=0.0,
        calibrated_threshold=None,
    )  # fmt: skip
    return funnel


def _scored_runs(
    funnel: Any, examples: Sequence[tuple[str, set[str]]]
) -> list[list[tuple[float, bool]]]:
    """Per example, ``(raw score, relevant?)`` of each candidate section the funnel returns."""
    runs: list[list[tuple[float, bool]]] = []
    for query, relevant in examples:
        result = funnel.search(query, threshold=-1.0, k=funnel.config.rerank_candidates)
        runs.append([(s.score, is_relevant(s, relevant)) for s in result.sections])
    return runs
