"""Evidence read vs evidence found: the question's own context, or a leak-free retrieval.

Two evidence settings of the yes/no sets (BioASQ gold snippets, PubMedQA contexts), reported as
protocols of their own:

* **read** (:func:`read_evidence`): the question's own ``context`` is the evidence, the first
  ``k`` snippets as sections (the model has the gold evidence; what is measured is reading);
* **found** (:func:`found_evidence`): the corpus is searched with the question, as ``rag``
  does, but the sections that are the question's OWN gold snippets are removed before the
  model sees them. The ``kb`` corpus holds the gold snippets of 491 of the 618
  ``mirage:bioasq`` questions, so plain ``rag`` there reads its answer's evidence whenever
  retrieval finds it; here it never does. The search asks for ``k`` plus one section per own
  snippet, so ``k`` sections are shown when at most that many are removed.

A section matches a gold snippet when one's normalised text (lower case, every run of
non-alphanumerics one space) contains the other's and the contained one has at least
:data:`MIN_MATCH_CHARS` characters (a short title inside a snippet is no match). The record's
``evidence`` holds, for ``found``, the recall@k of the gold snippets among the first ``k``
sections the corpus returned BEFORE the removal (the share of the gold snippets the retriever
found; on ``kb`` it is also how much the leak gave plain ``rag``), which snippets those were,
and the ids removed; the sections shown hold no gold snippet of the question by construction.

Free-text protocols: ``rag_found`` and ``rag_read`` (the MedRAG-style single agent, as
``rag``); the log-probability verdicts take the same settings (:mod:`disputatio.eval.logprob`).
"""

from __future__ import annotations

import dataclasses
import hashlib
import re
from collections.abc import Sequence
from typing import Any

from disputatio.eval.question import Question
from disputatio.graphs.medrag_debate import MedragConfig, MedragContext, resolve
from disputatio.state.retrieval import Section

#: Characters the contained text of a match must have (normalised).
MIN_MATCH_CHARS = 30
#: Extra sections searched at most, to make up for own snippets removed.
MAX_EXTRA = 32
_NON_WORD = re.compile(r"[^0-9a-z]+")


def normalise(text: str) -> str:
    """Lower case, every run of non-alphanumerics one space, stripped."""
    return _NON_WORD.sub(" ", text.lower()).strip()


def texts_match(section: str, snippet: str) -> bool:
    """Whether one normalised text contains the other (the contained one long enough)."""
    a, b = normalise(section), normalise(snippet)
    if not a or not b:
        return False
    inner, outer = (a, b) if len(a) <= len(b) else (b, a)
    return len(inner) >= MIN_MATCH_CHARS and inner in outer


def gold_hits(sections: Sequence[Section], snippets: Sequence[str]) -> list[int]:
    """Indices of the ``snippets`` matched by some section."""
    return [i for i, s in enumerate(snippets) if any(texts_match(x.text, s) for x in sections)]


def recall_at_k(sections: Sequence[Section], snippets: Sequence[str], k: int) -> float | None:
    """Share of ``snippets`` matched among the first ``k`` sections (None: no snippets)."""
    if not snippets:
        return None
    return len(gold_hits(list(sections)[:k], snippets)) / len(snippets)


def is_own(section: Section, question: Question) -> bool:
    """Whether ``section`` is one of the question's own gold snippets."""
    return any(texts_match(section.text, s) for s in question.context)


def context_sections(question: Question) -> list[Section]:
    """The question's context as sections (ids: content hashes, as the oracle corpus's)."""
    return [
        Section(
            id="ctx-" + hashlib.sha1(s.encode("utf-8")).hexdigest()[:12],
            source=question.dataset,
            text=s,
        )
        for s in question.context
    ]


def read_evidence(question: Question, cfg: MedragConfig) -> tuple[list[Section], dict[str, Any]]:
    """The ``read`` setting: the first ``k`` snippets of the question's own context."""
    given = context_sections(question)[: cfg.k]
    return given, {
        "setting": "read",
        "k": cfg.k,
        "gold_snippets": len(question.context),
        "given": len(given),
        "ids": [s.id for s in given],
    }


def found_evidence(
    question: Question, ctx: MedragContext, cfg: MedragConfig
) -> tuple[list[Section], dict[str, Any], dict[str, Any]]:
    """The ``found`` setting: search with the question, drop the question's own snippets.

    Returns:
        ``(sections shown, evidence record, retrieval log entry)``; the log's ``ids`` are the
        sections shown, its ``candidates`` every id the search returned.
    """
    from disputatio.tools.turn_search import retrieve

    extra = min(len(question.context), MAX_EXTRA)
    wide = dataclasses.replace(cfg, k=cfg.k + extra)
    candidates, log = retrieve(ctx, wide, question.question, [])
    own = [s for s in candidates if is_own(s, question)]
    own_ids = {s.id for s in own}
    shown = [s for s in candidates if s.id not in own_ids][: cfg.k]
    raw_top = candidates[: cfg.k]
    evidence = {
        "setting": "found",
        "k": cfg.k,
        "gold_snippets": len(question.context),
        "recall_at_k": recall_at_k(raw_top, question.context, cfg.k),
        "gold_found": gold_hits(raw_top, question.context),
        "removed": [s.id for s in own],
        "removed_in_top_k": sum(1 for s in raw_top if s.id in own_ids),
        "shown": len(shown),
        "error": log.get("error"),
    }
    entry = {
        "agent": "baseline",
        "round": 1,
        **log,
        "k": cfg.k,
        "ids": [s.id for s in shown],
        "scores": [round(float(s.score), 6) for s in shown],
        "candidates": [s.id for s in candidates],
    }
    return shown, evidence, entry


def evidence_for(
    setting: str, question: Question, ctx: MedragContext
) -> tuple[list[Section] | None, dict[str, Any] | None, list[dict[str, Any]]]:
    """``(sections or None, evidence record or None, retrieval log)`` of a setting.

    Args:
        setting: ``cot`` (no evidence), ``rag`` (found, leak-free) or ``read``.
        question: The question.
        ctx: The run's context (retriever, k).
    """
    cfg = resolve(ctx)
    if setting == "cot":
        return None, None, []
    if setting == "read":
        sections, evidence = read_evidence(question, cfg)
        return sections, evidence, []
    sections, evidence, entry = found_evidence(question, ctx, cfg)
    return sections, evidence, [entry]


def evidence_protocol(setting: str) -> Any:
    """``rag_found`` / ``rag_read``: the single agent of ``rag`` on that setting's sections."""
    from disputatio.eval.baselines import BASELINE_TEMPERATURE, run_samples

    def run(
        question: Question, env: Any, _thread: str, _target: dict[str, Any] | None
    ) -> dict[str, Any]:
        sections, evidence, retrieval = evidence_for(setting, question, env.medrag)
        record = run_samples(
            question,
            env.medrag,
            samples=1,
            temperatures=[BASELINE_TEMPERATURE],
            with_retrieval=False,
            parallel=1,
            sections=sections or [],
        )
        record["log"]["retrieval"] = retrieval
        record["evidence"] = evidence
        return record

    return run
