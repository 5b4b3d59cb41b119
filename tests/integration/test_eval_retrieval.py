"""``disputatio eval retrieval`` end to end on a tiny labelled corpus (real Postgres and models)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from disputatio.settings import Settings

pytestmark = pytest.mark.integration

DOCS = {
    "volcano": "Basaltic lava from shield volcanoes flows far because its low silica content"
    " keeps its viscosity low; Mauna Loa in Hawaii is the classic example.",
    "insulin": "The pancreas secretes insulin from the beta cells of the islets of Langerhans;"
    " insulin lowers blood glucose by driving its uptake into muscle and fat.",
    "violin": "Antonio Stradivari built violins in Cremona; their spruce tops and maple backs"
    " are varnished, and the bridge carries the strings' vibration to the body.",
    "tides": "Ocean tides rise and fall twice a day because the Moon's gravity pulls the"
    " oceans into two bulges while the Earth rotates beneath them.",
}
QUERIES = [
    {"id": "q1", "query": "Which organ secretes insulin?", "relevant_ids": ["insulin.txt"]},
    {"id": "q2", "query": "Why does basaltic lava flow so far?", "relevant_ids": ["volcano"]},
    {"id": "q3", "query": "What causes ocean tides?", "relevant_ids": ["tides"]},
]


def _cli(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "disputatio", "eval", "retrieval", *args],
        capture_output=True,
        text=True,
        env={**os.environ, "DISPUTATIO_HOME": str(home)},
        timeout=600,
    )


@pytest.fixture(scope="module")
def labelled(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A folder of four one-topic files and a JSONL of questions about three of them."""
    root = tmp_path_factory.mktemp("labelled")
    corpus = root / "corpus"
    corpus.mkdir()
    for name, text in DOCS.items():
        (corpus / f"{name}.txt").write_text(text + "\n")
    queries = root / "queries.jsonl"
    queries.write_text("".join(json.dumps(q) + "\n" for q in QUERIES))
    return corpus, queries


def test_eval_retrieval_on_a_labelled_jsonl(
    settings: Settings, db_url: str, labelled: tuple[Path, Path], tmp_path: Path
) -> None:
    pytest.importorskip("bm25s")
    corpus, queries = labelled
    out = tmp_path / "result.json"
    args = ["--queries", str(queries), "--corpus", str(corpus), "--tenant", "evalret"]
    proc = _cli(settings.home, *args, "--off-topic", "0", "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    result = json.loads(out.read_text())
    assert result["documents"] == len(DOCS) and result["questions"] == len(QUERIES)
    assert result["relevant_missing"] == 0  # "insulin.txt" and "volcano" both name stored files
    assert set(result["stages"]) == {"lexical", "semantic", "graph", "fused", "reranked"}
    for row in result["stages"].values():
        assert row["n"] == len(QUERIES) and row["p50_ms"] is not None
    # one document per topic: the embedding channel and the peers rank the right one first
    assert result["stages"]["semantic"]["mrr"] == 1.0
    assert result["stages"]["reranked"]["recall@10"] == 1.0
    assert result["peers"]["cosine"]["mrr"] == 1.0
    assert result["peers"]["bm25s"]["mrr"] == 1.0
    assert result["refusal"]["on_topic"]["n"] == len(QUERIES)
    assert "| funnel: fused |" in out.with_suffix(".md").read_text()
    assert "funnel: semantic" in proc.stdout

    # a second run finds the corpus ingested (idempotent) and scores the same
    again = _cli(settings.home, *args, "--off-topic", "0", "--no-baselines", "--out", str(out))
    assert again.returncode == 0, again.stderr
    second = json.loads(out.read_text())
    assert second["documents"] == len(DOCS) and second["peers"] == {}
    assert second["stages"]["semantic"]["mrr"] == result["stages"]["semantic"]["mrr"]


def test_labels_that_name_no_document_are_a_one_line_error(
    settings: Settings, db_url: str, labelled: tuple[Path, Path], tmp_path: Path
) -> None:
    corpus, _ = labelled
    wrong = tmp_path / "wrong.jsonl"
    wrong.write_text(json.dumps({"query": "insulin?", "relevant_ids": ["nope"]}) + "\n")
    proc = _cli(
        settings.home, "--queries", str(wrong), "--corpus", str(corpus), "--tenant", "evalret",
        "--off-topic", "0", "--no-baselines", "--no-rerank",
    )  # fmt: skip
    assert proc.returncode != 0
    lines = [ln for ln in proc.stderr.splitlines() if ln.strip() and "━" not in ln]
    assert lines[-1].startswith("error:") and "no relevant id" in lines[-1]
    assert "Traceback" not in proc.stderr
