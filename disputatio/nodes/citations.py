"""Citation helpers for small models: short labels and after-the-fact attribution.

Small models copy ``[S2]`` far more reliably than a 24-character section id, so prompts show
labels and answers are mapped back to real ids after verification.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any
from xml.sax.saxutils import quoteattr

from disputatio.state.retrieval import Section
from disputatio.validators.citations import extract_citations, verify_citations
from disputatio.validators.sentences import content_words, split_sentences
from disputatio.validators.support import cosine


def short_labels(ids: list[str], prefix: str = "S") -> dict[str, str]:
    """Map ids to short labels ``S1, S2, ...`` (label → id) for prompts."""
    return {f"{prefix}{i}": sid for i, sid in enumerate(ids, start=1)}


def format_numbered_sections(
    sections: Sequence[Section],
    labels: Sequence[str],
    keep: Mapping[str, set[int]] | None = None,
) -> str:
    """Render sections for a prompt with each sentence numbered ``[S2.1]``, ``[S2.2]``...

    A writer that points at a sentence, not a page, can be checked against that sentence; the
    claim checker reads ``[S2.3]`` as a citation of section ``S2``.

    Args:
        sections: The sections, best first.
        labels: One short label per section (``S1``, ``S2``...).
        keep: Label → numbers of the sentences to show (default: all); the others are left
            out, the numbers shown stay those of the whole section.

    Returns:
        ``<section id="S1" source=… heading=…>`` blocks, one numbered sentence a line.
    """
    blocks = []
    for label, sec in zip(labels, sections, strict=True):
        wanted = None if keep is None else keep.get(label, set())
        if wanted is not None and not wanted:
            continue
        attrs = f"id={quoteattr(label)} source={quoteattr(sec.source.rsplit('/', 1)[-1])}"
        if sec.title:
            attrs += f" title={quoteattr(sec.title)}"
        if sec.heading_path:
            attrs += f" heading={quoteattr(' / '.join(sec.heading_path))}"
        lines = [
            f"[{label}.{i}] {s.sentence}"
            for i, s in enumerate(split_sentences(sec.text), 1)
            if wanted is None or i in wanted
        ]
        blocks.append(f"<section {attrs}>\n" + "\n".join(lines) + "\n</section>")
    return "\n".join(blocks)


def select_sentences(
    question: str,
    sections: Sequence[Section],
    labels: Sequence[str],
    embeddings: Any,
    limit: int,
) -> dict[str, set[int]]:
    """The ``limit`` sentences of ``sections`` closest to ``question``, by section label.

    A small model given a whole manual picks the wrong sentence; given the dozen sentences
    nearest the question (cosine of the embedding model, plus the share of the question's
    content words a sentence holds) it reads what answers. Sentences are numbered from 1 in
    their section, as :func:`format_numbered_sections` shows them.

    Args:
        question: The question.
        sections: The sections.
        labels: Their labels.
        embeddings: A LangChain ``Embeddings`` object.
        limit: Sentences to keep in all.

    Returns:
        Label → numbers of the sentences kept.
    """
    items = [
        (label, i, span.sentence)
        for label, sec in zip(labels, sections, strict=True)
        for i, span in enumerate(split_sentences(sec.text), 1)
    ]
    if len(items) <= limit:
        return {label: {i for lab, i, _ in items if lab == label} for label in labels}
    qvec = embeddings.embed_query(question)
    vecs = embeddings.embed_documents([text for _, _, text in items])
    wanted = content_words(question)

    def score(k: int) -> float:
        overlap = len(wanted & content_words(items[k][2])) / len(wanted) if wanted else 0.0
        return cosine(qvec, vecs[k]) + 0.5 * overlap

    best = sorted(range(len(items)), key=score, reverse=True)[:limit]
    keep: dict[str, set[int]] = {}
    for k in best:
        keep.setdefault(items[k][0], set()).add(items[k][1])
    return keep


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


def named_labels(reply: str, labels: Sequence[str]) -> list[str]:
    """The labels of ``labels`` that ``reply`` names, bracketed or not, in the order named."""
    found = []
    for label in labels:
        match = re.search(rf"(?<![\w-]){re.escape(label)}(?![\w-])", reply or "")
        if match:
            found.append((match.start(), label))
    return [label for _, label in sorted(found)]


def place_citations(
    text: str, sections: Sequence[tuple[str, str]], *, min_shared: int = 2
) -> tuple[str, list[str]]:
    """Cite each named section at the sentence of ``text`` that shares the most words with it.

    For a writer who named, when asked, the sections behind an answer it wrote without
    citations: the answer stays as written, each section's ``[id]`` goes before the end of the
    sentence it supports most (the first of equals). A section that shares fewer than
    ``min_shared`` content words with every sentence is not cited: nothing the answer says
    evidently rests on it.

    Args:
        text: The uncited answer.
        sections: ``(id, text)`` of the sections the writer named (ids as they should appear).
        min_shared: Fewest content words a sentence and a section must share.

    Returns:
        ``(text with the citations added, ids placed in order of the sections given)``.
    """
    lines = [_SENTENCE_END_RE.split(line) for line in text.splitlines()]
    words = [[_content_words(s) for s in line] for line in lines]
    cites: dict[tuple[int, int], list[str]] = {}
    placed = []
    for sid, body in sections:
        vocab = _content_words(body)
        score, where = max(
            (
                (len(w & vocab), (-i, -j))
                for i, line in enumerate(words)
                for j, w in enumerate(line)
            ),
            default=(0, (0, 0)),
        )
        if score < max(min_shared, 1):
            continue
        cites.setdefault((-where[0], -where[1]), []).append(sid)
        placed.append(sid)
    for (i, j), ids in cites.items():
        stripped = lines[i][j].rstrip()
        end = len(stripped.rstrip(".!?"))
        marks = " ".join(f"[{sid}]" for sid in ids)
        lines[i][j] = f"{stripped[:end]} {marks}{stripped[end:]}"
    return "\n".join(" ".join(line) for line in lines), placed
