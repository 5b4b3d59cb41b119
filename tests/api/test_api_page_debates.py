"""The page in headless Chromium on a MedRAG debate and on a hierarchical debate with its tree.

Scripted fake models (as in ``test_api_page.py``) whose hierarchical
debate decomposes the question into two sub-questions. Checked: MedRAG moves read as text (who,
round, the answer with its option's text, the rationale, cited ids; the rest in collapsed
details; nothing wider than its card), the verdict names the option's text, the sub-question
tree of the ``nodes`` event is drawn and annotated when the run ends, a quick answer's status
has its own badge, and the source dialog shows the file name, wrapped, never a server path.

Screenshots go to pytest's temp dir and the page tests' artifacts folder; with
``DISPUTATIO_UPDATE_SCREENSHOTS=1`` they are also copied to ``docs/page/`` (``medrag.png``,
``hierarchical.png``).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from disputatio.cli.claims import is_bare_label
from disputatio.testing import ScriptedChatModel

from .conftest import KEY_A, LiveServer, read_sse
from .fakes import MEDRAG_SCRIPTS, FakeModels, choosing
from .test_api_page import CHROMIUM, _artifacts, signed_in

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(not CHROMIUM, reason="no chromium executable (apt-get install chromium)"),
]

DOCS_PAGE = Path(__file__).resolve().parents[2] / "docs" / "page"
SUBQUESTIONS = ["Which laboratory tests confirm brucellosis?", "What symptoms suggest brucellosis?"]
OPTIONS = {"A": "a chest X-ray", "B": "blood culture and serology"}
#: An unbroken token in a rationale: it must wrap inside its card, not widen it.
LONG_TOKEN = "https://example.org/" + "".join(f"{i:03d}x" for i in range(60))  # no repeats


class TreeFakes(FakeModels):
    """The API tests' fakes, but the hierarchical debate splits the question in two, one
    worker per leaf, and MedRAG's first agent starts with a long unbroken token."""

    def __call__(self, graph: str, tenant: str) -> dict[str, Any]:
        out = dict(super().__call__(graph, tenant))
        models = dict(out.get("models") or {})
        if graph == "debate":
            out.pop("flat", None)
            out.update(max_depth=1, workers=1)
            plan = {"subquestions": SUBQUESTIONS}
            models["orchestrator"] = ScriptedChatModel(script=[plan], name="orchestrator")
            models["worker"] = models["aggregator"] = models["worker-root-0"]
        if graph == "medrag_debate":
            first = choosing(f"A chest X-ray shows it, see {LONG_TOKEN}", "A")
            script = [first, *MEDRAG_SCRIPTS["agent1"][1:]]
            models["agent1"] = ScriptedChatModel(script=script, name=f"{tenant}:agent1")
        out["models"] = models
        return out


@pytest.fixture
def tree_live(live: LiveServer, monkeypatch: pytest.MonkeyPatch) -> LiveServer:
    """The API tests' server, its fakes made :class:`TreeFakes` for one test (any server's
    worker may take a run from the shared queue: a second server would not do)."""
    assert live.fakes is not None
    monkeypatch.setattr(live.fakes, "__class__", TreeFakes)
    return live


@pytest.fixture
def page(tree_live: LiveServer) -> Iterator[Any]:
    with signed_in(tree_live.url) as tab:
        yield tab


def keep_screenshot(tab: Any, folder: Path, name: str) -> Path:
    """Screenshot the page to ``folder/name`` and to the kept artifacts (as the other page
    tests: ``$DISPUTATIO_TEST_ARTIFACTS``); copy it to docs/page/ when asked to."""
    shot = folder / name
    tab.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 10_000
    shutil.copyfile(shot, _artifacts() / f"page-{name}")
    if os.environ.get("DISPUTATIO_UPDATE_SCREENSHOTS") == "1":
        DOCS_PAGE.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(shot, DOCS_PAGE / name)
    return shot


def run_debate(tab: Any, protocol: str, options: str = "") -> str:
    tab.fill("#question", "How is brucellosis diagnosed?")
    tab.select_option("#protocol", protocol)
    if options:
        tab.fill("#options", options)
    tab.click("#start")
    tab.wait_for_selector("#status:has-text('done')", timeout=120_000)
    return str(tab.evaluate("state.caseId"))


def events(server: LiveServer, case_id: str) -> list[dict[str, Any]]:
    with server.client(KEY_A) as client, client.stream("GET", f"/debate/{case_id}/stream") as resp:
        return read_sse(resp)


OVERFLOW = """(sel) => [...document.querySelectorAll(sel)]
    .filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.outerHTML.slice(0, 120))"""


