"""The page in headless Chromium (Debian's ``chromium``, driven by Playwright).

Asks a question against the sample corpus (uploaded through the API), watches moves stream in,
and checks that the answer and at least one citation appear and that a citation opens its
source. The screenshot is saved under ``$DISPUTATIO_TEST_ARTIFACTS`` (default: the temp dir).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from disputatio.cli.claims import is_bare_label

from .conftest import KEY_A, LiveServer
from .fakes import restating

pytestmark = pytest.mark.integration

CHROMIUM = os.environ.get("DISPUTATIO_CHROMIUM") or shutil.which("chromium") or ""


def _artifacts() -> Path:
    default = Path(tempfile.gettempdir()) / "disputatio-artifacts"
    folder = Path(os.environ.get("DISPUTATIO_TEST_ARTIFACTS", default))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@contextmanager
def signed_in(url: str, *, width: int = 1366) -> Iterator[Any]:
    """A Chromium tab on the page at ``url``, signed in with tenant A's key (closed after)."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
        try:
            page = browser.new_page(viewport={"width": width, "height": 900})
            page.goto(url + "/")
            page.fill("#api-key", KEY_A)
            page.keyboard.press("Enter")  # the key form submits from the keyboard
            page.wait_for_selector("#health:has-text('tenant api-acme')", timeout=60_000)
            yield page
        finally:
            browser.close()


@pytest.mark.skipif(not CHROMIUM, reason="no chromium executable (apt-get install chromium)")
def test_page_streams_a_debate_with_an_answer_and_citations(
    live: LiveServer, corpus_a: dict[str, Any]
) -> None:
    shot = _artifacts() / "page-debate.png"
    with signed_in(live.url) as page:
        page.fill("#question", "How is brucellosis diagnosed?")
        page.select_option("#protocol", "hierarchical")
        page.click("#start")
        page.wait_for_selector("#moves .move", timeout=120_000)
        page.wait_for_selector("#status:has-text('done')", timeout=120_000)
        moves = page.locator("#moves .move").count()
        answer = page.inner_text("#answer")
        citations = page.locator("#citations li").count()
        assert moves >= 2, moves
        assert "brucellosis" in answer.lower(), answer
        assert citations >= 1
        # the answer claim by claim, each marked with the verdict the API gives it
        case_id = page.evaluate("state.caseId")
        with live.client(KEY_A) as client:
            claims = client.get(f"/debate/{case_id}/verdict").json()["claims"]
        claims = [c for c in claims if not is_bare_label(c)]  # "Support:" is not shown
        assert claims
        shown = page.locator("#answer .claims li.claim")
        assert shown.count() == len(claims)
        for i, claim in enumerate(claims):
            item = shown.nth(i)
            verdict = claim["verdict"] or "none"
            assert item.get_attribute("data-verdict") == verdict
            assert verdict in (item.get_attribute("class") or "").split()
            assert (item.locator("del").count() == 1) == claim["dropped"]
            if claim["reason"]:
                assert claim["reason"] in (item.get_attribute("title") or "")
        page.locator("#citations .cite").first.click()
        page.wait_for_selector("#source[open]")
        page.wait_for_function(
            "document.querySelector('#source-meta').textContent.includes('brucellosis')"
        )
        assert "rucell" in page.inner_text("#source-text")
        page.screenshot(path=str(shot.with_name("page-source.png")))
        page.keyboard.press("Escape")
        page.wait_for_selector("#source:not([open])", state="attached")
        page.wait_for_selector("#sessions li button")
        page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 10_000


