"""Pure-math argumentation engine of ResearchDebateChain (numpy and the standard library only).

* :mod:`.graph` / :mod:`.schema` — the typed, signed debate graph and its invariants;
  :mod:`.serialization` — dict, JSON-LD and GraphML forms.
* :mod:`.semantics` — grounded labelling of abstract and bipolar argumentation frameworks.
* :mod:`.fusion` — log-odds evidence fusion, differential softmax, noisy-OR, entropy.
* :mod:`.voi` — expected information gain and utility of tests; with :mod:`.sensitivity`, the
  odds shift that would change our mind and a minimal counter-evidence set.
* :mod:`.jury` — disagreement of a jury (vote entropy, Kendall τ-b).
* :mod:`.bandit` — speaker selection (round-robin, LinUCB, linear Thompson sampling).
* :mod:`.calibration` — Brier scores and expected calibration error; :mod:`.learning` — fitting
  the quality exponent α and the reliabilities β over cases with ground truth.
* :mod:`.consistency` — the label/posterior consistency regulariser, noisy-OR for edges without
  likelihoods; :mod:`.paths` — support paths and minimum hitting sets.
* :mod:`.examples` — the rare-disease worked case.

Nothing here imports the rest of :mod:`disputatio`.
"""

from disputatio.argumentation.bandit import (
    LinearThompsonSampling,
    LinUCB,
    RoundRobinSelector,
    SpeakerSelector,
    entropy_drop_reward,
    net_entropy_reward,
)
from disputatio.argumentation.calibration import (
    ReliabilityBin,
    brier_score,
    expected_calibration_error,
    multiclass_brier_score,
    reliability_bins,
)
from disputatio.argumentation.consistency import (
    LABEL_COST,
    label_inconsistency,
    noisy_or_shift,
    regularised_log_scores,
    regularised_posterior,
)
from disputatio.argumentation.examples import DiagnosticCase, rare_disease_case
from disputatio.argumentation.fusion import (
    EvidenceItem,
    differential_log_scores,
    differential_posteriors,
    entropy,
    entropy_bits,
    entropy_nats,
    fuse_log_odds,
    logit,
    noisy_or,
    posterior,
    quality_weight,
    sigmoid,
    softmax,
)
from disputatio.argumentation.graph import DebateGraph
from disputatio.argumentation.jury import (
    Disagreement,
    Ranking,
    disagreement,
    kendall_tau_b,
    mean_pairwise_tau,
    normalised_vote_entropy,
)
from disputatio.argumentation.learning import (
    CalibrationFit,
    LabelledCase,
    evaluate,
    fit_alpha_beta,
    leave_one_out,
)
from disputatio.argumentation.paths import (
    HittingSet,
    minimum_hitting_set,
    nodes_on_cycles,
    support_paths,
)
from disputatio.argumentation.schema import (
    CLAIM_KINDS,
    EDGE_SIGNS,
    Edge,
    EdgeKind,
    Node,
    NodeKind,
)
from disputatio.argumentation.semantics import (
    SEMANTICS,
    ArgumentationFramework,
    BipolarFramework,
    Label,
    bipolar_labelling,
    characteristic,
    grounded_extension,
    grounded_labelling,
    is_complete_extension,
    is_conflict_free,
    labels_of,
)
from disputatio.argumentation.sensitivity import (
    CounterEvidenceSet,
    Verdict,
    apply_shift,
    finding_shifts,
    flip_table,
    log_scores_from_probabilities,
    minimal_counter_evidence,
    minimal_defeat_set,
    odds_shift_to_flip,
    verdict,
    would_flip,
)
from disputatio.argumentation.serialization import to_graphml, to_jsonld
from disputatio.argumentation.voi import (
    CandidateTest,
    PairShift,
    RankedTest,
    expected_information_gain,
    expected_utility,
    node_for_test,
    outcome_flips,
    outcome_probabilities,
    pairwise_test_shifts,
    posterior_given_outcome,
    rank_tests,
)

__all__ = [
    "CLAIM_KINDS",
    "EDGE_SIGNS",
    "LABEL_COST",
    "SEMANTICS",
    "ArgumentationFramework",
    "BipolarFramework",
    "CalibrationFit",
    "CandidateTest",
    "CounterEvidenceSet",
    "DebateGraph",
    "DiagnosticCase",
    "Disagreement",
    "Edge",
    "EdgeKind",
    "EvidenceItem",
    "HittingSet",
    "Label",
    "LabelledCase",
    "LinUCB",
    "LinearThompsonSampling",
    "Node",
    "NodeKind",
    "PairShift",
    "RankedTest",
    "Ranking",
    "ReliabilityBin",
    "RoundRobinSelector",
    "SpeakerSelector",
    "Verdict",
    "apply_shift",
    "bipolar_labelling",
    "brier_score",
    "characteristic",
    "differential_log_scores",
    "differential_posteriors",
    "disagreement",
    "entropy",
    "entropy_bits",
    "entropy_drop_reward",
    "entropy_nats",
    "evaluate",
    "expected_calibration_error",
    "expected_information_gain",
    "expected_utility",
    "finding_shifts",
    "fit_alpha_beta",
    "flip_table",
    "fuse_log_odds",
    "grounded_extension",
    "grounded_labelling",
    "is_complete_extension",
    "is_conflict_free",
    "kendall_tau_b",
    "label_inconsistency",
    "labels_of",
    "leave_one_out",
    "log_scores_from_probabilities",
    "logit",
    "mean_pairwise_tau",
    "minimal_counter_evidence",
    "minimal_defeat_set",
    "minimum_hitting_set",
    "multiclass_brier_score",
    "net_entropy_reward",
    "node_for_test",
    "nodes_on_cycles",
    "noisy_or",
    "noisy_or_shift",
    "normalised_vote_entropy",
    "odds_shift_to_flip",
    "outcome_flips",
    "outcome_probabilities",
    "pairwise_test_shifts",
    "posterior",
    "posterior_given_outcome",
    "quality_weight",
    "rank_tests",
    "rare_disease_case",
    "regularised_log_scores",
    "regularised_posterior",
    "reliability_bins",
    "sigmoid",
    "softmax",
    "support_paths",
    "to_graphml",
    "to_jsonld",
    "verdict",
    "would_flip",
]
