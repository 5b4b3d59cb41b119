"""Parent/child chunking: exact offsets, stable ids, sizes, tables, headings and pages."""

from __future__ import annotations

import itertools
import random

import pytest
from builders import MD_SAMPLE
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from disputatio.errors import ConfigError
from disputatio.ingest.chunking import chunk_document
from disputatio.ingest.markdown_blocks import parse_blocks
from disputatio.ingest.tokens import count_tokens
from disputatio.ingest.types import ExtractedDocument, PageSpan, ParentChunk

WORDS = (
    "radium polonium curie laboratory measurement electrometer uranium ore Paris Warsaw "
    "physics chemistry isotope decay the of and in a to was with for research"
).split()


def _prose(rng: random.Random, sentences: int) -> str:
    out = []
    for _ in range(sentences):
        words = [rng.choice(WORDS) for _ in range(rng.randint(6, 25))]
        out.append(" ".join(words).capitalize() + ".")
    return " ".join(out)


def _doc(markdown: str, pages: tuple[PageSpan, ...] = ()) -> ExtractedDocument:
    return ExtractedDocument(markdown=markdown, title="t", source_kind="md", pages=pages)


def _table_rows(markdown: str) -> list[tuple[int, int]]:
    blocks, _ = parse_blocks(markdown)
    return [row for block in blocks if block.kind == "table" for row in block.rows]


def _check_invariants(markdown: str, parents: list[ParentChunk], child_tokens: int) -> None:
    children = [c for p in parents for c in p.children]
    ids = [p.id for p in parents] + [c.id for c in children]
    assert len(ids) == len(set(ids))
    assert [p.ordinal for p in parents] == list(range(len(parents)))
    assert [c.ordinal for c in children] == list(range(len(children)))
    for parent in parents:
        assert markdown[parent.char_start : parent.char_end] == parent.text
        assert parent.text and parent.text == parent.text.strip()
        for child in parent.children:
            assert markdown[child.char_start : child.char_end] == child.text
            assert child.text and child.text == child.text.strip()
            assert parent.char_start <= child.char_start < child.char_end <= parent.char_end
            assert child.parent_id == parent.id
            assert child.token_count == count_tokens(child.text)
    for a, b in itertools.pairwise(parents):
        assert a.char_end <= b.char_start
    # Every non-space character is in some child.
    covered = bytearray(len(markdown))
    for child in children:
        covered[child.char_start : child.char_end] = b"\x01" * (child.char_end - child.char_start)
    assert all(covered[i] or ch.isspace() for i, ch in enumerate(markdown))
    # No chunk boundary falls inside a table row.
    for start, end in _table_rows(markdown):
        for chunk in [*parents, *children]:
            assert not start < chunk.char_start < end
            assert not start < chunk.char_end < end


_word = st.text(
    alphabet=st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), min_size=1, max_size=10
) | st.sampled_from(WORDS)
_line = st.lists(_word, min_size=1, max_size=25).map(" ".join)
_heading = st.tuples(st.integers(1, 4), _line).map(lambda t: "#" * t[0] + " " + t[1])
_row = st.lists(_word.map(lambda w: w.replace("|", "")), min_size=1, max_size=4).map(
    lambda cells: "| " + " | ".join(cells) + " |"
)
_table = st.lists(_row, min_size=1, max_size=12).map(
    lambda rows: "\n".join([rows[0], "|---|---|", *rows[1:]])
)
_paragraph = st.lists(_line, min_size=1, max_size=6).map("\n".join)
_block = st.one_of(_heading, _paragraph, _paragraph, _table, st.just("```\ncode # x\n```"))
_markdown = st.tuples(
    st.lists(_block, max_size=14), st.lists(st.sampled_from(["\n\n", "\n", "\n\n\n", " \n\n"]))
).map(lambda t: "".join(b + (t[1][i % len(t[1])] if t[1] else "\n\n") for i, b in enumerate(t[0])))