@pytest.mark.skipif(not CHROMIUM, reason="no chromium executable (apt-get install chromium)")
def test_page_referee_poll_scores_and_rdc_graph(live: LiveServer) -> None:
    folder = _artifacts()
    with signed_in(live.url) as page:
        # the referee: its planner asks; the poll is answered from the keyboard
        page.select_option("#protocol", "referee")
        page.fill("#question", "Which vector store should we use?")
        page.focus("#question")
        page.keyboard.press("Control+Enter")  # starts the debate from the question box
        page.wait_for_selector("#poll form", timeout=60_000)
        page.keyboard.press("Space")  # the first choice (FAISS) has the focus
        page.keyboard.press("Tab")
        page.keyboard.press("Tab")
        page.keyboard.press("Enter")  # the Answer button
        page.wait_for_selector("#status:has-text('done')", timeout=60_000)
        page.wait_for_selector("#referee-view table")
        view = page.inner_text("#referee-view")
        assert "latency" in view and "FAISS" in view
        assert "FAISS" in page.inner_text("#answer")
        # the ruling's rendering keys: one chart per _Poll/_Score key, one table per _Table
        case_id = page.evaluate("state.caseId")
        with live.client(KEY_A) as client:
            ruling = client.get(f"/debate/{case_id}/verdict").json()["ruling"]
        kinds = [k["type"] for k in ruling["keys"]]
        assert {"poll", "score", "table"} <= set(kinds)
        assert page.locator("#referee-view .bars").count() == kinds.count("poll") + kinds.count(
            "score"
        )
        assert page.locator("#referee-view table").count() == kinds.count("table")
        for key in ruling["keys"]:
            if key["type"] == "score":
                assert f"score: {key['axis']}" in view
        # the keys' text form (_Table{…}/_Score{…}/_Poll{…}) parses in the page to the same
        assert "_Score{" in ruling["rendered"] and "_Table{" in ruling["rendered"]
        parsed = page.evaluate("(text) => parseKeys(text)", ruling["rendered"])
        assert parsed == ruling["keys"]
        page.screenshot(path=str(folder / "page-referee.png"), full_page=True)
        # RDC: the bundled case, the graph with posteriors and the jury's table
        page.select_option("#protocol", "rdc")
        page.wait_for_function("document.querySelector('#case').value.includes('hypotheses')")
        page.click("#start")
        page.wait_for_selector("#status:has-text('done')", timeout=60_000)
        page.wait_for_selector("#rdc-view svg circle")
        page.wait_for_selector("#rdc-view table")
        assert "Most likely" in page.inner_text("#answer")
        # every hypothesis is drawn with its posterior, the other nodes are named in the
        # legend, and no label is cut at the edge of the drawing
        case_id = page.evaluate("state.caseId")
        with live.client(KEY_A) as client:
            verdict = client.get(f"/debate/{case_id}/verdict").json()["verdict"]
        labels = page.locator("#rdc-view svg text.hyp").all_text_contents()
        assert len(labels) == len(verdict["differential"])
        assert all(label.endswith("%") for label in labels), labels
        assert page.locator("#rdc-view .legend li").count() == page.locator(
            "#rdc-view svg circle"
        ).count() - len(labels)
        cut = page.evaluate(
            """() => {
            const svg = document.querySelector('#rdc-view svg');
            const v = svg.viewBox.baseVal;
            return [...svg.querySelectorAll('text')].map((t) => t.getBBox()).filter((b) =>
              b.x < v.x || b.y < v.y || b.x + b.width > v.x + v.width ||
              b.y + b.height > v.y + v.height).length;
            }"""
        )
        assert cut == 0
        shown = page.locator("#rdc-view table").first.locator("tbody tr td:nth-child(3)")
        posteriors = [float(x) for x in shown.all_text_contents()]
        expected = [row["posterior"] for row in verdict["differential"]]
        assert posteriors == pytest.approx(expected, abs=5e-4)
        page.screenshot(path=str(folder / "page-rdc.png"), full_page=True)


@pytest.mark.skipif(not CHROMIUM, reason="no chromium executable (apt-get install chromium)")
def test_page_quick_answer_marks_each_claim_with_its_verdict(
    live: LiveServer, corpus_a: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    restated: list[str] = []
    assert live.fakes is not None
    monkeypatch.setattr(live.fakes, "rag_reply", restating(restated, head="Support:\n"))
    with signed_in(live.url, width=420) as page:  # a narrow card
        page.fill("#question", "How is brucellosis diagnosed?")
        page.click("#quick")
        page.wait_for_selector("#answer li.claim", timeout=60_000)
        supported = page.locator("#answer li.claim.supported")
        assert supported.count() == 1
        title = " ".join((supported.first.get_attribute("title") or "").split())
        assert restated[0] in title  # the supporting sentence, with its source
        assert "4711" not in supported.first.inner_text()
        dropped = page.locator("#answer li.claim.unsupported.dropped")
        assert dropped.count() == 1
        assert "4711" in dropped.first.locator("del").inner_text()
        assert "4711" in (dropped.first.get_attribute("title") or "")  # the reason
        assert "1 of 2 claims supported; 1 dropped" in page.inner_text("#answer .support")
        # the "Support:" line before them is the answer's layout: no item of its own
        assert page.locator("#answer li.claim").count() == 2
        # long text wraps inside its card: nothing wider than the answer box
        overflow = page.evaluate(
            "() => { const a = document.querySelector('#result');"
            " return a.scrollWidth - a.clientWidth; }"
        )
        assert overflow <= 1, overflow
        page.screenshot(path=str(_artifacts() / "page-claims.png"), full_page=True)
