"""A worked case for the engine: the rare-disease differential of the project seed.

A patient with fever of unknown origin; the differential is brucellosis vs adult-onset Still's
disease (AOSD) vs Q fever. The numbers are illustrative, chosen so that every result can be
checked by hand (they are not clinical guidance). Likelihood ratios are measured against the
base rate of each finding in the fever-of-unknown-origin referral population, so the reference
cancels in the differential softmax (see :mod:`disputatio.argumentation.fusion`).

Priors: brucellosis 0.5, AOSD 0.25, Q fever 0.25.

Observed evidence (``LR`` = likelihood ratio, ``q`` = quality):

* ``goat_cheese`` — unpasteurised goat cheese: LR 3 for brucellosis, 1/2 for AOSD, 3/2 for Q fever.
* ``ferritin`` — ferritin 4,800 ng/mL: LR 1/2 for brucellosis, 2 for AOSD, 1/2 for Q fever.
* ``rash_reported`` — evanescent salmon rash, reported second-hand (q = 0.5): LR 4 for AOSD,
  which counts as ``4^0.5 = 2``.

Candidate tests: ``t1_brucella`` (blood culture + Brucella agglutination), ``t2_coxiella``
(Coxiella phase II serology) and ``t3_marrow`` (bone-marrow biopsy: the most informative, but
invasive). Counter-evidence candidates are findings that could still turn up against brucellosis.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from disputatio.argumentation.fusion import (
    EvidenceItem,
    differential_log_scores,
    differential_posteriors,
)
from disputatio.argumentation.graph import DebateGraph
from disputatio.argumentation.schema import EdgeKind, Node, NodeKind
from disputatio.argumentation.voi import CandidateTest, node_for_test

__all__ = ["BRUCELLOSIS", "Q_FEVER", "STILL", "DiagnosticCase", "rare_disease_case"]

BRUCELLOSIS = "brucellosis"
STILL = "adult_onset_still"
Q_FEVER = "q_fever"


@dataclass(frozen=True, eq=False)
class DiagnosticCase:
    """A differential with its evidence, candidate tests and candidate counter-evidence.

    Attributes:
        name: Case name.
        priors: Prior of each hypothesis (summing to 1).
        labels: Human-readable name of each hypothesis.
        evidence: Observed evidence items (each names its hypothesis).
        provenance: Source of each observed evidence id.
        tests: Candidate tests.
        counter_evidence: Findings that could still be observed against the leading hypothesis.
    """

    name: str
    priors: Mapping[str, float]
    labels: Mapping[str, str]
    evidence: tuple[EvidenceItem, ...]
    provenance: Mapping[str, str]
    tests: tuple[CandidateTest, ...]
    counter_evidence: tuple[EvidenceItem, ...]

    def log_scores(self, alpha: float = 1.0) -> dict[str, float]:
        """Return the differential log-scores after the observed evidence."""
        return differential_log_scores(self.priors, self.evidence, alpha)

    def posteriors(self, alpha: float = 1.0) -> dict[str, float]:
        """Return the posterior distribution after the observed evidence."""
        return differential_posteriors(self.priors, self.evidence, alpha)

    def to_graph(self, alpha: float = 1.0) -> DebateGraph:
        """Return the case as a debate graph.

        Evidence bears on each hypothesis through a ``supports``/``attacks`` edge carrying its
        llr; each test is suggested by the hypotheses it can confirm (an outcome at least 0.5
        likely under the hypothesis and at most 0.1 under every other), and its expected
        discriminative power is its expected information gain under the current posterior.
        """
        graph = DebateGraph()
        for h, p in self.priors.items():
            graph.add_node(Node(h, NodeKind.HYPOTHESIS, label=self.labels[h], prior=p))
        quality = {item.id: item.quality for item in self.evidence}
        for eid, q in quality.items():
            graph.add_node(
                Node(eid, NodeKind.EVIDENCE, quality=q, provenance=(self.provenance[eid],))
            )
        for item in self.evidence:
            kind = EdgeKind.SUPPORTS if item.sign > 0 else EdgeKind.ATTACKS
            graph.add_edge(item.id, item.hypothesis, kind, llr=item.llr)
        post = self.posteriors(alpha)
        for test in self.tests:
            graph.add_node(node_for_test(test, post))
            for h in self.priors:
                if _confirms(test, h):
                    graph.add_edge(h, test.id, EdgeKind.SUGGESTS_TEST)
        return graph


def _confirms(test: CandidateTest, hypothesis: str) -> bool:
    """Return whether some outcome of ``test`` confirms ``hypothesis`` (see ``to_graph``)."""
    for row in test.likelihoods.values():
        others = [p for h, p in row.items() if h != hypothesis]
        if row[hypothesis] >= 0.5 and max(others) <= 0.1:
            return True
    return False


def _item(eid: str, hypothesis: str, ratio: float, quality: float = 1.0) -> EvidenceItem:
    """Return the item for likelihood ratio ``ratio``: sign +1 if ``ratio > 1``, else −1."""
    sign = 1 if ratio >= 1.0 else -1
    return EvidenceItem(eid, abs(math.log(ratio)), quality, sign, hypothesis)


def rare_disease_case() -> DiagnosticCase:
    """Return the brucellosis / AOSD / Q fever case described in the module docstring."""
    b, s, q = BRUCELLOSIS, STILL, Q_FEVER
    evidence = (
        _item("goat_cheese", b, 3.0),
        _item("goat_cheese", s, 0.5),
        _item("goat_cheese", q, 1.5),
        _item("ferritin", b, 0.5),
        _item("ferritin", s, 2.0),
        _item("ferritin", q, 0.5),
        _item("rash_reported", s, 4.0, quality=0.5),
    )
    tests = (
        CandidateTest(
            "t1_brucella",
            {"positive": {b: 0.9, s: 0.05, q: 0.1}, "negative": {b: 0.1, s: 0.95, q: 0.9}},
            cost=0.1,
            risk=0.2,
            latency=5.0,
            label="Blood culture + Brucella agglutination",
        ),
        CandidateTest(
            "t2_coxiella",
            {"positive": {b: 0.05, s: 0.05, q: 0.9}, "negative": {b: 0.95, s: 0.95, q: 0.1}},
            cost=0.1,
            risk=0.05,
            latency=7.0,
            label="Coxiella burnetii phase II serology",
        ),
        CandidateTest(
            "t3_marrow",
            {
                "brucella_granulomas": {b: 0.8, s: 0.02, q: 0.05},
                "fibrin_ring_granulomas": {b: 0.05, s: 0.03, q: 0.8},
                "reactive_marrow": {b: 0.15, s: 0.95, q: 0.15},
            },
            cost=1.0,
            risk=0.6,
            latency=3.0,
            label="Bone-marrow biopsy",
        ),
    )
    counter = (
        _item("sat_negative_early", b, 1 / 1.3),
        _item("sore_throat", s, 1.1),
        _item("arthritis", s, 1.2),
        _item("liver_granuloma_hint", q, 3.0),
    )
    return DiagnosticCase(
        name="fever of unknown origin: brucellosis vs AOSD vs Q fever",
        priors={b: 0.5, s: 0.25, q: 0.25},
        labels={b: "Brucellosis", s: "Adult-onset Still's disease", q: "Q fever"},
        evidence=evidence,
        provenance={
            "goat_cheese": "patient interview",
            "ferritin": "laboratory report",
            "rash_reported": "relative's account",
        },
        tests=tests,
        counter_evidence=counter,
    )