@settings(
    max_examples=80, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow]
)
@given(
    markdown=_markdown,
    sizes=st.sampled_from([(40, 80, 24, 4), (5, 10, 6, 2), (10, 10, 10, 0)]),
    close=st.sampled_from([None, 0, 5]),
)
def test_offsets_and_structure_hold_for_random_markdown(
    markdown: str, sizes: tuple[int, int, int, int], close: int | None
) -> None:
    parent_min, parent_max, child, overlap = sizes
    parents = chunk_document(
        _doc(markdown),
        doc_key="doc",
        parent_min_tokens=parent_min,
        parent_max_tokens=parent_max,
        child_tokens=child,
        child_overlap=overlap,
        child_close_tokens=close,
    )
    _check_invariants(markdown, parents, child)
    assert bool(parents) == bool(markdown.strip())


def test_zero_token_characters_are_not_repeated() -> None:
    # U+F0000 (private use) is dropped by the tokenizer (0 tokens); the splitter must still
    # cut this text into consecutive, non-overlapping pieces (found by hypothesis).
    markdown = "# 0 0 00000000\U000f00000\n\n"
    parents = chunk_document(
        _doc(markdown),
        doc_key="d",
        parent_min_tokens=5,
        parent_max_tokens=10,
        child_tokens=6,
        child_overlap=2,
    )
    _check_invariants(markdown, parents, 6)


def test_ids_are_stable_and_keyed_by_document() -> None:
    markdown = MD_SAMPLE + "\n" + _prose(random.Random(3), 120)
    first = chunk_document(_doc(markdown), doc_key="doc-1")
    again = chunk_document(_doc(markdown), doc_key="doc-1")
    other = chunk_document(_doc(markdown), doc_key="doc-2")
    assert first == again
    ids = {c.id for p in first for c in p.children} | {p.id for p in first}
    other_ids = {c.id for p in other for c in p.children} | {p.id for p in other}
    assert ids.isdisjoint(other_ids)
    assert all(len(i) == 24 and int(i, 16) >= 0 for i in ids)


def test_parent_and_child_sizes_for_long_input() -> None:
    rng = random.Random(7)
    paragraphs = [_prose(rng, rng.randint(1, 12)) for _ in range(60)]
    markdown = "# Long report\n\n" + "\n\n".join(paragraphs)
    parents = chunk_document(_doc(markdown), doc_key="long")
    _check_invariants(markdown, parents, 200)
    assert len(parents) >= 3
    assert all(p.token_count <= 1000 for p in parents)
    assert all(p.token_count >= 800 for p in parents[:-1])
    children = [c for p in parents for c in p.children]
    assert all(c.token_count <= 200 for c in children)
    # Consecutive prose children overlap (the last ~20 tokens of one open the next).
    overlaps = [
        a.char_end - b.char_start for p in parents for a, b in itertools.pairwise(p.children)
    ]
    assert overlaps and all(o > 0 for o in overlaps)


def test_tables_stay_whole_or_split_between_rows() -> None:
    rng = random.Random(11)
    small = "| Year | Prize |\n|---|---|\n| 1903 | Physics |\n| 1911 | Chemistry |"
    big_rows = [f"| {i} | {' '.join(rng.choice(WORDS) for _ in range(8))} |" for i in range(80)]
    big = "\n".join(["| n | words |", "|---|---|", *big_rows])
    markdown = "\n\n".join(
        ["# Data", _prose(rng, 8), small, _prose(rng, 8), "## Big table", big, _prose(rng, 3)]
    )
    parents = chunk_document(_doc(markdown), doc_key="tables")
    _check_invariants(markdown, parents, 200)
    children = [c for p in parents for c in p.children]
    assert sum(small in c.text for c in children) == 1
    for row in big_rows:
        assert any(row in c.text for c in children)
    big_children = [c for c in children if "| 40 |" in c.text or "| 0 |" in c.text]
    assert all(c.token_count <= 200 for c in big_children)


def test_heading_paths() -> None:
    parents = chunk_document(
        _doc(MD_SAMPLE),
        doc_key="md",
        parent_min_tokens=10,
        parent_max_tokens=30,
        child_tokens=12,
        child_overlap=0,
    )
    children = [c for p in parents for c in p.children]
    by_text = {c.text.split("\n")[-1]: c.heading_path for c in children}
    assert by_text["Marie Curie worked at the University of Paris."] == ("Radioactivity",)
    assert by_text["She founded the Radium Institute."] == ("Radioactivity", "Later life")
    table_child = next(c for c in children if "| 1911 |" in c.text)
    assert table_child.heading_path == ("Radioactivity", "Prizes")
    # Top-level sections are "##" here ("#" occurs once), so "## Later life" opens a new parent.
    later = next(p for p in parents if "Later life" in p.text)
    assert later.text.startswith("## Later life")


