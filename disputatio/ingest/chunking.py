"""Parent/child chunking of extracted markdown, aware of headings, paragraphs and tables.

The markdown is scanned into blocks (:mod:`disputatio.ingest.markdown_blocks`). Blocks become
*atoms* of at most ``max(parent_max - parent_min, child_tokens)`` tokens: long paragraphs are cut
by langchain's ``RecursiveCharacterTextSplitter`` (paragraph, line, sentence, word boundaries,
measured in embedding-model tokens) and long tables by whole rows. Atoms are packed greedily into
parents of at most ``parent_max_tokens``; because no atom is bigger than the slack, every parent
that closes for size holds at least ``parent_min_tokens``. A parent also closes at a top-level
section boundary, unless it is still small and the whole next section fits in it.

Each parent is then cut into children: prose runs by the same splitter into pieces of
``child_tokens - child_overlap`` tokens, tables only between rows (a table stays whole in one
child when it fits). Adjacent small pieces (a heading and the table under it) are merged while
they fit. Consecutive prose children then share ``child_overlap`` tokens: each one's start moves
back to the word where the previous piece's last ``child_overlap`` tokens begin. With
``child_close_tokens`` set, children close at paragraph (block) boundaries instead: each block
is a piece (a long one cut by size), a piece takes in the next only while it holds fewer than
``child_close_tokens`` tokens or is a heading alone, and only the pieces of one cut paragraph
overlap. The splitter runs without its own overlap so that every piece can be located
exactly, even in repetitive text. Every chunk's text is an exact slice of the markdown, and
ids are hashes of the document key and the slice's offsets, so re-chunking is deterministic.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import re
from collections import Counter
from dataclasses import dataclass

from langchain_text_splitters import RecursiveCharacterTextSplitter

from disputatio.errors import ConfigError
from disputatio.ingest.markdown_blocks import Block, HeadingIndex, parse_blocks
from disputatio.ingest.tokens import count_tokens, count_tokens_batch, token_starts
from disputatio.ingest.types import ChildChunk, ExtractedDocument, ParentChunk

SEPARATORS = ["\n\n", "\n", ". ", "? ", "! ", "; ", ", ", " ", ""]
"""Split points tried in order by the recursive splitter (coarsest first)."""

Span = tuple[int, int]
_NEXT_WORD = re.compile(r"\s+\S")


@dataclass(frozen=True)
class _Atom:
    start: int
    end: int
    tokens: int
    section: int
    table: int | None  # index of the table block this atom comes from; None for prose
    rows: tuple[Span, ...] = ()
    heading: bool = False
    block: int = -1  # index of the markdown block the atom comes from


def _splitter_length(text: str) -> int:
    """Token length for the splitter; never 0 for visible text.

    Characters the tokenizer drops (e.g. private-use code points) would otherwise count 0 and
    the splitter's merge step would repeat them in the next piece even without overlap.
    """
    return count_tokens(text) or (1 if text.strip() else 0)


@functools.lru_cache(maxsize=32)
def _splitter(chunk_size: int) -> RecursiveCharacterTextSplitter:
    return RecursiveCharacterTextSplitter(
        separators=SEPARATORS,
        keep_separator="end",
        chunk_size=chunk_size,
        chunk_overlap=0,
        length_function=_splitter_length,
        strip_whitespace=True,
    )


def _split(markdown: str, span: Span, size: int) -> list[Span]:
    """Split ``markdown[span]`` with the recursive splitter (no overlap) and locate the pieces.

    Without overlap the pieces are consecutive slices separated only by whitespace, and each
    starts with a non-space character, so searching from the previous piece's end finds each
    piece at its true offset even in repetitive text. Should the splitter ever repeat text, the
    piece is clipped to start after the previous one.
    """
    text = markdown[span[0] : span[1]]
    spans: list[Span] = []
    cursor = 0
    for piece in _splitter(size).split_text(text):
        if not piece:
            continue
        index = text.find(piece, cursor)
        if index < 0:
            index = text.find(piece, spans[-1][0] - span[0] + 1 if spans else 0)
        if index < 0:  # cannot happen: splitter pieces are slices of the text
            raise RuntimeError(f"splitter piece not found in source text: {piece[:40]!r}")
        start, end = max(index, cursor), index + len(piece)
        while start < end and text[start].isspace():
            start += 1
        if start < end:
            spans.append((span[0] + start, span[0] + end))
            cursor = end
    return spans


def _overlap_start(markdown: str, previous: Span, piece: Span, overlap: int, size: int) -> int:
    """Where ``piece`` starts once it takes over the last ``overlap`` tokens of ``previous``.

    The start is moved back to the beginning of its word, then forward word by word while the
    extended piece would exceed ``size`` tokens; it never moves past the piece's own start.
    """
    text = markdown[previous[0] : previous[1]]
    starts = token_starts(text)
    if overlap <= 0 or not starts:
        return piece[0]
    position = starts[max(len(starts) - overlap, 0)]
    while position > 0 and not text[position - 1].isspace():
        position -= 1
    start = previous[0] + position
    while start < piece[0] and count_tokens(markdown[start : piece[1]]) > size:
        match = _NEXT_WORD.search(markdown, start, piece[0])
        start = match.end() - 1 if match else piece[0]
    return min(start, piece[0])


def _group_rows(rows: tuple[Span, ...], row_tokens: list[int], limit: int) -> list[list[int]]:
    """Group consecutive row indexes so each group holds at most ``limit`` tokens (>= 1 row)."""
    groups: list[list[int]] = []
    total = 0
    for index, tokens in enumerate(row_tokens):
        if groups and total + tokens <= limit:
            groups[-1].append(index)
            total += tokens
        else:
            groups.append([index])
            total = tokens
    return groups


def _table_atoms(markdown: str, block_index: int, block: Block, limit: int) -> list[_Atom]:
    row_tokens = count_tokens_batch([markdown[s:e] for s, e in block.rows])
    atoms = []
    for group in _group_rows(block.rows, row_tokens, limit):
        rows = tuple(block.rows[i] for i in group)
        tokens = sum(row_tokens[i] for i in group)
        atoms.append(
            _Atom(
                rows[0][0],
                rows[-1][1],
                tokens,
                block.section,
                block_index,
                rows,
                False,
                block_index,
            )
        )
    return atoms


def _atoms(markdown: str, blocks: list[Block], limit: int) -> list[_Atom]:
    atoms: list[_Atom] = []
    for index, block in enumerate(blocks):
        if block.kind == "table":
            atoms.extend(_table_atoms(markdown, index, block, limit))
            continue
        tokens = count_tokens(markdown[block.start : block.end])
        if tokens <= limit:
            heading = block.kind == "heading"
            atoms.append(
                _Atom(block.start, block.end, tokens, block.section, None, (), heading, index)
            )
            continue
        for start, end in _split(markdown, (block.start, block.end), limit):
            tokens = count_tokens(markdown[start:end])
            atoms.append(_Atom(start, end, tokens, block.section, None, (), False, index))
    return atoms


def _pack(atoms: list[_Atom], min_tokens: int, max_tokens: int) -> list[list[_Atom]]:
    section_tokens: Counter[int] = Counter()
    for atom in atoms:
        section_tokens[atom.section] += atom.tokens
    groups: list[list[_Atom]] = []
    current: list[_Atom] = []
    total = 0
    for atom in atoms:
        if current:
            too_big = total + atom.tokens > max_tokens
            boundary = atom.section != current[-1].section
            absorb = total < min_tokens and total + section_tokens[atom.section] <= max_tokens
            if too_big or (boundary and not absorb):
                # Headings at the end of a parent belong with the text that follows them.
                carried: list[_Atom] = []
                while len(current) > 1 and current[-1].heading and not boundary:
                    carried.insert(0, current.pop())
                groups.append(current)
                current, total = carried, sum(a.tokens for a in carried)
        current.append(atom)
        total += atom.tokens
    if current:
        groups.append(current)
    return groups


@dataclass(frozen=True)
class _Piece:
    start: int
    end: int
    prose: bool  # False when the piece holds (part of) a table
    heading: bool = False  # the piece is a heading alone
    first: int = -1  # block of its first character
    last: int = -1  # block of its last character


def _prose_pieces(
    markdown: str, run: list[_Atom], size: int, overlap: int, whole: bool
) -> list[_Piece]:
    """Pieces of a prose run: the run cut by size, or (``whole`` False) each block cut alone."""
    if whole:
        span = (run[0].start, run[-1].end)
        if count_tokens(markdown[span[0] : span[1]]) <= size:
            return [_Piece(*span, prose=True)]
        return [_Piece(a, b, prose=True) for a, b in _split(markdown, span, max(size - overlap, 1))]
    pieces: list[_Piece] = []
    for atom in run:
        if atom.tokens <= size:
            pieces.append(_Piece(atom.start, atom.end, True, atom.heading, atom.block, atom.block))
            continue
        for a, b in _split(markdown, (atom.start, atom.end), max(size - overlap, 1)):
            pieces.append(_Piece(a, b, True, False, atom.block, atom.block))
    return pieces


def _child_pieces(
    markdown: str, group: list[_Atom], size: int, overlap: int, close_at: int
) -> list[Span]:
    whole = close_at >= size  # children packed by size alone, across paragraphs
    pieces: list[_Piece] = []
    for table, run_iter in itertools.groupby(group, key=lambda a: a.table):
        run = list(run_iter)
        if table is None:
            pieces.extend(_prose_pieces(markdown, run, size, overlap, whole))
            continue
        rows = tuple(row for atom in run for row in atom.rows)
        row_tokens = count_tokens_batch([markdown[s:e] for s, e in rows])
        for row_group in _group_rows(rows, row_tokens, size):
            start, end = rows[row_group[0]][0], rows[row_group[-1]][1]
            pieces.append(_Piece(start, end, False, False, run[0].block, run[0].block))
    pieces = _merge_small(markdown, pieces, size, overlap, close_at)
    spans = [(pieces[0].start, pieces[0].end)] if pieces else []
    for previous, piece in itertools.pairwise(pieces):
        start = piece.start
        # children closed at a paragraph boundary do not overlap; a cut paragraph's pieces do
        joined = whole or previous.last == piece.first
        if overlap and previous.prose and piece.prose and joined:
            start = _overlap_start(
                markdown, (previous.start, previous.end), (piece.start, piece.end), overlap, size
            )
        spans.append((start, piece.end))
    return spans


def _merge_small(
    markdown: str, pieces: list[_Piece], size: int, overlap: int, close_at: int
) -> list[_Piece]:
    """Merge adjacent pieces while the merged slice fits (prose leaves room for the overlap).

    A piece takes in the next one only while it holds fewer than ``close_at`` tokens or is a
    heading alone (a heading belongs with what follows it).
    """
    merged: list[_Piece] = []
    for piece in pieces:
        if merged:
            last = merged[-1]
            limit = size - overlap if last.prose and piece.prose else size
            open_ = last.heading or count_tokens(markdown[last.start : last.end]) < close_at
            if open_ and count_tokens(markdown[last.start : piece.end]) <= limit:
                prose = last.prose and piece.prose
                merged[-1] = _Piece(last.start, piece.end, prose, False, last.first, piece.last)
                continue
        merged.append(piece)
    return merged


def _chunk_id(doc_key: str, kind: str, span: Span) -> str:
    raw = f"{doc_key}\x1f{kind}\x1f{span[0]}\x1f{span[1]}".encode()
    return hashlib.sha1(raw, usedforsecurity=False).hexdigest()[:24]


def _validate(parent_min: int, parent_max: int, child: int, overlap: int, close_at: int) -> None:
    if not 0 < parent_min <= parent_max:
        raise ConfigError(f"chunking: need 0 < parent_min ({parent_min}) <= parent_max")
    if not 0 < child <= parent_max:
        raise ConfigError(f"chunking: need 0 < child_tokens ({child}) <= parent_max_tokens")
    if not 0 <= overlap < child:
        raise ConfigError(f"chunking: need 0 <= child_overlap ({overlap}) < child_tokens")
    if close_at < 0:
        raise ConfigError(f"chunking: need child_close_tokens ({close_at}) >= 0")


def chunk_document(
    doc: ExtractedDocument,
    *,
    doc_key: str,
    parent_min_tokens: int = 800,
    parent_max_tokens: int = 1000,
    child_tokens: int = 200,
    child_overlap: int = 20,
    child_close_tokens: int | None = None,
) -> list[ParentChunk]:
    """Cut a document into parent chunks, each holding its child chunks.

    Args:
        doc: The extracted document.
        doc_key: A stable key for the document (e.g. its SHA-256); ids are derived from it.
        parent_min_tokens: Parents closed for size hold at least this many tokens.
        parent_max_tokens: Parents hold at most this many tokens (a single table row that is
            longer than this is never split and is the only exception).
        child_tokens: Target (maximum) size of a child chunk.
        child_overlap: Tokens shared by consecutive children cut from the same prose run
            (from the same paragraph, when children close at paragraphs).
        child_close_tokens: A child closes at the end of a paragraph (or list, table, …) once
            it holds at least this many tokens; a heading stays with what follows it. None
            (or at least ``child_tokens``): paragraphs are packed up to ``child_tokens``.

    Returns:
        Parents in document order; children are numbered across the whole document.

    Raises:
        ConfigError: The size parameters are inconsistent.
    """
    close_at = child_tokens if child_close_tokens is None else child_close_tokens
    _validate(parent_min_tokens, parent_max_tokens, child_tokens, child_overlap, close_at)
    markdown = doc.markdown
    blocks, headings = parse_blocks(markdown)
    limit = min(max(parent_max_tokens - parent_min_tokens, child_tokens), parent_max_tokens)
    groups = _pack(_atoms(markdown, blocks, limit), parent_min_tokens, parent_max_tokens)
    parents: list[ParentChunk] = []
    ordinal = 0
    for parent_ordinal, group in enumerate(groups):
        span = (group[0].start, group[-1].end)
        parent_id = _chunk_id(doc_key, "parent", span)
        child_spans = _child_pieces(markdown, group, child_tokens, child_overlap, close_at)
        texts = [markdown[s:e] for s, e in child_spans]
        children = []
        for (start, end), text, tokens in zip(
            child_spans, texts, count_tokens_batch(texts), strict=True
        ):
            children.append(
                ChildChunk(
                    id=_chunk_id(doc_key, "child", (start, end)),
                    text=text,
                    char_start=start,
                    char_end=end,
                    page=doc.page_at(start),
                    heading_path=headings.path_at(start),
                    token_count=tokens,
                    ordinal=ordinal,
                    parent_id=parent_id,
                )
            )
            ordinal += 1
        parents.append(_parent(doc, headings, span, parent_id, parent_ordinal, children))
    return parents


def _parent(
    doc: ExtractedDocument,
    headings: HeadingIndex,
    span: Span,
    parent_id: str,
    ordinal: int,
    children: list[ChildChunk],
) -> ParentChunk:
    text = doc.markdown[span[0] : span[1]]
    return ParentChunk(
        id=parent_id,
        text=text,
        char_start=span[0],
        char_end=span[1],
        page=doc.page_at(span[0]),
        heading_path=headings.path_at(span[0]),
        token_count=count_tokens(text),
        ordinal=ordinal,
        children=tuple(children),
    )
