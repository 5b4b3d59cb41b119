"""Comparable results: Holm-adjusted paired tests, calibration baselines, balanced-accuracy
intervals and per-bar baselines in the plots."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from disputatio.eval import mirage
from disputatio.eval.analysis import analyse
from disputatio.eval.stats import (
    balanced_accuracy,
    balanced_accuracy_interval,
    chance_accuracy,
    holm,
)

from .run_files import record as rec
from .run_files import report_of

YES_NO = ["yes", "no"]


def test_holm_on_a_known_example() -> None:
    assert holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    assert holm([0.5, 0.2]) == pytest.approx([0.5, 0.4])
    assert holm([0.3, 0.2, 0.1]) == pytest.approx([0.4, 0.4, 0.3])  # never below a smaller p's
    assert holm([0.6, 0.6]) == [1.0, 1.0]  # capped at 1
    assert holm([]) == []


def test_chance_is_the_mean_of_one_over_the_options() -> None:
    assert chance_accuracy([4, 4]) == pytest.approx(0.25)
    assert chance_accuracy([2, 3]) == pytest.approx((1 / 2 + 1 / 3) / 2)
    assert chance_accuracy([0, 0]) is None  # numeric answers have no options


@pytest.mark.parametrize(
    ("correct", "golds"),
    [
        ([True] * 30 + [False] * 10 + [True] * 5 + [False] * 15, ["yes"] * 40 + ["no"] * 20),
        ([True] * 9 + [False], ["yes"] * 9 + ["no"]),
        ([True, False, True], ["yes", "no", "maybe"]),
        ([True] * 8, ["yes"] * 5 + ["no"] * 3),
    ],
)
def test_the_balanced_accuracy_interval_contains_its_estimate(
    correct: list[bool], golds: list[str]
) -> None:
    point = balanced_accuracy(correct, golds)
    interval = balanced_accuracy_interval(correct, golds, seed=1)
    assert point is not None and interval is not None
    low, high = interval
    assert 0.0 <= low <= point <= high <= 1.0
    assert interval == balanced_accuracy_interval(correct, golds, seed=1)  # seeded
    assert balanced_accuracy_interval([], []) is None


def test_a_wider_sample_gives_a_narrower_balanced_interval() -> None:
    small = balanced_accuracy_interval([True, True, False, False] * 5, ["yes", "no"] * 10)
    large = balanced_accuracy_interval([True, True, False, False] * 100, ["yes", "no"] * 200)
    assert small is not None and large is not None
    assert large[1] - large[0] < small[1] - small[0]


def three_protocols() -> list[dict[str, Any]]:
    """cot right on all 10; rag on q0-q4; sc on q0-q7 (every gold A).

    McNemar: cot-rag b=5, c=0: p = 2/2^5 = 0.0625; cot-sc b=2, c=0: p = 0.5; rag-sc b=0, c=3:
    p = 0.25. Holm: 0.0625·3 = 0.1875; 0.25·2 = 0.5; max(0.5·1, 0.5) = 0.5.
    """
    records = []
    for i in range(10):
        records.append(rec("cot", f"q{i}", "A", "A"))
        records.append(rec("rag", f"q{i}", "A" if i < 5 else "B", "A"))
        records.append(rec("sc", f"q{i}", "A" if i < 8 else "B", "A"))
    return records


def test_paired_tests_carry_holm_adjusted_p_values() -> None:
    pairs = {(p["a"], p["b"]): p for p in analyse(three_protocols())["toy"]["pairs"]}
    raw = {k: p["mcnemar_p"] for k, p in pairs.items()}
    adjusted = {k: p["mcnemar_p_holm"] for k, p in pairs.items()}
    assert raw == pytest.approx({("cot", "rag"): 0.0625, ("cot", "sc"): 0.5, ("rag", "sc"): 0.25})
    assert adjusted == pytest.approx(
        {("cot", "rag"): 0.1875, ("cot", "sc"): 0.5, ("rag", "sc"): 0.5}
    )


def test_the_report_shows_raw_and_holm_adjusted_mcnemar_p(tmp_path: Path) -> None:
    text = report_of(tmp_path, three_protocols())
    header = next(line for line in text.splitlines() if line.startswith("| A | B |"))
    cells = [c.strip() for c in header.strip("|").split("|")]
    raw_at, holm_at = cells.index("McNemar p"), cells.index("Holm p")
    assert "adjusted for the 3 tests of this table" in text
    rows = {
        tuple(c.strip() for c in line.strip("|").split("|")[:2]): line
        for line in text.splitlines()
        if line.startswith(("| cot | rag |", "| cot | sc |", "| rag | sc |"))
    }
    expected = {("cot", "rag"): (0.0625, 0.1875), ("rag", "sc"): (0.25, 0.5)}
    for key, (raw, adjusted) in expected.items():
        row = [c.strip() for c in rows[key].strip("|").split("|")]
        assert float(row[raw_at]) == pytest.approx(raw, abs=1e-3)
        assert float(row[holm_at]) == pytest.approx(adjusted, abs=1e-3)


def test_a_mirage_baseline_comes_from_the_calibration_split_not_the_test_sample(
    tmp_path: Path,
) -> None:
    dataset = "mirage:bioasq"
    calib = mirage.calibration_questions(dataset)
    label, count = Counter(q.gold for q in calib).most_common(1)[0]
    other = "no" if label == "yes" else "yes"
    # three test questions whose gold is NOT the calibration majority
    test = [q for q in mirage.split_questions(dataset, "test") if q.gold == other][:3]
    records = [
        {**rec("cot", q.id, other, q.gold, options=YES_NO), "dataset": dataset} for q in test
    ]
    data = analyse(records, calibration={dataset: calib})[dataset]
    assert data["baseline"] == {"label": label, "accuracy": pytest.approx(count / len(calib))}
    assert data["reference"]["split"] == "calibration"
    assert data["reference"]["questions"] == len(calib)
    assert data["reference"]["chance"] == pytest.approx(0.5)
    assert data["protocols"]["cot"]["majority"] == 0.0  # the label on cot's own questions
    # without a calibration split the label is chosen on the questions evaluated
    assert analyse(records)[dataset]["baseline"]["label"] == other
    text = report_of(tmp_path, records)  # the report finds the split by the data set's name
    assert (
        f"Majority-class baseline: always `{label}` = {count / len(calib):.3f} on the "
        f"calibration split ({len(calib)} questions, never drawn for a test"
    ) in text
    assert "chance (a uniform guess) = 0.500" in text


def test_the_summary_shows_balanced_accuracy_with_its_interval_and_chance(tmp_path: Path) -> None:
    golds = ["yes"] * 6 + ["no"] * 4
    answers = ["yes"] * 10
    records = [
        rec("cot", f"q{i}", a, g, options=YES_NO)
        for i, (a, g) in enumerate(zip(answers, golds, strict=True))
    ]
    text = report_of(tmp_path, records)
    row = next(line for line in text.splitlines() if line.startswith("| toy | cot |"))
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert cells[5].startswith("0.500 (") and cells[-1] == "0.500"  # constant answer; chance


def test_each_bar_carries_the_majority_line_of_its_own_questions(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import matplotlib.pyplot as plt

    from disputatio.eval.plots import plot

    golds = ["A", "A", "B", "B"]  # majority A (first seen): cot 2 of 4, hier (q0, q1) 2 of 2
    options = {"A": "a", "B": "b", "C": "c", "D": "d"}
    records = [rec("cot", f"q{i}", "A", g, options=options) for i, g in enumerate(golds)]
    records += [rec("hier", f"q{i}", "A", g, options=options) for i, g in enumerate(golds[:2])]
    figures: list[Any] = []
    monkeypatch.setattr(plt, "close", figures.append)
    plot(analyse(records), tmp_path)
    bars = figures[0].axes[0]
    horizontal = sorted(
        (round(float(seg[0][1]), 3), round(float(seg[1][0] - seg[0][0]), 3))
        for collection in bars.collections
        for seg in collection.get_segments()
        if len(seg) == 2 and seg[0][1] == seg[1][1] and seg[0][0] != seg[1][0]
    )
    # one bar-wide line per bar (width 0.8 / 2 protocols) and one chance line across (0.8)
    assert horizontal == [(0.25, 0.8), (0.5, 0.4), (1.0, 0.4)]