def test_pages_follow_char_start() -> None:
    rng = random.Random(5)
    texts = [_prose(rng, 30) for _ in range(3)]
    markdown = "\n\n".join(texts)
    spans, offset = [], 0
    for number, text in enumerate(texts, start=1):
        spans.append(PageSpan(number, offset, offset + len(text)))
        offset += len(text) + 2
    parents = chunk_document(_doc(markdown, tuple(spans)), doc_key="pages")
    children = [c for p in parents for c in p.children]
    assert {c.page for c in children} == {1, 2, 3}
    for chunk in [*parents, *children]:
        span = next(s for s in spans if s.start <= chunk.char_start < s.end)
        assert chunk.page == span.page
    assert all(
        c.page is None for p in chunk_document(_doc("plain text"), doc_key="x") for c in p.children
    )


def test_empty_document_and_bad_parameters() -> None:
    assert chunk_document(_doc("  \n\n "), doc_key="e") == []
    with pytest.raises(ConfigError):
        chunk_document(_doc("x"), doc_key="e", parent_min_tokens=900, parent_max_tokens=800)
    with pytest.raises(ConfigError):
        chunk_document(_doc("x"), doc_key="e", child_tokens=100, child_overlap=100)
    with pytest.raises(ConfigError):
        chunk_document(_doc("x"), doc_key="e", child_close_tokens=-1)


LOANS = (
    "# Library\n\nThe library is open from 09:00 to 20:00 on weekdays.\n\n"
    "## Loans\n\nFilms may be borrowed for 7 days.\n\n"
    "The branch library is open on Tuesdays."
)


def test_children_close_at_paragraphs_and_headings_stay_with_their_text() -> None:
    packed = [c.text for p in chunk_document(_doc(LOANS), doc_key="l") for c in p.children]
    assert packed == [LOANS]  # today's default: the whole short document is one child
    parents = chunk_document(_doc(LOANS), doc_key="l", child_close_tokens=0)
    _check_invariants(LOANS, parents, 200)
    assert [c.text for p in parents for c in p.children] == [
        "# Library\n\nThe library is open from 09:00 to 20:00 on weekdays.",
        "## Loans\n\nFilms may be borrowed for 7 days.",
        "The branch library is open on Tuesdays.",
    ]


def test_short_paragraphs_join_until_a_child_holds_close_tokens() -> None:
    paragraphs = [f"Rule {i} applies to {w}." for i, w in enumerate(WORDS[:12])]
    markdown = "\n\n".join(paragraphs)
    close = 3 * count_tokens(paragraphs[0])
    parents = chunk_document(_doc(markdown), doc_key="s", child_close_tokens=close)
    _check_invariants(markdown, parents, 200)
    children = [c for p in parents for c in p.children]
    assert len(children) > 1
    assert all(c.token_count >= close for c in children[:-1])
    starts = {markdown.index(p) for p in paragraphs}
    ends = {markdown.index(p) + len(p) for p in paragraphs}
    assert all(c.char_start in starts and c.char_end in ends for c in children)


def test_a_cut_paragraph_overlaps_itself_but_not_the_next_paragraph() -> None:
    long = _prose(random.Random(2), 30)
    markdown = long + "\n\nThe branch library is open on Tuesdays."
    parents = chunk_document(
        _doc(markdown), doc_key="o", child_tokens=100, child_overlap=10, child_close_tokens=0
    )
    _check_invariants(markdown, parents, 100)
    children = [c for p in parents for c in p.children]
    assert children[-1].text == "The branch library is open on Tuesdays."
    cut = children[:-1]
    assert len(cut) > 2 and all(c.token_count <= 100 for c in cut)
    assert all(a.char_end > b.char_start for a, b in itertools.pairwise(cut))
    assert children[-2].char_end == len(long)
