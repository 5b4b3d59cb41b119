"""Label/posterior consistency regulariser and noisy-OR shifts: hand cases and properties."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from disputatio.argumentation import (
    Label,
    label_inconsistency,
    noisy_or_shift,
    regularised_posterior,
    softmax,
)

FAST = settings(max_examples=200, deadline=None, database=None)
IN, OUT, UNDEC = Label.IN, Label.OUT, Label.UNDEC


def test_regulariser_by_hand() -> None:
    # λ = (0, 0), a IN (cost 0), b OUT (cost 1), κ = ln 3: q* ∝ (1, 1/3) = (0.75, 0.25).
    q = regularised_posterior({"a": 0.0, "b": 0.0}, {"a": IN, "b": OUT}, math.log(3))
    assert q == pytest.approx({"a": 0.75, "b": 0.25})
    assert label_inconsistency({"a": 0.5, "b": 0.5}, {"a": IN, "b": OUT}) == 0.5
    assert label_inconsistency(q, {"a": IN, "b": OUT}) == pytest.approx(0.25)
    # an unlabelled hypothesis counts as UNDEC (cost 1/2)
    assert label_inconsistency({"a": 1.0}, {}) == 0.5
    with pytest.raises(ValueError):
        regularised_posterior({"a": 0.0}, {}, -1.0)


def test_noisy_or_by_hand() -> None:
    # prior 0.5, one supporter of strength 0.5: P+ = 1 − 0.5·0.5 = 0.75, shift = logit 0.75 = ln 3
    assert noisy_or_shift(0.5, [0.5]) == pytest.approx(math.log(3))
    # one attacker of strength 0.5: P− = 0.5·0.5 = 0.25, shift = −ln 3; both cancel
    assert noisy_or_shift(0.5, attackers=[0.5]) == pytest.approx(-math.log(3))
    assert noisy_or_shift(0.5, [0.5], [0.5]) == pytest.approx(0.0)
    assert noisy_or_shift(0.2) == 0.0
    assert noisy_or_shift(0.2, [0.0], [0.0]) == pytest.approx(0.0, abs=1e-12)
    assert math.isfinite(noisy_or_shift(0.3, [1.0]))
    with pytest.raises(ValueError):
        noisy_or_shift(0.5, [1.5])


labels_st = st.sampled_from([IN, OUT, UNDEC])
scores_st = st.floats(-8, 8)


@FAST
@given(
    st.lists(st.tuples(scores_st, labels_st), min_size=2, max_size=5),
    st.floats(0, 6),
    st.lists(st.floats(0.01, 1), min_size=5, max_size=5),
)
def test_regularised_posterior_minimises_kl_plus_penalty(
    rows: list[tuple[float, Label]], kappa: float, other: list[float]
) -> None:
    lam = {f"h{i}": s for i, (s, _) in enumerate(rows)}
    labels = {f"h{i}": lab for i, (_, lab) in enumerate(rows)}
    p = softmax(lam)
    q_star = regularised_posterior(lam, labels, kappa)

    def objective(q: dict[str, float]) -> float:
        kl = sum(v * (math.log(v) - math.log(p[h])) for h, v in q.items() if v > 0)
        return kl + kappa * label_inconsistency(q, labels)

    w = np.array(other[: len(lam)])
    q = dict(zip(lam, (w / w.sum()).tolist(), strict=True))
    assert objective(q_star) <= objective(q) + 1e-9
    # more strength never makes the posterior less consistent with the labels
    assert (
        label_inconsistency(regularised_posterior(lam, labels, kappa + 1), labels)
        <= label_inconsistency(q_star, labels) + 1e-12
    )
    # hypotheses with the same label keep their order
    for a in lam:
        for b in lam:
            if labels[a] == labels[b] and lam[a] > lam[b]:
                assert q_star[a] >= q_star[b]


@FAST
@given(
    st.floats(0.01, 0.99),
    st.lists(st.floats(0, 1), max_size=4),
    st.lists(st.floats(0, 1), max_size=4),
    st.floats(0, 1),
)
def test_noisy_or_shift_signs_and_monotonicity(
    prior: float, sup: list[float], att: list[float], extra: float
) -> None:
    assert noisy_or_shift(prior, sup) >= -1e-9
    assert noisy_or_shift(prior, attackers=att) <= 1e-9
    base = noisy_or_shift(prior, sup, att)
    assert noisy_or_shift(prior, [*sup, extra], att) >= base - 1e-9
    assert noisy_or_shift(prior, sup, [*att, extra]) <= base + 1e-9
