"""Per-dataset metrics and paired tests of ``analyse``, checked against hand counts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from disputatio.eval.analysis import analyse, change_category, question_metrics
from disputatio.eval.render import write_report
from disputatio.eval.results import ResultsLog, write_manifest

from .run_files import record, report_of


def rec(protocol: str, qid: str, answer: str | None, gold: str, **extra: Any) -> dict[str, Any]:
    """A toy record whose one debater made two calls (``extra`` adds or replaces keys)."""
    usage = {"a": {"role": "debater", "calls": 2, "input_tokens": 100, "output_tokens": 10}}
    return record(protocol, qid, answer, gold, **{"usage": usage, **extra})


def test_change_of_answer_follows_the_seed_definition() -> None:
    # final differs from EVERY initial answer
    assert change_category(["A", "B"], "B", "A") == "same"  # B was an initial answer
    assert change_category(["B", "C"], "A", "A") == "wrong_to_correct"
    assert change_category(["A", "B"], "C", "A") == "correct_to_wrong"
    assert change_category(["B", "B"], "C", "A") == "wrong_to_wrong"
    assert change_category([None, None], "A", "A") is None
    assert change_category(["A"], None, "A") is None


def test_question_metrics_count_tool_calls_citations_and_convergence() -> None:
    record = rec(
        "medrag",
        "q1",
        "A",
        "A",
        initial_answers=["B", "A"],
        rounds_run=2,
        agreement_round=2,
        answers_per_round=[{"round": 1}],
        log={
            "retrieval": [
                {"agent": "agent1", "query": "x", "ids": ["s1", "s2"]},
                {"agent": "agent2", "query": "x", "ids": ["s2"], "skipped": False},
                {"agent": "agent2", "skipped": True},
            ],
            "citations": [{"id": "s1"}, {"id": "s1"}, "s2"],
        },
    )
    m = question_metrics(record)
    assert (m["tool_calls"], m["sections_cited"], m["sections_retrieved"]) == (2, 2, 2)
    assert (m["converged"], m["rounds"], m["change"], m["calls"]) == (True, 2, "same", 2)


def test_accuracy_interval_baseline_and_paired_tests_by_hand() -> None:
    golds = ["A", "A", "B", "A", "A", "A"]
    # cot right on q0..q4 except q1; rag right only on q0
    cot = ["A", "C", "B", "A", "A", "C"]
    rag = ["A", "C", "C", "C", "C", "C"]
    records = [rec("cot", f"q{i}", a, g) for i, (a, g) in enumerate(zip(cot, golds, strict=True))]
    records += [rec("rag", f"q{i}", a, g) for i, (a, g) in enumerate(zip(rag, golds, strict=True))]
    records.append({**rec("rag", "q9", "A", "A"), "error": "boom"})  # errors never count
    out = analyse(records)["toy"]
    assert out["questions"] == 6
    assert out["baseline"] == {"label": "A", "accuracy": pytest.approx(5 / 6)}
    s = out["protocols"]["cot"]
    assert (s["n"], s["correct"], s["accuracy"]) == (6, 4, pytest.approx(4 / 6))
    assert s["ci_low"] < 4 / 6 < s["ci_high"]
    assert s["calls_per_q"] == 2 and s["wall_p50_s"] == 1.0
    assert s["tokens_by_role"] == {
        "debater": {"calls": 2.0, "input_tokens": 100.0, "output_tokens": 10.0}
    }
    (pair,) = out["pairs"]
    # cot-only right: q2, q3, q4 (b=3); rag-only right: none (c=0): p = 2/2^3 = 0.25
    assert (pair["a"], pair["b"], pair["only_a"], pair["only_b"]) == ("cot", "rag", 3, 0)
    assert pair["mcnemar_p"] == pytest.approx(0.25)
    assert pair["diff"] == pytest.approx(3 / 6)


def test_report_writes_markdown_and_plots(tmp_path: Path) -> None:
    run = tmp_path / "run-1"
    write_manifest(run, {"model": "m", "corpus": "oracle"}, {"datasets": ["toy"]})
    log = ResultsLog(run / "results.jsonl")
    for i, answer in enumerate("AABA"):
        log.append(rec("cot", f"q{i}", answer, "A"))
        log.append(rec("medrag", f"q{i}", "A", "A", initial_answers=["B", "A"]))
    paths = write_report([run], tmp_path / "report")
    text = paths["markdown"].read_text()
    assert "## toy (4 questions)" in text and "| cot | 4 | 0.750 |" in text
    assert "Majority-class baseline: always `A` = 1.000" in text
    assert "| cot | medrag | 4 |" in text and "**Oracle setting** (`run-1`)" in text
    for name in ("accuracy", "accuracy_vs_tokens"):
        assert paths[name].stat().st_size > 1000


def test_each_accuracy_bar_is_labelled_with_its_number_of_questions(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A run mixes protocols answered on 4 and on 2 questions: each bar says which."""
    import matplotlib.pyplot as plt

    from disputatio.eval.render import plot

    records = [rec("cot", f"q{i}", "A", "A") for i in range(4)]
    records += [rec("hier", f"q{i}", "A", "A") for i in range(2)]
    figures = []
    monkeypatch.setattr(plt, "close", figures.append)
    plot(analyse(records), tmp_path)
    bars = figures[0].axes[0]
    assert sorted(t.get_text() for t in bars.texts) == ["n=2", "n=4"]


