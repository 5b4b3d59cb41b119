"""State of the retrieval-funnel graph (``graphs/rag``)."""

from __future__ import annotations

from typing import Annotated, Any

from typing_extensions import TypedDict

from disputatio.state.reducers import merge_dicts, merge_usage


class RagInput(TypedDict, total=False):
    """What a caller passes.

    No tenant: the edge that starts the run puts it in the run's context
    (``RagContext.tenant``), and the state never carries it.

    Attributes:
        question: The question to answer from the corpus.
        k: Sections handed to the answerer (default: settings).
        threshold: Refusal threshold on the best rerank score (default: settings).
        collections: Collections to search (default: all).
        tags: Only documents with all of these tags.
        language: Language of the question (ISO 639-1 code or text-search configuration name):
            the lexical channel stems it with that language only (default: with every language
            of the tenant's documents).
    """

    question: str
    k: int | None
    threshold: float | None
    collections: list[str] | None
    tags: list[str] | None
    language: str | None


class RagState(RagInput, total=False):
    """Full state.

    Attributes:
        plan: Keywords, semantic query and graph seeds.
        hits: Channel → ``[[child_id, score], ...]`` (parallel channels write it).
        failed_channels: Channel → error of channels that failed (parallel writes).
        timings_ms: Stage → milliseconds (parallel writes).
        candidates: Parent sections after fusion/expansion, then after rerank (dicts).
        sections: Sections kept after the guard and trim (dicts).
        refused: True when the best rerank score was below the threshold.
        best_score: Best rerank score.
        answer: The grounded answer (or the refusal message).
        citations: Cited section ids that were in the context.
        invalid_citations: Cited ids or bracketed labels that were NOT shown (removed).
        claims: The answer's claims with their verdicts (``Claim`` dicts, see
            ``state/claims.py``).
        grounded: Every factual claim kept in the answer is supported by a cited sentence.
        not_found: The documents do not answer (refused before or after the answerer).
        draft: The answerer's own text, before the claim check.
        repaired: The answerer's second text, asked once when the checker set aside every
            claim of ``draft`` for want of support (``grounding.repair``); None when not asked.
        confidence: The fitted probability that the answer is right (see
            ``validators/calibrated.py``).
        relevance: The judge's P(the kept claims answer the question asked); None where it
            was not asked (a refusal, a two-part question, no judge).
        usage: Token/latency usage per agent.
    """

    plan: dict[str, Any]
    hits: Annotated[dict[str, list[list[Any]]], merge_dicts]
    failed_channels: Annotated[dict[str, str], merge_dicts]
    timings_ms: Annotated[dict[str, float], merge_dicts]
    candidates: list[dict[str, Any]]
    sections: list[dict[str, Any]]
    refused: bool
    best_score: float
    answer: str
    citations: list[str]
    invalid_citations: list[str]
    claims: list[dict[str, Any]]
    grounded: bool
    not_found: bool
    draft: str
    repaired: str | None
    confidence: float
    relevance: float | None
    usage: Annotated[dict[str, dict[str, Any]], merge_usage]


class RagOutput(TypedDict, total=False):
    """What the funnel graph returns.

    Attributes:
        answer: The checked answer: supported claims with ``[id]`` citations, or a statement
            that the documents do not answer (or the refusal message).
        citations: Section ids cited by the claims kept in the answer.
        invalid_citations: Cited ids or bracketed labels that were not shown (removed).
        claims: Every claim with its verdict, evidence span and citations.
        grounded: Every factual claim kept in the answer is supported by a cited sentence.
        not_found: The documents do not answer the question.
        draft: The answerer's own text, before the claim check.
        repaired: The answerer's second text, asked once when the checker set aside every
            claim of ``draft`` for want of support (``grounding.repair``); None when not asked.
        confidence: The fitted probability that the answer is right (not set on a refusal
            before the answerer).
        relevance: The judge's P(the kept claims answer the question asked); None where it
            was not asked.
        sections: The sections the answer could use.
        refused: Whether retrieval refused (no LLM call was made then).
        best_score: Best rerank score.
        timings_ms: Per-stage timings.
        failed_channels: Channels that failed (the funnel went on without them).
        usage: Token/latency usage per agent.
    """

    answer: str
    citations: list[str]
    invalid_citations: list[str]
    claims: list[dict[str, Any]]
    grounded: bool
    not_found: bool
    draft: str
    repaired: str | None
    confidence: float
    relevance: float | None
    sections: list[dict[str, Any]]
    refused: bool
    best_score: float
    timings_ms: dict[str, float]
    failed_channels: dict[str, str]
    usage: dict[str, dict[str, Any]]
