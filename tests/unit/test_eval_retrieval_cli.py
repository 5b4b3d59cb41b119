"""``disputatio eval retrieval --public/--no-public``: the public path's row, from the CLI.

The command runs in-process over an in-memory corpus: the stage evaluation (Postgres in real
runs) is replaced by one that ranks every question's documents in a fixed order, and the
default funnel the public path builds by a :class:`~disputatio.testing.FakeRetriever` that finds
the right document. So the public row can only score well if it scores what
``search(q, k=32)`` returned.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from typer.testing import CliRunner

from disputatio.cli.app import app
from disputatio.eval.retrieval import FUNNEL_STAGES
from disputatio.eval.retrieval_public import AFTER, BEFORE, PUBLIC_K
from disputatio.retrievers.funnel import FunnelConfig
from disputatio.state.retrieval import Section
from disputatio.testing import FakeRetriever

DOCS = {
    "volcano": "Basaltic lava from shield volcanoes flows far because of its low silica.",
    "insulin": "The pancreas secretes insulin from the beta cells of the islets.",
    "tides": "Ocean tides rise and fall because the Moon pulls the oceans.",
}
QUERIES = [
    {"id": "q1", "query": "Which organ secretes insulin", "relevant_ids": ["insulin"]},
    {"id": "q2", "query": "Why does basaltic lava flow far", "relevant_ids": ["volcano"]},
    {"id": "q3", "query": "What moves ocean tides", "relevant_ids": ["tides"]},
]
SECTIONS = [Section(id=f"sec-{name}", document_id=name, text=text) for name, text in DOCS.items()]


class _FixedOrderEvaluation:
    """Stands in for ``RetrievalEvaluation``: every stage ranks the documents as stored."""

    def __init__(self, settings: Any, filters: Any, options: Any = None) -> None:
        self.settings, self.filters, self.options = settings, filters, options
        self.config = FunnelConfig.from_settings(settings)
        self.labels = {f"uuid-{name}": name for name in DOCS}
        self.texts = dict(DOCS)

    def labels_of_sections(self, section_ids: Sequence[str]) -> dict[str, str]:
        return {i: i.removeprefix("sec-") for i in section_ids if i.startswith("sec-")}

    def run(self, queries: Sequence[str], tick: Any = None, phase: str = "") -> Any:
        fixed = [list(DOCS)] * len(queries)
        return SimpleNamespace(
            ranks={stage: fixed for stage in FUNNEL_STAGES},
            times={},
            failures={},
            best=[1.0] * len(queries),
        )


@pytest.fixture
def public_funnels(monkeypatch: pytest.MonkeyPatch) -> list[FakeRetriever]:
    """Patch the evaluation to run in memory; return the public funnels it builds."""
    built: list[FakeRetriever] = []

    def funnel(settings: Any, *, default_filters: Any = None, **_: Any) -> FakeRetriever:
        built.append(FakeRetriever(SECTIONS))
        return built[-1]

    monkeypatch.setattr("disputatio.eval.retrieval.RetrievalEvaluation", _FixedOrderEvaluation)
    monkeypatch.setattr("disputatio.retrievers.postgres.PostgresFunnel", funnel)
    return built


def _evaluate(tmp_path: Path, *flags: str) -> dict[str, Any]:
    queries = tmp_path / "queries.jsonl"
    queries.write_text("".join(json.dumps(q) + "\n" for q in QUERIES))
    out = tmp_path / "result.json"
    args = ["eval", "retrieval", "--queries", str(queries), "--no-ingest", "--no-baselines"]
    args += ["--no-rerank", "--off-topic", "0", "--out", str(out), *flags]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    return {"json": json.loads(out.read_text()), "md": out.with_suffix(".md").read_text()}


@pytest.mark.parametrize("flags", [("--public",), ()], ids=["--public", "default"])
def test_the_public_flag_adds_the_row_of_search_k32(
    tmp_path: Path, public_funnels: list[FakeRetriever], flags: tuple[str, ...]
) -> None:
    got = _evaluate(tmp_path, *flags)
    public = got["json"]["public"]
    assert set(public["rows"]) == {AFTER, BEFORE}
    assert f"public: {AFTER}" in got["md"]
    # each question went once through the public call, with k=32
    (funnel,) = public_funnels
    assert funnel.calls == [(q["query"], PUBLIC_K) for q in QUERIES]
    # the row scores what that call returned (the right document first), not a stage's ranking
    assert public["rows"][AFTER]["mrr"] == 1.0
    assert got["json"]["stages"]["fused"]["mrr"] < 1.0
    assert [q["returned"] for q in public["per_query"]] == [1, 1, 1]


def test_no_public_leaves_the_row_out(tmp_path: Path, public_funnels: list[FakeRetriever]) -> None:
    got = _evaluate(tmp_path, "--no-public")
    assert got["json"]["public"] == {}
    assert "public: " not in got["md"]
    assert public_funnels == []  # the public call was never made
