"""Calibration learning: α and β by Brier score, by hand and as properties."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from disputatio.argumentation import (
    EvidenceItem,
    LabelledCase,
    evaluate,
    fit_alpha_beta,
    leave_one_out,
)

FAST = settings(max_examples=40, deadline=None, database=None)


def test_evaluate_by_hand() -> None:
    # priors 1/2, one item LR 3 on the gold: posterior (3/4, 1/4); Brier (1/4)² + (1/4)² = 1/8
    case = LabelledCase(
        "c", {"a": 0.5, "b": 0.5}, [EvidenceItem("e", math.log(3), 1.0, 1, "a")], "a"
    )
    fit = evaluate([case])
    assert fit.brier == pytest.approx(0.125)
    assert fit.ece == pytest.approx(0.25) and fit.accuracy == 1.0
    # β = 0.5 with α = 1: the LR becomes 3^0.5; posterior √3/(1+√3)
    p = math.sqrt(3) / (1 + math.sqrt(3))
    assert evaluate([case], 1.0, {"default": 0.5}).brier == pytest.approx(2 * (1 - p) ** 2)
    with pytest.raises(ValueError):
        LabelledCase("x", {"a": 1.0}, [], "z")


def _cases() -> list[LabelledCase]:
    """Group 'sound' points at the gold, group 'noisy' at the wrong hypothesis half the time."""
    cases = []
    for k in range(6):
        gold, other = ("a", "b") if k % 2 else ("b", "a")
        wrong = other if k < 4 else gold
        items = [
            EvidenceItem(f"s{k}", 1.0, 0.9, 1, gold),
            EvidenceItem(f"n{k}", 2.0, 0.9, 1, wrong),
        ]
        groups = {f"s{k}": "sound", f"n{k}": "noisy"}
        cases.append(LabelledCase(f"c{k}", {"a": 0.5, "b": 0.5}, items, gold, groups))
    return cases


def test_the_fit_learns_that_a_noisy_group_is_unreliable() -> None:
    cases = _cases()
    default = evaluate(cases)
    fit = fit_alpha_beta(cases)
    assert fit.betas["noisy"] < fit.betas["sound"]
    assert fit.brier < default.brier
    loo = leave_one_out(cases)
    assert loo.cases == 6 and 0.0 <= loo.brier <= 2.0


@FAST
@given(
    st.lists(
        st.tuples(
            st.floats(-3, 3), st.floats(0.05, 1), st.sampled_from("ab"), st.sampled_from(["g", "h"])
        ),
        min_size=1,
        max_size=4,
    ),
    st.sampled_from("ab"),
)
def test_the_fit_never_scores_worse_than_the_defaults(
    rows: list[tuple[float, float, str, str]], gold: str
) -> None:
    items = [
        EvidenceItem(f"e{i}", abs(llr), q, 1 if llr >= 0 else -1, h)
        for i, (llr, q, h, _) in enumerate(rows)
    ]
    groups = {f"e{i}": g for i, (*_, g) in enumerate(rows)}
    case = LabelledCase("c", {"a": 0.4, "b": 0.6}, items, gold, groups)
    assert fit_alpha_beta([case], sweeps=1).brier <= evaluate([case]).brier + 1e-12