def test_the_report_reads_a_run_being_written_without_touching_it(tmp_path: Path) -> None:
    """``eval report`` on a live run: the line being appended is left out, never cut."""
    run = tmp_path / "live"
    write_manifest(run, {"model": "m", "corpus": "kb"}, {"datasets": ["toy"]})
    log = ResultsLog(run / "results.jsonl")
    log.append(rec("cot", "q0", "A", "A", note="line\u2028separator inside a string"))
    log.append(rec("cot", "q1", "B", "A"))
    path = run / "results.jsonl"
    with path.open("a", encoding="utf-8") as fh:
        fh.write('{"dataset": "toy", "protocol": "cot", "question_id": "q2", "ans')
    before = path.read_bytes()
    paths = write_report([run], tmp_path / "report")
    assert path.read_bytes() == before  # the writer's half line is still there, uncut
    assert "| cot | 2 | 0.500 |" in paths["markdown"].read_text()
    assert sorted(p.name for p in run.iterdir()) == ["manifest.json", "results.jsonl"]
    assert "**Oracle setting**" not in paths["markdown"].read_text()  # corpus kb


def test_each_protocol_gets_the_majority_baseline_of_its_own_questions(tmp_path: Path) -> None:
    # golds A, A, B, A: always-A = 3/4 on all four; a protocol run on q0, q1 only: 2/2
    golds = ["A", "A", "B", "A"]
    records = [rec("cot", f"q{i}", "B", g) for i, g in enumerate(golds)]
    records += [rec("hier", f"q{i}", "B", g) for i, g in enumerate(golds[:2])]
    out = analyse(records)["toy"]
    assert out["baseline"] == {"label": "A", "accuracy": pytest.approx(3 / 4)}
    assert out["protocols"]["cot"]["majority"] == pytest.approx(3 / 4)
    assert out["protocols"]["hier"]["majority"] == pytest.approx(1.0)
    text = report_of(tmp_path, records)
    (row,) = [line for line in text.splitlines() if line.startswith("| hier | 2 |")]
    assert row.split(" | ")[4] == "1.000"  # protocol, n, accuracy, CI, always A


