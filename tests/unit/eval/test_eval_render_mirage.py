"""The MIRAGE table of the report (``disputatio.eval.render_mirage``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from disputatio.eval.analysis import analyse
from disputatio.eval.mirage import NAMES
from disputatio.eval.question import Question
from disputatio.eval.render import write_report
from disputatio.eval.render_mirage import PUBLISHED, mirage_table, table_tests
from disputatio.eval.results import ResultsLog, write_manifest
from disputatio.eval.stats import holm, wilson_interval

ABCD = {"A": "a", "B": "b", "C": "c", "D": "d"}
YN = {"yes": "yes", "no": "no"}


def rec(dataset: str, protocol: str, qid: str, answer: str, gold: str) -> dict[str, Any]:
    return {
        "dataset": dataset,
        "protocol": protocol,
        "question_id": qid,
        "answer": answer,
        "gold": gold,
        "correct": answer == gold,
        "options": YN if gold in YN else ABCD,
        "error": None,
        "wall_ms": 1000.0,
        "usage": {"baseline": {"role": "baseline", "calls": 1, "input_tokens": 9}},
    }


def outcomes(dataset: str, protocol: str, right: list[bool]) -> list[dict[str, Any]]:
    """One record per question: right or wrong as listed (gold ``A`` / ``yes``)."""
    gold = "yes" if dataset in ("mirage:pubmedqa", "mirage:bioasq") else "A"
    wrong = "no" if gold == "yes" else "B"
    return [
        rec(dataset, protocol, f"q{i}", gold if ok else wrong, gold) for i, ok in enumerate(right)
    ]


def cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def row(lines: list[str], label: str) -> list[str]:
    """The cells of the first table row whose first cell contains ``label`` (``""``: header)."""
    found = [
        x
        for x in lines
        if x.startswith("| ") and (label in cells(x)[0] if label else x.startswith("| | "))
    ]
    return cells(found[0])


def test_published_rows_average_to_the_papers_printed_average() -> None:
    # a transcription check: the five printed accuracies give the printed average
    for published in PUBLISHED:
        values = [published.accuracy[name] for name in NAMES]
        assert sum(values) / 5 == pytest.approx(published.average, abs=0.01), published


def test_each_cell_is_the_protocol_s_accuracy_and_wilson_interval_under_its_set() -> None:
    records = outcomes("mirage:mmlu", "cot", [True] * 7 + [False] * 3)
    records += outcomes("mirage:bioasq", "cot", [True] * 2 + [False] * 6)
    lines = mirage_table(analyse(records))
    header = row(lines, "")
    cells = dict(zip(header, row(lines, "**cot**"), strict=True))
    for column, (right, n) in {"MMLU-Med": (7, 10), "BioASQ-Y/N": (2, 8)}.items():
        low, high = wilson_interval(right, n)
        assert cells[column] == f"{100 * right / n:.1f} ({100 * low:.1f}–{100 * high:.1f}) n={n}"
    assert header[1:-1] == ["MMLU-Med", "BioASQ-Y/N"]  # MIRAGE's order, only the sets run
    assert cells["avg"] == "–"  # not all five sets


def test_avg_is_the_unweighted_mean_of_the_five_sets() -> None:
    shares = {name: i + 1 for i, name in enumerate(NAMES)}  # 1..5 right of 10
    records = [
        r
        for name, k in shares.items()
        for r in outcomes(name, "cot", [True] * k + [False] * (10 - k))
    ]
    cells = row(mirage_table(analyse(records)), "**cot**")
    assert cells[-1] == f"{100 * sum(k / 10 for k in shares.values()) / 5:.1f}"


def test_no_avg_while_one_set_s_draw_is_smaller() -> None:
    """A set with 1 question of 10 drawn so far is no result; a mean over it is none either."""
    records = [r for name in NAMES[:-1] for r in outcomes(name, "rag", [True] * 5 + [False] * 5)]
    records += outcomes(NAMES[-1], "rag", [True])
    assert row(mirage_table(analyse(records)), "**rag**")[-1] == "–"


def test_the_table_family_is_holm_adjusted_over_every_set() -> None:
    records = []
    for name in ("mirage:mmlu", "mirage:pubmedqa"):
        records += outcomes(name, "cot", [True] * 12)
        records += outcomes(name, "cot_logprob", [False] * 8 + [True] * 4)
        records += outcomes(name, "cot_calibrated", [False] * 2 + [True] * 10)
    analysis = analyse(records)
    tests = table_tests({n: analysis[n] for n in NAMES if n in analysis})
    assert len(tests) == 4  # two protocols against cot, two sets
    assert [t["holm_table"] for t in tests] == holm([t["mcnemar_p"] for t in tests])
    per_set = {
        (p["a"], p["b"], d): p["mcnemar_p_holm"] for d, a in analysis.items() for p in a["pairs"]
    }
    strongest = min(tests, key=lambda t: t["mcnemar_p"])
    # four tests in the family, not one set's: the adjustment is larger
    assert strongest["holm_table"] > per_set["cot", strongest["protocol"], strongest["dataset"]]
    lines = mirage_table(analysis)
    assert any(line.startswith("Paired tests of the table (4 tests") for line in lines)


def test_differences_read_other_minus_reference_whichever_way_the_pair_is_stored() -> None:
    pair = {"n": 10, "diff": 0.3, "diff_low": 0.1, "diff_high": 0.5, "mcnemar_p": 0.04}
    sets = {
        "mirage:mmlu": {
            "protocols": {"cot": {}, "rag": {}},
            "pairs": [{**pair, "a": "cot", "b": "rag", "only_a": 4, "only_b": 1}],
        },
        "mirage:medqa": {
            "protocols": {"cot": {}, "rag": {}},
            "pairs": [{**pair, "a": "rag", "b": "cot", "only_a": 4, "only_b": 1}],
        },
    }
    first, second = table_tests(sets)
    assert (first["diff"], first["low"], first["high"]) == (-0.3, -0.5, -0.1)
    assert (first["only_ref"], first["only_other"]) == (4, 1)
    assert (second["diff"], second["low"], second["high"]) == (0.3, 0.1, 0.5)
    assert (second["only_ref"], second["only_other"]) == (1, 4)
    assert all(t["reference"] == "cot" and t["protocol"] == "rag" for t in (first, second))


def test_balanced_accuracy_is_tabled_for_the_yes_no_sets_only() -> None:
    records = outcomes("mirage:mmlu", "cot", [True, False])
    golds = ["yes", "yes", "yes", "no"]
    records += [rec("mirage:bioasq", "cot", f"q{i}", "yes", g) for i, g in enumerate(golds)]
    lines = mirage_table(analyse(records))
    start = next(i for i, x in enumerate(lines) if x.startswith("Balanced accuracy"))
    table = lines[start:]
    assert row(table, "")[1:] == ["BioASQ-Y/N"]
    assert row(table, "**cot**")[1].startswith("50.0 (")  # always "yes": 1/2 whatever the golds


def test_baselines_come_from_the_calibration_split_when_given() -> None:
    records = outcomes("mirage:bioasq", "cot", [True, True, False])
    calib = [
        Question(id=f"c{i}", dataset="mirage:bioasq", question="?", options=YN, gold=g)
        for i, g in enumerate(["no", "no", "no", "yes"])
    ]
    lines = mirage_table(analyse(records, calibration={"mirage:bioasq": calib}))
    assert row(lines, "majority")[1] == "75.0 (`no`, calibration split, n=4)"
    assert row(lines, "chance")[1] == "50.0"


def test_no_mirage_set_no_table_and_calibration_records_stay_out() -> None:
    records = [
        rec("toy", "cot", "q1", "A", "A"),
        rec("mirage:bioasq@calibration", "cot", "q1", "yes", "yes"),
    ]
    assert mirage_table(analyse(records)) == []


def test_the_report_has_the_table_with_the_published_rows_labelled(tmp_path: Path) -> None:
    run = tmp_path / "run"
    write_manifest(run, {"model": "m", "corpus": "kb"}, {})
    log = ResultsLog(run / "results.jsonl")
    for record in outcomes("mirage:pubmedqa", "cot", [True, False, True]):
        log.append(record)
    text = write_report([run], tmp_path / "report")["markdown"].read_text()
    section = text.split("## MIRAGE table", 1)[1].split("\n## ", 1)[0]
    assert "| **cot** (this run) | 66.7 (" in section
    published = [x for x in section.splitlines() if "GPT-4" in x or "GPT-3.5" in x]
    assert len(published) == len(PUBLISHED)
    assert all("*another model's:*" in x for x in published)
