"""What would change our mind: Δ_ik(T) per test outcome and the minimal defeat set."""

from __future__ import annotations

import math
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from disputatio.argumentation import (
    CandidateTest,
    EvidenceItem,
    differential_log_scores,
    minimal_defeat_set,
    pairwise_test_shifts,
    posterior_given_outcome,
    softmax,
    would_flip,
)

FAST = settings(max_examples=150, deadline=None, database=None)


def test_pair_shift_by_hand() -> None:
    scores = {"a": math.log(0.6), "b": math.log(0.4)}
    t = CandidateTest("t", {"pos": {"a": 0.2, "b": 0.8}, "neg": {"a": 0.8, "b": 0.2}})
    rows = {r.outcome: r for r in pairwise_test_shifts(scores, [t])}
    pos = rows["pos"]
    assert (pos.leader, pos.challenger) == ("a", "b")
    assert pos.delta == pytest.approx(-math.log(4))  # ln(0.2 / 0.8)
    assert pos.log_odds == pytest.approx(math.log(1.5))
    assert pos.after == pytest.approx(math.log(1.5 / 4)) and pos.reverses
    assert pos.probability == pytest.approx(0.6 * 0.2 + 0.4 * 0.8)
    assert not rows["neg"].reverses and rows["neg"].delta == pytest.approx(math.log(4))


def test_an_outcome_that_rules_the_leader_out_reverses_with_infinite_delta() -> None:
    t = CandidateTest(
        "t", {"x": {"a": 0.0, "b": 0.5, "c": 0.0}, "y": {"a": 1.0, "b": 0.5, "c": 1.0}}
    )
    rows = pairwise_test_shifts({"a": 2.0, "b": 1.0, "c": 0.0}, [t], top_n=3)
    x_ab = next(r for r in rows if r.outcome == "x" and r.challenger == "b" and r.leader == "a")
    assert x_ab.delta == -math.inf and x_ab.reverses
    x_ac = next(r for r in rows if r.outcome == "x" and r.challenger == "c")
    assert x_ac.delta == 0.0  # impossible under both: no information about the pair
    assert len(rows) == 3 * 2  # pairs (a,b), (a,c), (b,c) × 2 outcomes
    with pytest.raises(ValueError):
        pairwise_test_shifts({"a": 0.0, "b": 0.0}, [t], top_n=1)


probs = st.floats(0.05, 0.95)


@FAST
@given(st.lists(st.floats(-3, 3), min_size=3, max_size=3), probs, probs, probs)
def test_delta_is_the_change_of_posterior_log_odds(
    raw: list[float], pa: float, pb: float, pc: float
) -> None:
    scores = dict(zip("abc", raw, strict=True))
    t = CandidateTest(
        "t", {"y": {"a": pa, "b": pb, "c": pc}, "n": {"a": 1 - pa, "b": 1 - pb, "c": 1 - pc}}
    )
    post = softmax(scores)
    for r in pairwise_test_shifts(scores, [t]):
        after = posterior_given_outcome(post, t, r.outcome)
        assert r.after == pytest.approx(math.log(after[r.leader] / after[r.challenger]), abs=1e-9)
        assert r.reverses == (after[r.challenger] > after[r.leader] * math.exp(1e-9))


def test_defeat_set_by_hand() -> None:
    # a: e1 (+2), e2 (+1); b: e3 (+2.5); equal priors: margin = 3 − 2.5 = 0.5
    items = [
        EvidenceItem("e1", 2.0, 1.0, 1, "a"),
        EvidenceItem("e2", 1.0, 1.0, 1, "a"),
        EvidenceItem("e3", 2.5, 1.0, 1, "b"),
    ]
    scores = differential_log_scores({"a": 0.5, "b": 0.5}, items)
    found = minimal_defeat_set(scores, items)
    # defeating e1 alone (gain 2 > 0.5) flips; the greedy takes the largest gain first
    assert found is not None and found.ids == ("e1",) and found.challenger == "b"
    assert minimal_defeat_set(scores, [items[2]]) is None  # defeating b's support never flips


item_st = st.builds(
    EvidenceItem,
    st.sampled_from(["e1", "e2", "e3", "e4"]),
    st.floats(0.1, 3),
    st.floats(0.1, 1),
    st.sampled_from([1, -1]),
    st.sampled_from("abc"),
)


@FAST
@given(st.lists(item_st, max_size=7))
def test_defeat_set_flips_and_nothing_smaller_does(items: list[EvidenceItem]) -> None:
    priors = {"a": 0.5, "b": 0.3, "c": 0.2}
    scores = differential_log_scores(priors, items)
    ids = sorted({i.id for i in items})

    def flips_without(gone: set[str]) -> bool:
        kept = differential_log_scores(priors, [i for i in items if i.id not in gone])
        shift = {h: kept[h] - scores[h] for h in scores}
        return would_flip(scores, shift)

    found = minimal_defeat_set(scores, items)
    sizes = [k for k in range(len(ids) + 1) for c in combinations(ids, k) if flips_without(set(c))]
    if found is None:
        assert not sizes
    else:
        assert flips_without(set(found.ids)) and len(found.ids) == min(sizes)
