"""A long section shown in part shows the part its search matched (``spans``, ``excerpt``)."""

from __future__ import annotations

from pathlib import Path

from disputatio.models.rerank import NoReranker
from disputatio.retrievers.base import excerpt, format_sections
from disputatio.retrievers.memory import InMemoryFunnel
from disputatio.settings import load_settings
from disputatio.state.retrieval import Section
from disputatio.testing import FakeEmbeddings

FILLER = "\n\n".join(
    f"## Group {i}\n\nThe group number {i} meets on a weekday evening in the hall."
    for i in range(30)
)
LATE = "## Summer week\n\nSummer Music Week runs in the first week of August."
DOC = f"# Groups\n\n{FILLER}\n\n{LATE}\n"


def test_the_head_when_the_match_is_in_it_or_unknown() -> None:
    text = "First line.\n" + "x" * 500
    assert excerpt(Section(id="a", text=text), 100) == text[:100]
    assert excerpt(Section(id="a", text=text, spans=[(0, 11)]), 100) == text[:100]


def test_the_part_around_a_late_match_from_the_start_of_its_line() -> None:
    start = DOC.index("Summer Music Week runs")
    section = Section(id="a", text=DOC, spans=[(start, start + 51)])
    shown = excerpt(section, 300)
    assert "Summer Music Week runs in the first week of August." in shown
    assert shown.startswith("… ") and "\n" not in shown[2:3]  # cut at a line's start
    assert len(shown) <= 300 + 4 and DOC.index(shown[2:].rstrip(" …")) > 0


def test_the_funnel_locates_its_matched_children_and_prompts_show_them(tmp_path: Path) -> None:
    settings = load_settings(
        home=tmp_path / "home",
        retrieval={"rerank_threshold": 0.0, "trim_alpha": 0.0},
        ingest={"child_tokens": 40, "child_overlap": 0, "parent_max_tokens": 2000},
    )
    funnel = InMemoryFunnel(
        settings=settings, embeddings=FakeEmbeddings(size=256), reranker=NoReranker()
    )
    funnel.add_texts([(DOC, {"source": "groups.md"})])
    result = funnel.search("When does Summer Music Week run in August?", k=1)
    (section,) = result.sections
    assert len(section.text) > 1500 and section.spans
    for start, end in section.spans:  # every span is one of the section's children, in place
        assert 0 <= start < end <= len(section.text)
    shown = format_sections([section], max_chars=1500)
    assert "Summer Music Week runs in the first week of August." in shown
    head = format_sections([section.model_copy(update={"spans": []})], max_chars=1500)
    assert "Summer Music Week runs" not in head  # what a prompt showed before spans