def test_the_report_states_each_run_s_records_and_wall_time(tmp_path: Path) -> None:
    from disputatio.eval.render import record_totals

    half_hour = 1_800_000.0
    totals = record_totals(
        [
            {"wall_ms": half_hour, "finished_at": "2026-01-01T10:00:00"},
            {"wall_ms": half_hour, "finished_at": "2026-01-01T09:00:00", "error": "boom"},
            {"wall_ms": None},
        ]
    )
    assert totals == {
        "records": 3,
        "errors": 1,
        "wall_h": pytest.approx(1.0),
        "first": "2026-01-01T09:00:00",
        "last": "2026-01-01T10:00:00",
    }
    run = tmp_path / "run"
    write_manifest(run, {"model": "m", "corpus": "kb"}, {})
    ResultsLog(run / "results.jsonl").append({**rec("cot", "q0", "A", "A"), "wall_ms": half_hour})
    text = write_report([run], tmp_path / "report")["markdown"].read_text()
    assert "1 records (0 failed" in text and "summed: 0.50 h" in text


def test_protocols_read_baselines_first_then_debates_then_ablations(tmp_path: Path) -> None:
    names = ["hier_flat", "medrag", "sc_rag", "cot", "hier", "rag"]
    records = [rec(p, "q0", "A", "A") for p in names]
    out = analyse(records)["toy"]
    assert list(out["protocols"]) == ["cot", "rag", "sc_rag", "medrag", "hier", "hier_flat"]
    assert (out["pairs"][0]["a"], out["pairs"][0]["b"]) == ("cot", "rag")
    empty = tmp_path / "empty"
    write_manifest(empty, {"model": "m", "corpus": "kb"}, {})
    text = write_report([empty], tmp_path / "report")["markdown"].read_text()
    assert "No finished records yet" in text


def _hier(qid: str, answer: str | None, gold: str, first: list[tuple[str, str]]) -> dict[str, Any]:
    """A hierarchical record whose root's round-0 answers were ``first`` (persona, answer)."""
    moves = [{"node": "root", "kind": "plan", "round": 0, "role": "orchestrator"}]
    moves += [{"node": "root", "kind": "answer", "round": 0, "role": r} for r, _ in first]
    moves += [{"node": "root", "kind": "answer", "round": 1, "role": r} for r, _ in first]
    return rec(
        "hier",
        qid,
        answer,
        gold,
        initial_answers=[a for _, a in first],
        answers_per_round=[],
        log={"transcript": moves},
        options=["yes", "no"],
    )


def test_the_answers_given_show_a_persona_that_always_says_the_same() -> None:
    records = [
        _hier("q0", "no", "yes", [("synthesizer", "yes"), ("devil", "no")]),
        _hier("q1", "no", "yes", [("synthesizer", "no"), ("devil", "no")]),
        _hier("q2", None, "no", [("synthesizer", "yes"), ("devil", "no")]),
        _hier("q3", "yes", "yes", []),  # decomposed: its agents answered sub-questions
    ]
    first_round = {"answers": {"a1": "yes", "a2": None}}
    records.append(rec("medrag", "q0", "yes", "yes", answers_per_round=[first_round]))
    out = analyse(records)["toy"]["protocols"]
    hier = out["hier"]
    assert hier["answers"] == {"no": 2, "(none)": 1, "yes": 1}
    assert hier["gold_answers"] == {"yes": 3, "no": 1}
    assert hier["balanced_accuracy"] == pytest.approx((1 / 3 + 0) / 2)  # q3 right; q2 unanswered
    assert hier["first_answers_by_role"] == {
        "devil": {"no": 3},
        "synthesizer": {"yes": 2, "no": 1},
    }
    assert out["medrag"]["first_answers_by_role"] == {"a1": {"yes": 1}, "a2": {"(none)": 1}}


