"""Value of information of diagnostic tests over a differential of hypotheses.

A test ``T`` has outcomes ``o`` with likelihoods ``P(o | H_j)``. Given the current distribution
``P(H)`` over mutually exclusive hypotheses, its expected information gain (in nats) is

    EIG(T) = H(P(H)) − Σ_o P(o) · H(P(H | o)),    P(o) = Σ_j P(o | H_j) P(H_j),

the mutual information between ``H`` and the outcome, hence ``≥ 0``. Its expected utility is

    U(T) = EIG(T) · value_per_nat − cost − risk_aversion · risk,

and tests whose risk exceeds a hard ``max_risk`` are never ranked. :func:`outcome_flips` says which
outcomes of a test would change the verdict. The rest of the "what would change our mind" analysis
(odds shift Δ, flips of candidate findings, minimal counter-evidence set) lives in
:mod:`disputatio.argumentation.sensitivity` and is re-exported here.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

from disputatio.argumentation.fusion import entropy_nats, softmax
from disputatio.argumentation.schema import Node, NodeKind
from disputatio.argumentation.sensitivity import (
    DEFAULT_TOL,
    CounterEvidenceSet,
    Verdict,
    flip_table,
    log_scores_from_probabilities,
    minimal_counter_evidence,
    odds_shift_to_flip,
    verdict,
    would_flip,
)

__all__ = [
    "CandidateTest",
    "CounterEvidenceSet",
    "PairShift",
    "RankedTest",
    "Verdict",
    "expected_information_gain",
    "expected_utility",
    "flip_table",
    "minimal_counter_evidence",
    "node_for_test",
    "odds_shift_to_flip",
    "outcome_flips",
    "outcome_probabilities",
    "pairwise_test_shifts",
    "posterior_given_outcome",
    "rank_tests",
    "verdict",
]

_TOL = 1e-9


@dataclass(frozen=True, eq=True)
class CandidateTest:
    """A test that could be run, with its outcome likelihoods under each hypothesis.

    Attributes:
        id: Unique identifier.
        likelihoods: ``{outcome: {hypothesis: P(outcome | hypothesis)}}``; for every hypothesis
            the probabilities over outcomes sum to 1.
        cost: Non-negative cost (in the same units as ``value_per_nat``).
        risk: Non-negative risk of harm.
        latency: Non-negative time to a result (informational).
        label: Human-readable name.
    """

    id: str
    likelihoods: Mapping[str, Mapping[str, float]] = field(hash=False)
    cost: float = 0.0
    risk: float = 0.0
    latency: float = 0.0
    label: str = ""

    def __post_init__(self) -> None:
        frozen = MappingProxyType(
            {o: MappingProxyType(dict(row)) for o, row in self.likelihoods.items()}
        )
        object.__setattr__(self, "likelihoods", frozen)
        if not frozen:
            raise ValueError(f"test {self.id!r} has no outcomes")
        hyps = set(next(iter(frozen.values())))
        for o, row in frozen.items():
            if set(row) != hyps:
                raise ValueError(f"test {self.id!r}: outcome {o!r} covers other hypotheses")
            if any(not 0.0 <= p <= 1.0 for p in row.values()):
                raise ValueError(f"test {self.id!r}: likelihoods must be in [0, 1]")
        for h in hyps:
            total = math.fsum(row[h] for row in frozen.values())
            if abs(total - 1.0) > 1e-6:
                raise ValueError(f"test {self.id!r}: P(outcome | {h!r}) sums to {total}, not 1")
        for name in ("cost", "risk", "latency"):
            value = getattr(self, name)
            if not (math.isfinite(value) and value >= 0.0):
                raise ValueError(f"test {self.id!r}: {name} must be finite and >= 0")

    @property
    def outcomes(self) -> tuple[str, ...]:
        """The outcomes, in definition order."""
        return tuple(self.likelihoods)

    @property
    def hypotheses(self) -> frozenset[str]:
        """The hypotheses the likelihoods are given for."""
        return frozenset(next(iter(self.likelihoods.values())))


def _check(prior: Mapping[str, float], test: CandidateTest) -> None:
    if set(prior) != test.hypotheses:
        raise ValueError(f"test {test.id!r} does not cover exactly the hypotheses of the prior")
    if any(p < 0 for p in prior.values()) or abs(math.fsum(prior.values()) - 1.0) > _TOL:
        raise ValueError("prior must be a probability distribution")


def outcome_probabilities(prior: Mapping[str, float], test: CandidateTest) -> dict[str, float]:
    """Return ``P(o) = Σ_j P(o | H_j) P(H_j)`` for each outcome of ``test``."""
    _check(prior, test)
    return {
        o: math.fsum(row[h] * p for h, p in prior.items()) for o, row in test.likelihoods.items()
    }


def posterior_given_outcome(
    prior: Mapping[str, float], test: CandidateTest, outcome: str
) -> dict[str, float]:
    """Return ``P(H_j | o) = P(o | H_j) P(H_j) / P(o)`` (Bayes' rule).

    Raises:
        ValueError: If the outcome is unknown or impossible under ``prior``.
    """
    _check(prior, test)
    if outcome not in test.likelihoods:
        raise ValueError(f"test {test.id!r} has no outcome {outcome!r}")
    row = test.likelihoods[outcome]
    joint = {h: row[h] * p for h, p in prior.items()}
    total = math.fsum(joint.values())
    if total <= 0.0:
        raise ValueError(f"outcome {outcome!r} of {test.id!r} has probability 0")
    return {h: v / total for h, v in joint.items()}


def expected_information_gain(prior: Mapping[str, float], test: CandidateTest) -> float:
    """Return ``EIG = H(prior) − Σ_o P(o) H(posterior | o)`` in nats.

    Outcomes of probability 0 are skipped. Rounding can make the difference a hair below 0;
    the result is clamped at 0, since mutual information is non-negative.
    """
    p_out = outcome_probabilities(prior, test)
    expected_posterior_entropy = math.fsum(
        p * entropy_nats(posterior_given_outcome(prior, test, o)) for o, p in p_out.items() if p > 0
    )
    return max(entropy_nats(prior) - expected_posterior_entropy, 0.0)


def node_for_test(test: CandidateTest, prior: Mapping[str, float]) -> Node:
    """The graph node of ``test``: its costs, and its expected information gain under ``prior``."""
    return Node(
        test.id,
        NodeKind.TEST,
        label=test.label,
        cost=test.cost,
        risk=test.risk,
        latency=test.latency,
        discriminative_power=expected_information_gain(prior, test),
    )


def expected_utility(
    prior: Mapping[str, float],
    test: CandidateTest,
    *,
    value_per_nat: float = 1.0,
    risk_aversion: float = 0.0,
) -> float:
    """Return ``EIG · value_per_nat − cost − risk_aversion · risk``."""
    eig = expected_information_gain(prior, test)
    return eig * value_per_nat - test.cost - risk_aversion * test.risk


@dataclass(frozen=True)
class RankedTest:
    """A test with its expected information gain and expected utility.

    Attributes:
        test: The test.
        eig: Expected information gain in nats.
        utility: Expected utility.
    """

    test: CandidateTest
    eig: float
    utility: float


def rank_tests(
    prior: Mapping[str, float],
    tests: Sequence[CandidateTest],
    *,
    value_per_nat: float = 1.0,
    risk_aversion: float = 0.0,
    max_risk: float | None = None,
) -> list[RankedTest]:
    """Rank the admissible tests by expected utility (highest first).

    Args:
        prior: Current distribution over the hypotheses.
        tests: Candidate tests.
        value_per_nat: Value of one nat of information, in cost units.
        risk_aversion: Cost units charged per unit of risk.
        max_risk: Hard constraint: tests with ``risk > max_risk`` are excluded.

    Returns:
        The admissible tests, by utility, then EIG (both descending), then id.
    """
    ranked = []
    for test in tests:
        if max_risk is not None and test.risk > max_risk:
            continue
        eig = expected_information_gain(prior, test)
        utility = eig * value_per_nat - test.cost - risk_aversion * test.risk
        ranked.append(RankedTest(test, eig, utility))
    ranked.sort(key=lambda r: (-r.utility, -r.eig, r.test.id))
    return ranked


def outcome_flips(
    prior: Mapping[str, float], test: CandidateTest, tol: float = DEFAULT_TOL
) -> dict[str, bool]:
    """Return, for each outcome of ``test``, whether observing it would flip the verdict.

    Observing ``o`` shifts each log-score by ``ln P(o | H_j)``; impossible outcomes never flip.
    """
    log_prior = log_scores_from_probabilities(prior)
    flips = {}
    for o, p in outcome_probabilities(prior, test).items():
        shift = log_scores_from_probabilities(test.likelihoods[o])
        flips[o] = p > 0.0 and would_flip(log_prior, shift, tol)
    return flips


@dataclass(frozen=True)
class PairShift:
    """What one outcome of one test does to the log-odds of a pair of hypotheses (seed §6).

    Attributes:
        leader: ``H_i``, the higher-ranked hypothesis of the pair.
        challenger: ``H_k``, the lower-ranked one.
        test: The test id.
        outcome: The outcome.
        delta: ``Δ_ik(T = o) = ln P(o | H_i) − ln P(o | H_k)`` (``−inf`` when ``o`` rules
            ``H_i`` out but not ``H_k``, ``+inf`` the other way round, 0 when impossible under
            both).
        log_odds: Current ``λ_i − λ_k ≥ 0``.
        after: ``log_odds + delta``: the log-odds after observing ``o``.
        reverses: True when ``after < −tol``: the outcome puts ``H_k`` above ``H_i``.
        probability: ``P(o)`` under the current differential.
    """

    leader: str
    challenger: str
    test: str
    outcome: str
    delta: float
    log_odds: float
    after: float
    reverses: bool
    probability: float


def _log(p: float) -> float:
    return math.log(p) if p > 0 else -math.inf


def pairwise_test_shifts(
    log_scores: Mapping[str, float],
    tests: Sequence[CandidateTest],
    *,
    top_n: int = 3,
    tol: float = DEFAULT_TOL,
) -> list[PairShift]:
    """Return ``Δ_ik(T = o)`` for every pair among the ``top_n`` hypotheses, test and outcome.

    Observing outcome ``o`` multiplies the odds of ``H_i`` against ``H_k`` by
    ``P(o | H_i) / P(o | H_k)`` (Bayes' rule), so the log-odds move by ``Δ_ik``; the pair
    reverses when ``λ_i − λ_k + Δ_ik < −tol``.

    Args:
        log_scores: Current log-scores of the differential.
        tests: Tests covering exactly the hypotheses of ``log_scores``.
        top_n: How many of the highest-scoring hypotheses form the pairs (``>= 2``).
        tol: Margin of a reversal.

    Returns:
        One :class:`PairShift` per (pair, test, outcome), pairs in rank order, then test order.

    Raises:
        ValueError: If ``top_n < 2`` or a test does not cover the hypotheses.
    """
    if top_n < 2:
        raise ValueError("top_n must be >= 2")
    ranked = sorted(log_scores, key=lambda h: (-log_scores[h], h))[:top_n]
    posterior = softmax(log_scores)
    rows: list[PairShift] = []
    for a, i in enumerate(ranked):
        for k in ranked[a + 1 :]:
            odds = log_scores[i] - log_scores[k]
            for test in tests:
                p_out = outcome_probabilities(posterior, test)
                for o, row in test.likelihoods.items():
                    li, lk = _log(row[i]), _log(row[k])
                    delta = 0.0 if li == lk == -math.inf else li - lk
                    after = odds + delta
                    rows.append(
                        PairShift(i, k, test.id, o, delta, odds, after, after < -tol, p_out[o])
                    )
    return rows
