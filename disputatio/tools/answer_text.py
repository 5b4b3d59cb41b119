"""Text of prompts and answers that the protocols' nodes and the evaluation share.

Pure functions: how options and sections are shown to a model, how a reply's text is read and
cleaned, and how an answer's opening ``Verdict: ...`` line is found and parsed first. The MedRAG
and hierarchical debate nodes use them, and so do the evaluation's baselines, which must show
and read text exactly as the graphs do.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeAlias

from disputatio.prompts import medrag as P
from disputatio.retrievers.base import format_sections
from disputatio.state.medrag import Options
from disputatio.state.retrieval import Section

#: A citation in square brackets (``[S1]``, ``[sec-42]``).
CITATION_RE = re.compile(r"\[[^\[\]\n]{1,300}\]")
_THINK_RE = re.compile(r"<think>.*?(?:</think>|$)", re.S | re.I)
_BLANK_LINES_RE = re.compile(r"\n\s*\n+")
_SPACES_RE = re.compile(r"[ \t]+")
_VERDICT_LINE_RE = re.compile(r"^\W*verdict\W*\s*[:\-]\s*(.+)$", re.I)
#: The end of a sentence: its stop, closing quotes or brackets, then its citations.
_SENTENCE_END_RE = re.compile(r"[.!?…][\"'”’)]*(?:\s*\[[^\[\]\n]{1,300}\])*(?=\s|$)")


def format_options(options: Options) -> str:
    """Render options one per line: ``A. text`` (multiple choice) or ``- yes`` (labels)."""
    if isinstance(options, Mapping):
        return "\n".join(f"{key}. {text}" for key, text in options.items())
    return "\n".join(f"- {label}" for label in options)


def answer_hint(options: Options) -> str:
    """Say what ``X`` in ``Answer Choice: X`` may be."""
    if isinstance(options, Mapping):
        return P.HINT_LETTERS.format(letters=", ".join(options))
    return P.HINT_LABELS.format(labels=", ".join(options))


def clean_text(text: str) -> str:
    """Drop ``<think>`` blocks, trailing spaces and runs of blank lines."""
    text = _THINK_RE.sub("", text)
    text = _SPACES_RE.sub(" ", text)
    return _BLANK_LINES_RE.sub("\n\n", text).strip()


def stopped_at_limit(reply: Any) -> bool:
    """Whether the model stopped ``reply`` at its token limit (``finish_reason`` ``length``)."""
    metadata = getattr(reply, "response_metadata", None) or {}
    return metadata.get("finish_reason") == "length"


def drop_unfinished_tail(text: str) -> str:
    """``text`` without the sentence its last line leaves unfinished (a reply cut at its limit).

    Lines before the last are kept whole (a list item needs no stop); the last line keeps what
    comes up to its last finished sentence (with that sentence's citations), or goes entirely.
    """
    head, newline, last = text.rstrip().rpartition("\n")
    ends = list(_SENTENCE_END_RE.finditer(last))
    kept = last[: ends[-1].end()] if ends else ""
    return (head + newline + kept).rstrip() if kept else head.rstrip()


def truncate(text: str, max_chars: int) -> str:
    """Cut ``text`` to ``max_chars`` characters, marking the cut with an ellipsis."""
    if len(text) <= max_chars:
        return text
    return text[: max(0, max_chars - 1)].rstrip() + "…"


def render_sections(sections: Sequence[Section], max_chars: int | None) -> str:
    """The ``<section>`` blocks of a prompt, or a placeholder when there are none."""
    return format_sections(list(sections), max_chars) if sections else P.NO_DOCUMENTS


def retrieval_query(
    question: str, peer_summaries: Sequence[Mapping[str, str]], max_chars: int
) -> str:
    """The search query: the question, plus the peers' summaries from round 2 on."""
    parts = [question, *(clean_text(p["text"]) for p in peer_summaries)]
    return truncate("\n".join(part for part in parts if part), max_chars)


def message_text(message: Any) -> str:
    """The text of a chat reply (string content or text blocks)."""
    text = getattr(message, "text", None)
    return text if isinstance(text, str) else str(getattr(message, "content", message))


def verdict_line(text: str) -> str | None:
    """The text of the ``Verdict: ...`` line an answer opens with (None without one)."""
    for line in (text or "").splitlines():
        if line.strip():
            match = _VERDICT_LINE_RE.match(line.replace("*", "").strip())
            return match.group(1).strip() if match else None
    return None


def bare_verdict_line(text: str) -> str | None:
    """The text of the opening ``Verdict: ...`` line without its citations (None without one)."""
    line = verdict_line(text)
    return None if line is None else " ".join(CITATION_RE.sub(" ", line).split())


#: ``(choice, status, pattern)`` of a reply, as the parsers of the baselines give it.
Parsed: TypeAlias = tuple[str | None, str, str | None]


def parse_verdict_first(text: str, parse: Callable[[str], Parsed]) -> Parsed:
    """``parse`` applied to an answer's opening verdict line first (pattern ``verdict``).

    The graph's answers open with a verdict line, and the lines below may hold sub-questions'
    own verdicts, so that line decides when ``parse`` reads an answer in it; otherwise the whole
    answer is parsed. The evaluation reads the debate's answers with this too.
    """
    line = bare_verdict_line(text)  # "Yes [S1]": a citation would end no label
    if line is not None:
        choice, status, _ = parse(f"Answer: {line}")
        if status == "OK":
            return choice, status, "verdict"
    return parse(text)