def test_the_report_lists_the_answers_given(tmp_path: Path) -> None:
    records = [
        _hier("q0", "no", "yes", [("synthesizer", "yes"), ("devil", "no")]),
        _hier("q1", "no", "no", [("synthesizer", "no"), ("devil", "no")]),
        rec("cot", "q0", "yes", "yes"),
    ]
    text = report_of(tmp_path, records)
    assert "- cot: yes 1 (gold: yes 1); balanced accuracy –\n" in text  # no options: numeric
    assert (
        "- hier: no 2 (gold: no 1, yes 1); balanced accuracy 0.500; "
        "first answers: devil no 2; synthesizer no 1, yes 1"
    ) in text


def test_a_resumed_question_is_left_out_of_latency_and_named(tmp_path: Path) -> None:
    """Only its resumed tail was timed: counting it would pull p50/p95 down."""
    records = [rec("hier", f"q{i}", "A", "A", wall_ms=1000.0 * (i + 1)) for i in range(3)]
    records.append(rec("hier", "q3", "A", "A", wall_ms=5.0, resumed=True))
    s = analyse(records)["toy"]["protocols"]["hier"]
    assert (s["n"], s["resumed"], s["wall_p50_s"]) == (4, 1, pytest.approx(2.0))
    text = report_of(tmp_path, records)
    assert (
        "Left out of p50/p95 (resumed after a kill: only the resumed part was timed): hier 1."
        in text
    )


def test_the_report_opens_with_one_summary_row_per_data_set_and_protocol(tmp_path: Path) -> None:
    records = [rec("cot", f"q{i}", answer, "A") for i, answer in enumerate("AAB")]
    records.append({**rec("rag", "q0", "A", "A"), "dataset": "other"})
    text = report_of(tmp_path, records)
    summary = text.split("## Summary", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in summary.splitlines() if line.startswith("| ") and "---" not in line]
    assert [row.split(" | ")[:3] for row in rows[1:]] == [
        ["| other", "rag", "1"],
        ["| toy", "cot", "3"],
    ]
    # cot: 2 of 3 right; majority A on its questions = 1.0; 2 calls and 110 tokens a question
    assert rows[2].split(" | ")[3].startswith("0.667 (")
    assert rows[2].split(" | ")[4:8] == ["1.000", "–", "2.0", "110"]
    assert text.index("## Summary") < text.index("## toy")


def test_hierarchical_plans_are_counted_decomposed_and_debated(tmp_path: Path) -> None:
    flat = {"tree": [{"id": "root"}]}
    split = {"tree": [{"id": "root"}, {"id": "1"}, {"id": "2"}, {"id": "3"}]}
    records = [
        rec("hier", "q0", "A", "A", log=flat, debated_leaves=1),
        rec("hier", "q1", "A", "A", log=split, debated_leaves=0),
        rec("hier", "q2", "A", "A", log={**split, "tree": split["tree"][:2]}, debated_leaves=2),
        rec("cot", "q0", "A", "A"),
    ]
    out = analyse(records)["toy"]["protocols"]
    assert out["cot"]["decomposed"] is None
    assert out["hier"]["decomposed"] == {
        "questions": 3,
        "decomposed": 2,
        "sub_questions_mean": pytest.approx(2.0),  # 3 and 1
        "with_debate": 2,
    }
    text = report_of(tmp_path, records)
    assert (
        "- hier: 2 of 3 questions decomposed (2.0 sub-questions on average); 2 with a debated leaf"
        in text
    )


def test_the_report_states_how_much_gold_evidence_the_search_found(tmp_path: Path) -> None:
    """#26: the evidence-found setting is reported with the gold recall@k of its records."""

    def found(qid: str, recall: float) -> dict[str, Any]:
        return rec("rag_found", qid, "yes", "yes", evidence={"k": 8, "recall_at_k": recall})

    records = [found("q0", 0.0), found("q1", 0.5), found("q2", 1.0), rec("cot", "q0", "yes", "yes")]
    text = report_of(tmp_path, records)
    assert (
        "- rag_found: recall@8 mean 0.500 over 3 questions; at least one gold snippet found "
        "for 2, all for 1"
    ) in text
    assert "- cot: recall" not in text
