"""Small helpers shared by the debate nodes: events, sections, transcript moves, retrieval."""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from langchain_core.messages import BaseMessage
from langgraph.config import get_stream_writer

from disputatio.nodes.citations import resolve_labels, short_labels
from disputatio.prompts.debate import NO_SECTIONS, OPTIONS_BLOCK, TRANSCRIPT_MOVE
from disputatio.retrievers.base import CorpusRetriever, format_sections
from disputatio.state.retrieval import RetrievalResult, Section
from disputatio.tools.answer_text import drop_unfinished_tail, stopped_at_limit
from disputatio.tools.retrieval import search_corpus
from disputatio.validators.citations import CitationCheck

logger = logging.getLogger(__name__)

#: Placeholder section id used in prompt examples when no section is shown.
EXAMPLE_ID = "section-id"


def emit(event: str, **data: Any) -> None:
    """Send a custom stream event ``{"event": event, **data}`` (no-op outside streaming)."""
    get_stream_writer()({"event": event, **data})


def text_of(message: BaseMessage | Any) -> str:
    """The text content of a model reply (joins content blocks).

    A reply the model stopped at its token limit (``finish_reason`` ``length``) loses the
    sentence it left unfinished (:func:`~disputatio.tools.answer_text.drop_unfinished_tail`): a
    fragment is no claim, though each of its words may stand in the section it cites.
    """
    content = getattr(message, "content", message)
    if isinstance(content, str):
        text = content
    elif isinstance(content, list):
        text = "".join(p if isinstance(p, str) else str(p.get("text", "")) for p in content)
    else:
        text = str(content)
    if stopped_at_limit(message):
        logger.info("a reply stopped at its token limit: its unfinished sentence is dropped")
        return drop_unfinished_tail(text)
    return text


def to_sections(items: Iterable[Mapping[str, Any]]) -> list[Section]:
    """Section objects from their state dicts."""
    return [Section.model_validate(item) for item in items]


def dedupe_sections(items: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Section dicts without repeated ids, first occurrence kept."""
    seen: dict[str, dict[str, Any]] = {}
    for item in items:
        seen.setdefault(str(item["id"]), dict(item))
    return list(seen.values())


def render_sections(
    items: Sequence[Mapping[str, Any]], max_chars: int, labels: Sequence[str] | None = None
) -> str:
    """Sections as XML blocks for a prompt (shown as ``labels`` when given), or the marker."""
    if not items:
        return NO_SECTIONS
    return format_sections(
        to_sections(items), max_chars=max_chars, labels=list(labels) if labels else None
    )


def example_id(items: Sequence[Mapping[str, Any]]) -> str:
    """A label to show in the citation example of a prompt (``S1``)."""
    return "S1" if items else EXAMPLE_ID


def section_labels(items: Sequence[Mapping[str, Any]]) -> dict[str, str]:
    """Short stable labels of ``items`` in order: label → section id (``S1``, ``S2``...)."""
    return short_labels([str(item["id"]) for item in items])


def ids_to_labels(text: str, label_to_id: Mapping[str, str]) -> str:
    """Show another agent's ``[section-id]`` citations with this agent's labels."""
    for label, sid in label_to_id.items():
        text = text.replace(f"[{sid}]", f"[{label}]")
        text = re.sub(rf"(?<=[\[,])(\s?){re.escape(sid)}(?=\s?[\],])", rf"\g<1>{label}", text)
    return text


def labelled_check(text: str, label_to_id: Mapping[str, str]) -> CitationCheck:
    """Verify ``[S1]``-style citations against the labels shown and map them back to ids."""
    clean, ids, unverified = resolve_labels(text, dict(label_to_id))
    return CitationCheck(clean, ids, unverified)


def search(
    retriever: CorpusRetriever, query: str, *, k: int, agent: str
) -> tuple[list[dict[str, Any]], RetrievalResult]:
    """Run one retrieval through the retrieval tool; return its sections as dicts.

    Every corpus search of the debate (a worker's seed search, the searches its tool calls ask
    for, a reviewer's) is one run of the ``retrieve_corpus_sections`` tool
    (:func:`~disputatio.tools.retrieval.search_corpus`), like the other protocols' searches. A
    ``retrieval`` event names the ids found (none when the search is refused).

    Raises:
        Exception: Whatever the retriever raises (the debate run fails with it).
    """
    result = search_corpus(retriever, query, k=k)
    sections = [] if result.refused else [s.model_dump(mode="json") for s in result.sections]
    emit("retrieval", agent=agent, query=query, ids=[s["id"] for s in sections])
    logger.info("%s retrieved %d section(s) for %r", agent, len(sections), query[:80])
    return sections, result


def make_move(
    *,
    node: str,
    agent: str,
    role: str,
    round_: int,
    kind: str,
    check: CitationCheck,
    queries: Sequence[str] = (),
) -> dict[str, Any]:
    """A transcript move (also emitted as a ``turn`` custom event)."""
    move = {
        "node": node,
        "agent": agent,
        "role": role,
        "round": round_,
        "kind": kind,
        "content": check.text,
        "citations": list(check.verified),
        "unverified": list(check.unverified),
        "queries": list(queries),
    }
    emit("turn", **move)
    return move


def render_moves(moves: Sequence[Mapping[str, Any]]) -> str:
    """Moves as XML blocks for a reviewer or summarizer prompt."""
    return "\n".join(
        TRANSCRIPT_MOVE.format(
            agent=m["agent"], role=m["role"], round=m["round"], content=m["content"]
        )
        for m in moves
    )


def latest_answers(moves: Iterable[Mapping[str, Any]], node: str) -> dict[str, dict[str, Any]]:
    """The latest ``answer`` move of each worker of ``node``, by agent name (in worker order)."""
    latest: dict[str, dict[str, Any]] = {}
    for move in moves:
        if move["node"] != node or move["kind"] != "answer":
            continue
        prev = latest.get(move["agent"])
        if prev is None or move["round"] >= prev["round"]:
            latest[move["agent"]] = dict(move)
    return dict(sorted(latest.items()))


def with_options(question: str, options: Mapping[str, str] | None) -> str:
    """The question with its answer options appended (multiple choice)."""
    if not options:
        return question
    lines = "\n".join(f"{k}. {v}" for k, v in options.items())
    return question + OPTIONS_BLOCK.format(options=lines)


def total_tokens(usage: Mapping[str, Mapping[str, Any]] | None) -> int:
    """Input plus output tokens over all agents."""
    return sum(
        int(r.get("input_tokens", 0)) + int(r.get("output_tokens", 0))
        for r in (usage or {}).values()
    )
