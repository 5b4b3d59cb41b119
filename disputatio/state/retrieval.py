"""Schemas of retrieval results, shared by the funnel, the tools and every debate graph."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

#: Refusal marker: the best rerank score was below the threshold, no LLM was called.
NO_SUITABLE_CONTEXT = "NO_SUITABLE_CONTEXT"

#: Why a search that found no candidate at all was refused: nothing in scope to search.
NOTHING_IN_SCOPE = (
    "no document in scope to search: nothing is ingested for this tenant, collection or tags"
)


class Section(BaseModel):
    """A parent section handed to an agent, with its provenance.

    Attributes:
        id: Stable id of the parent chunk; agents cite it as ``[id]``.
        document_id: Id of the source document.
        source: Where the text comes from (file path or URI).
        title: Document title, if known.
        page: First page of the section, if the source has pages.
        heading_path: Headings above the section.
        text: The section text.
        score: Final relevance score in [0, 1] (rerank score).
        child_ids: Ids of the child chunks that matched, best first.
        channels: Which channels found it (``lexical``, ``semantic``, ``graph``).
        spans: Where the matched children sit in ``text``, ``(start, end)`` character offsets,
            best first (filled by a funnel's ``search``; empty when unknown). A prompt that
            shows only part of a long section shows the part around the first.
    """

    id: str
    document_id: str = ""
    source: str = ""
    title: str | None = None
    page: int | None = None
    heading_path: list[str] = Field(default_factory=list)
    text: str
    score: float = 0.0
    child_ids: list[str] = Field(default_factory=list)
    channels: list[str] = Field(default_factory=list)
    spans: list[tuple[int, int]] = Field(default_factory=list)


class RetrievalTrace(BaseModel):
    """What happened inside the funnel (for logs, the UI and benchmarks).

    Attributes:
        channels: Candidates found per channel.
        channels_used: Channels whose results entered the fusion (not failed, not late).
        failed_channels: Channel (or ``rerank``) → why it was dropped: its error, or the
            deadline it missed.
        timings_ms: Milliseconds per stage (``plan``, each channel, ``fuse``, ``rerank``).
        scores: Best score per stage (``rerank``).
        rerank_scores: Section id → its final (calibrated) score, in the final order.
        trimmed: Sections dropped by the conformal/α trim.
        extra: Anything else worth logging (trim threshold, rerank fallback).
    """

    channels: dict[str, int] = Field(default_factory=dict)
    channels_used: list[str] = Field(default_factory=list)
    failed_channels: dict[str, str] = Field(default_factory=dict)
    timings_ms: dict[str, float] = Field(default_factory=dict)
    scores: dict[str, float] = Field(default_factory=dict)
    rerank_scores: dict[str, float] = Field(default_factory=dict)
    trimmed: int = 0
    extra: dict[str, Any] = Field(default_factory=dict)


class RetrievalResult(BaseModel):
    """The funnel's answer to one query.

    Attributes:
        query: The query as asked.
        sections: Sections, best first (empty when refused).
        refused: True when the best rerank score was below the threshold (a search deeper
            than the answerer's, a ranking, is not refused: ``best_score < threshold``).
        best_score: The best rerank score seen (also when refused).
        threshold: The refusal threshold that was applied.
        trace: Stage-by-stage trace.
    """

    query: str
    sections: list[Section] = Field(default_factory=list)
    refused: bool = False
    best_score: float = 0.0
    threshold: float = 0.0
    trace: RetrievalTrace = Field(default_factory=RetrievalTrace)

    @property
    def ids(self) -> list[str]:
        """Ids of the returned sections, in order."""
        return [s.id for s in self.sections]
