"""Citation helpers for small models: short labels and after-the-fact attribution.

Small models copy ``[S2]`` far more reliably than a 24-character section id, so prompts show
labels and answers are mapped back to real ids after verification.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from disputatio.validators.citations import extract_citations, verify_citations


def short_labels(ids: list[str], prefix: str = "S") -> dict[str, str]:
    """Map ids to short labels ``S1, S2, ...`` (label → id) for prompts."""
    return {f"{prefix}{i}": sid for i, sid in enumerate(ids, start=1)}


def resolve_labels(text: str, label_to_id: dict[str, str]) -> tuple[str, list[str], list[str]]:
    """Verify ``[S1]``-style citations against ``label_to_id`` and rewrite them to real ids.

    Real ids cited directly are accepted too.

    Returns:
        ``(text with real ids, verified ids, unverified labels or ids)``.
    """
    allowed = set(label_to_id) | set(label_to_id.values())
    check = verify_citations(text, allowed)
    clean = check.text
    for label, sid in label_to_id.items():
        clean = re.sub(rf"(?<=[\[,\s]){re.escape(label)}(?=[\],])", sid, clean)
    ids = list(dict.fromkeys(label_to_id.get(v, v) for v in check.verified))
    return clean, ids, check.unverified


_WORD_RE = re.compile(r"[^\W_]+", re.UNICODE)
_SENTENCE_END_RE = re.compile(r"(?<=[.!?])\s+(?=\S)")
#: Words too common to count as shared evidence between a sentence and a section.
_STOPWORDS = frozenset(
    "a an and are as at be been both but by can for from has have in into is it its may more "
    "most no not of on or such than that the their then there these this those to was were "
    "which while who with without".split()
)


def _content_words(text: str) -> set[str]:
    return {
        w
        for w in (m.group(0).casefold() for m in _WORD_RE.finditer(text))
        if len(w) > 2 and w not in _STOPWORDS
    }


def attribute_sentences(
    text: str,
    sections: Sequence[tuple[str, str]],
    *,
    min_coverage: float = 0.6,
    min_words: int = 5,
) -> tuple[str, list[str]]:
    """Cite, after the fact, the section each uncited sentence was evidently taken from.

    A small model often copies a section's wording and still writes no citation. A sentence
    is attributed to the section that contains the largest share of its content words, when
    that share is at least ``min_coverage`` and the sentence has at least ``min_words`` content
    words; sentences that already cite something are left alone. Only sections the writer was
    shown are candidates, so every citation added is verifiable.

    Args:
        text: The answer.
        sections: ``(id, text)`` of the sections shown to the writer.
        min_coverage: Share of a sentence's content words that must occur in the section.
        min_words: Fewest content words a sentence needs to be attributed at all.

    Returns:
        ``(text with [id] added before each attributed sentence's end, ids added in order)``.
    """
    vocab = [(sid, _content_words(body)) for sid, body in sections]
    added: list[str] = []
    lines = []
    for line in text.splitlines():
        parts = []
        for sentence in _SENTENCE_END_RE.split(line):
            words = _content_words(sentence)
            best = max(
                ((len(words & v) / len(words), sid) for sid, v in vocab if words),
                default=(0.0, ""),
            )
            if (
                len(words) >= min_words
                and best[0] >= min_coverage
                and not extract_citations(sentence)
            ):
                stripped = sentence.rstrip()
                end = len(stripped.rstrip(".!?"))
                sentence = f"{stripped[:end]} [{best[1]}]{stripped[end:]}"
                if best[1] not in added:
                    added.append(best[1])
            parts.append(sentence)
        lines.append(" ".join(parts))
    return "\n".join(lines), added