def test_medrag_moves_read_as_text_and_the_verdict_names_the_option(
    page: Any, tree_live: LiveServer, tmp_path: Path
) -> None:
    options = "\n".join(f"{k}={v}" for k, v in OPTIONS.items())
    case_id = run_debate(page, "medrag", options)
    moves = [e["data"]["move"] for e in events(tree_live, case_id) if e["event"] == "move"]
    cards = page.locator("#moves .move")
    assert cards.count() == len(moves)
    turns = 0
    for i, move in enumerate(moves):
        card = cards.nth(i)
        shown = card.inner_text()  # collapsed details are not rendered, so not in the text
        assert move["agent"] in card.locator("header").inner_text()
        assert f"round {move['round']}" in card.locator("header").inner_text()
        for raw in ('"usage"', "latency_ms", "<section", "{"):
            assert raw not in shown, (raw, shown)
        if "response" not in move:  # a summary: its text
            assert move["text"] in shown
            continue
        turns += 1
        assert "Answer Choice:" not in card.locator(".rationale").inner_text()
        assert card.locator(".move-answer").inner_text() == (
            f"Answer: {move['choice']} — {OPTIONS[move['choice']]}"
        )
        rationale = move["response"].splitlines()[0].split(" [")[0]
        assert rationale in card.locator(".rationale").inner_text()
        cited = {
            b.get_attribute("data-cite")
            for b in card.locator(":scope > p .cite, .move-cites .cite").all()
        }
        assert cited == set(move["citations"])
        details = card.locator("details.move-details")
        assert details.count() == 1 and details.get_attribute("open") is None  # collapsed
    assert turns == 4
    # details open: readable usage, query and documents (their text, not their XML)
    for d in page.locator("#moves details.move-details").all():
        d.locator("summary").click()
    first = cards.nth(0).locator("details").inner_text()
    assert "tokens" in first and "How is brucellosis diagnosed?" in first
    assert "Brucellosis is confirmed by blood culture" in first and "<section" not in first
    # nothing wider than its card, details open and a long unbroken token included
    assert LONG_TOKEN[:40] in cards.nth(0).inner_text()
    assert page.evaluate(OVERFLOW, "#moves, #moves .move, #moves .move *") == []
    # the verdict: the option's key with its text, how it was reached; claims still marked
    with tree_live.client(KEY_A) as client:
        verdict = client.get(f"/debate/{case_id}/verdict").json()
    line = page.inner_text("#answer .verdict-line")
    assert f"{verdict['answer']} — {OPTIONS[verdict['answer']]}" in line
    assert verdict["consensus_type"] in line
    shown = [c for c in verdict["claims"] if not is_bare_label(c)]  # "Support:" is not shown
    assert page.locator("#answer li.claim").count() == len(shown)
    assert page.is_hidden("#answer-status")  # no quick answer ran
    cards.nth(0).scroll_into_view_if_needed()
    keep_screenshot(page, tmp_path, "medrag.png")
    # replayed from the session list, the debate reads its options from its stored request
    page.evaluate("document.querySelector('#answer').replaceChildren()")
    page.locator("#sessions li button", has_text="medrag:").first.click()
    page.wait_for_selector(f"#answer .verdict-line:has-text('{OPTIONS[verdict['answer']]}')")
    assert page.locator("#moves .move-answer").count() == turns


def test_hierarchical_debate_draws_its_sub_question_tree(
    page: Any, tree_live: LiveServer, corpus_a: dict[str, Any], tmp_path: Path
) -> None:
    case_id = run_debate(page, "hierarchical")
    sent = [e["data"]["nodes"] for e in events(tree_live, case_id) if e["event"] == "nodes"]
    assert sent, "the run streamed no tree"
    nodes = sent[-1]
    tree = page.locator("#tree-view ul.tree")
    assert tree.locator("li[data-node]").count() == len(nodes) == len(SUBQUESTIONS) + 1
    for node_id, node in nodes.items():
        item = tree.locator(f"li[data-node='{node_id}']")
        assert node["question"] in item.locator(":scope > .node .node-q").inner_text()
        for child in node["children"]:  # drawn under its parent
            assert item.locator(f":scope > ul > li[data-node='{child}']").count() == 1
    # when the run ends every node carries its status and answer from the finished tree
    with tree_live.client(KEY_A) as client:
        finished = client.get(f"/sessions/{case_id}").json()["result"]["tree"]
    for node in finished:
        item = tree.locator(f"li[data-node='{node['id']}']")
        page.wait_for_function(
            "([id, s]) => document.querySelector(`#tree-view li[data-node='${id}']`)"
            "?.dataset.status === s",
            arg=[node["id"], node["status"]],
        )
        assert item.locator(":scope > .node .node-answer").count() == 1
    # each move names its node, whose question is its title
    for card in page.locator("#moves .move[data-node]").all():
        node_id = card.get_attribute("data-node") or ""
        assert nodes[node_id]["question"] in (card.get_attribute("title") or "")
    assert page.evaluate(OVERFLOW, "#live, #tree-view, #tree-view *") == []
    keep_screenshot(page, tmp_path, "hierarchical.png")
    # the source dialog: the file name, wrapped in a narrow window, never a server path
    page.set_viewport_size({"width": 420, "height": 900})
    page.locator("#citations .cite").first.click()
    page.wait_for_selector("#source[open]")
    page.wait_for_function("!document.querySelector('#source-meta').textContent.includes('…')")
    section_id = page.locator("#citations .cite").first.get_attribute("data-cite")
    with tree_live.client(KEY_A) as client:
        section = client.get(f"/sections/{section_id}").json()
    uri = section.get("source_uri") or ""
    name = section.get("file_name") or Path(uri).name
    server_dir = str(Path(uri).parent) + "/" if "/" in uri else "uploads/"
    assert name
    for opened in ("section", "document"):
        meta = page.inner_text("#source-meta")
        assert name in meta and server_dir not in meta and "uploads/" not in meta, (opened, meta)
        assert page.evaluate(OVERFLOW, "#source, #source *:not(#source-text)") == []
        if opened == "section":
            page.click("#source-doc")
            page.wait_for_function("document.querySelector('#source-doc').hidden")


def test_quick_answer_status_has_its_own_badge(
    page: Any, tree_live: LiveServer, corpus_a: dict[str, Any]
) -> None:
    page.fill("#question", "How is brucellosis diagnosed?")
    page.click("#quick")
    page.wait_for_selector("#answer-status:has-text('done')", timeout=60_000)
    assert page.inner_text("#status") == "idle"  # the debate's badge is not the answer's
    assert page.locator("#moves .move").count() == 0
    # a debate started afterwards hides the quick answer's badge again
    run_debate(page, "hierarchical")
    assert page.is_hidden("#answer-status")
