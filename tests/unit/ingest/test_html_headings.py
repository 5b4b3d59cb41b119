"""HTML extraction keeps the page's headings (h1-h6) as markdown headings, in place."""

from __future__ import annotations

from pathlib import Path

from disputatio.ingest.chunking import chunk_document
from disputatio.ingest.extract import extract
from disputatio.ingest.html_headings import page_headings, restore_headings

#: The report whose ``<h1>`` trafilatura dropped: it sits in a ``<header>`` above ``<main>``,
#: followed by a byline that trafilatura drops too; the sidebar's heading is boilerplate.
INCIDENT = """<!DOCTYPE html>
<html><head><title>Ops reports</title></head><body>
<nav><a href="/">Home</a> <a href="/reports">Reports</a></nav>
<header><h1>Incident 2291</h1><p class="meta">Filed 3 May 2024 by the ops desk</p></header>
<main>
<p>The <b>CTD-41</b> sensor on mooring M3 reported a temperature drift of 0.3 degrees over six
weeks before it was recovered for inspection.</p>
<h2>Root cause</h2>
<p>The temperature channel had not been calibrated since its deployment, fourteen months
earlier, against the twelve-month schedule.</p>
<h2>Corrective action</h2>
<p>All CTD-41 units are now calibrated every twelve months and before every deployment deeper
than 2000 metres.</p>
</main>
<aside><h2>Related incidents</h2><p>Incident 2288: a pump failure on mooring M1.</p></aside>
<footer>Copyright 2024 Ocean Ops</footer>
</body></html>
"""


def _extract(tmp_path: Path, html: str = INCIDENT) -> tuple[str, dict[str, object]]:
    path = tmp_path / "incident.html"
    path.write_text(html, encoding="utf-8")
    doc = extract(path)
    assert doc.source_kind == "html" and doc.metadata["extractor"] == "trafilatura"
    return doc.markdown, dict(doc.metadata)


def test_the_h1_outside_the_main_content_is_a_heading_of_the_text(tmp_path: Path) -> None:
    markdown, metadata = _extract(tmp_path)
    lines = markdown.splitlines()
    # the h1 opens the text, above the first paragraph; the h2s stay where they were
    assert lines[0] == "# Incident 2291"
    assert "## Root cause" in lines and "## Corrective action" in lines
    assert markdown.index("# Incident 2291") < markdown.index("The **CTD-41** sensor")
    assert markdown.index("## Root cause") < markdown.index("The temperature channel")
    assert metadata["headings_restored"] == 1
    # boilerplate stays out, headings included
    assert "Related incidents" not in markdown and "Filed 3 May" not in markdown
    assert "Copyright" not in markdown and "Reports" not in markdown


def test_chunk_heading_paths_hold_the_h1_and_the_h2s(tmp_path: Path) -> None:
    path = tmp_path / "incident.html"
    path.write_text(INCIDENT, encoding="utf-8")
    doc = extract(path)
    parents = chunk_document(
        doc, doc_key="k", parent_min_tokens=20, parent_max_tokens=60, child_tokens=30
    )
    paths = {c.heading_path for p in parents for c in p.children}
    assert paths == {
        ("Incident 2291",),
        ("Incident 2291", "Root cause"),
        ("Incident 2291", "Corrective action"),
    }
    by_text = {c.text.split("\n")[-1][:30]: c.heading_path for p in parents for c in p.children}
    assert by_text["All CTD-41 units are now calib"] == ("Incident 2291", "Corrective action")


def test_headings_trafilatura_keeps_are_not_repeated(tmp_path: Path) -> None:
    html = INCIDENT.replace("<header>", "<main>").replace("</header>\n<main>", "")
    markdown, metadata = _extract(tmp_path, html)
    assert markdown.count("Incident 2291") == 1 and markdown.startswith("# Incident 2291")
    assert markdown.count("## Root cause") == 1
    assert metadata["headings_restored"] == 0


def test_a_heading_kept_as_a_plain_line_becomes_the_heading() -> None:
    html = "<h1>Incident 2291</h1><p>The CTD-41 drifted.</p><h2>Cause</h2><p>No calibration.</p>"
    markdown = "**Incident 2291**\n\nThe CTD-41 drifted.\n\n## Cause\n\nNo calibration."
    restored, count = restore_headings(markdown, page_headings(html))
    assert restored == "# Incident 2291\n\nThe CTD-41 drifted.\n\n## Cause\n\nNo calibration."
    assert count == 1


def test_a_table_row_with_the_heading_words_stays_a_row() -> None:
    html = "<h2>Units</h2><table><tr><td>Units</td></tr><tr><td>CTD-41 number 7</td></tr></table>"
    markdown = "| Units |\n|---|\n| CTD-41 number 7 |"
    restored, count = restore_headings(markdown, page_headings(html))
    assert restored == "## Units\n\n| Units |\n|---|\n| CTD-41 number 7 |" and count == 1
