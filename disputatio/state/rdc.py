"""State and schemas of ResearchDebateChain (RDC).

* The CASE file (:class:`Case`): a description, hypotheses with priors, known evidence (quality,
  log-likelihood ratio per hypothesis, provenance), candidate tests (outcome likelihoods per
  hypothesis, cost, risk, latency), optional counter-evidence candidates and gold diagnosis, and
  the domain with its specialists.
* The structured outputs of the agents: :class:`SpecialistMove` and :class:`SpecialistVote`.
* The graph state (:class:`RdcState`), its input and output. Everything in the state is plain
  JSON (the debate graph is stored as ``DebateGraph.to_dict()``), so any checkpointer can save it.

LLRs are natural logs of ``P(finding | H) / P(finding | reference)`` with a reference common to
every hypothesis (see :mod:`disputatio.argumentation.fusion`).
"""

from __future__ import annotations

import math
import operator
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, field_validator, model_validator
from typing_extensions import TypedDict

from disputatio.state.reducers import merge_usage

#: The debate phases, in order (``appeal`` only runs when the vote is split).
PHASES = ("seeding", "challenges", "rebuttal", "cross_examination", "vote", "appeal", "jury")
#: The phases in which specialists take turns each round.
ROUND_PHASES = ("challenges", "rebuttal", "cross_examination")
#: Why the debate stopped.
HaltReason = Literal["budget_rounds", "budget_tokens", "entropy", "entropy_drop", "voi"]


class Hypothesis(BaseModel):
    """One hypothesis of the differential."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(min_length=1, description="Stable id, e.g. 'brucellosis'.")
    label: str = Field("", description="Human-readable name.")
    prior: float = Field(gt=0.0, lt=1.0, description="Prior probability.")


class KnownEvidence(BaseModel):
    """A finding already known when the debate starts."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(min_length=1, description="Case evidence id (citable as provenance).")
    label: str = Field("", description="What was found.")
    quality: float = Field(1.0, ge=0.0, le=1.0, description="Reliability in [0, 1].")
    llr: dict[str, float] = Field(description="Natural-log LLR per hypothesis id.")
    provenance: str = Field("", description="Where the finding comes from.")
    source: str = Field(
        "case",
        min_length=1,
        description="Reliability group (e.g. measurement, history, second_hand): "
        "`disputatio rdc calibrate` fits one reliability β per group.",
    )


class CaseTest(BaseModel):
    """A candidate diagnostic test."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(min_length=1)
    label: str = ""
    likelihoods: dict[str, dict[str, float]] = Field(
        description="{outcome: {hypothesis id: P(outcome | hypothesis)}}."
    )
    cost: float = Field(0.0, ge=0.0)
    risk: float = Field(0.0, ge=0.0)
    latency: float = Field(0.0, ge=0.0)


class SpecialistSpec(BaseModel):
    """A specialist agent: its name (also the model lookup key) and its focus."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, pattern=r"^[A-Za-z0-9_\-]+$")
    focus: str = ""


class Case(BaseModel):
    """A CASE file: everything the debate starts from."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(min_length=1)
    title: str = ""
    description: str = Field(min_length=1)
    domain: str = Field("medical", description="Picks the default specialists.")
    specialists: list[SpecialistSpec] = Field(
        default_factory=list, description="Empty: the domain's defaults."
    )
    hypotheses: list[Hypothesis] = Field(min_length=2)
    evidence: list[KnownEvidence] = Field(default_factory=list)
    tests: list[CaseTest] = Field(default_factory=list)
    counter_evidence: list[KnownEvidence] = Field(
        default_factory=list, description="Findings that could still turn up (not observed)."
    )
    value_per_nat: float = Field(1.0, ge=0.0, description="Value of one nat, in cost units.")
    risk_aversion: float = Field(0.0, ge=0.0, description="Cost units charged per unit risk.")
    gold: str | None = Field(None, description="Gold hypothesis id, for calibration metrics.")

    @model_validator(mode="after")
    def _check_references(self) -> Case:
        ids = [h.id for h in self.hypotheses]
        if len(set(ids)) != len(ids):
            raise ValueError("hypothesis ids must be unique")
        if abs(math.fsum(h.prior for h in self.hypotheses) - 1.0) > 1e-6:
            raise ValueError("hypothesis priors must sum to 1")
        known = set(ids)
        eids = [e.id for e in [*self.evidence, *self.counter_evidence]]
        if len(set(eids)) != len(eids) or known & set(eids):
            raise ValueError("evidence ids must be unique and differ from hypothesis ids")
        for e in [*self.evidence, *self.counter_evidence]:
            if set(e.llr) - known:
                raise ValueError(f"evidence {e.id!r} names unknown hypotheses")
        for t in self.tests:
            for outcome, row in t.likelihoods.items():
                if set(row) != known:
                    raise ValueError(
                        f"test {t.id!r} outcome {outcome!r} must cover every hypothesis"
                    )
        if self.gold is not None and self.gold not in known:
            raise ValueError(f"gold {self.gold!r} is not a hypothesis id")
        return self


#: Longest text kept from an agent's free-text field (longer text is cut, not refused). Lengths
#: are not put in the JSON schema: llama.cpp compiles ``maxLength`` into slow grammar repetitions.
MAX_TEXT = 300


def _trim(value: Any, limit: int) -> Any:
    if not isinstance(value, str):
        return value
    return value if len(value) <= limit else value[: limit - 1] + "…"


# Strings trimmed before validation and bounded in the JSON schema: the schema bound (maxLength)
# reaches grammar-constrained decoding (llama.cpp), so a small model cannot run one string past
# the completion budget, while longer text from other providers is trimmed instead of rejected.
ShortId = Annotated[str, BeforeValidator(lambda v: _trim(v, 40)), Field(max_length=40)]
Label = Annotated[str, BeforeValidator(lambda v: _trim(v, 80)), Field(max_length=80)]
Text = Annotated[str, BeforeValidator(lambda v: _trim(v, MAX_TEXT)), Field(max_length=MAX_TEXT)]


class Bearing(BaseModel):
    """How strongly a claim bears on one hypothesis (qualitatively when no LLR is given)."""

    hypothesis: ShortId = Field(description="Hypothesis id.")
    llr: float | None = Field(
        None, description="Natural-log likelihood ratio: > 0 supports, < 0 attacks."
    )
    stance: Literal["supports", "attacks"] = Field(
        "supports", description="Direction when no llr is given (then noisy-OR weighs it)."
    )


class MoveClaim(BaseModel):
    """A claim (a piece of evidence) put forward in a move."""

    id: ShortId = Field(description="Short id local to this move, e.g. 'c1'.")
    text: Text = Field(description="The claim, one short sentence.")
    provenance: list[Label] = Field(
        default_factory=list,
        max_length=3,
        description="Section ids or case evidence ids the claim rests on.",
    )
    quality: float = Field(0.5, ge=0.0, le=1.0, description="Reliability of the source.")
    bearings: list[Bearing] = Field(default_factory=list, max_length=4)

    @field_validator("quality", mode="before")
    @classmethod
    def _clamp_quality(cls, value: Any) -> Any:
        if isinstance(value, int | float) and math.isfinite(value):
            return min(max(float(value), 0.0), 1.0)
        return value


class MoveRelation(BaseModel):
    """A relation from one of this move's claims: attack, support, or answer to a query."""

    source: ShortId = Field(description="Local id of a claim of this move.")
    target: ShortId = Field(
        description="Id of an existing evidence node, a claim of this move, or a query answered."
    )
    kind: Literal["attacks", "supports", "answers"]


class MoveAssumption(BaseModel):
    """An explicit assumption a move rests on (backs a proposed hypothesis)."""

    id: ShortId = Field(description="Short id local to this move, e.g. 'a1'.")
    text: Text = Field(description="The assumption, one short sentence.")


class ProposedHypothesis(BaseModel):
    """A hypothesis an agent adds from what it retrieved (with provenance)."""

    id: ShortId = Field(description="New hypothesis id, e.g. 'lyme_disease'.")
    label: Label = Field("", description="Human-readable name.")
    provenance: list[Label] = Field(
        default_factory=list, max_length=3, description="Retrieved section ids it comes from."
    )
    assumption: ShortId = Field(
        "", description="Local id of an assumption of this move that backs it (optional)."
    )


class MoveQuery(BaseModel):
    """A question to the other specialists about one node of the graph."""

    id: ShortId = Field(description="Short id local to this move, e.g. 'q1'.")
    question: Text = Field(description="The question, one short sentence.")
    target: ShortId = Field(description="Id of the node (evidence or hypothesis) it is about.")


class TestOutcomeShare(BaseModel):
    """P(positive result | hypothesis) of a proposed test."""

    hypothesis: ShortId = Field(description="Hypothesis id.")
    probability: float = Field(ge=0.0, le=1.0)


class ProposedTest(BaseModel):
    """A binary test an agent proposes: its positive rate under each hypothesis, cost and risk."""

    id: ShortId = Field(description="Short test id, e.g. 'pcr'.")
    label: Label = Field("", description="What the test is.")
    positive: list[TestOutcomeShare] = Field(default_factory=list, max_length=8)
    cost: float = Field(0.0, ge=0.0)
    risk: float = Field(0.0, ge=0.0, le=1.0)


class SpecialistMove(BaseModel):
    """One specialist turn: claims with provenance and their relations.

    Optionally also an explicit assumption, a hypothesis from retrieval, a query to the others
    and a proposed test.
    """

    summary: Text = Field("", description="One short sentence.")

    claims: list[MoveClaim] = Field(default_factory=list, max_length=3)
    relations: list[MoveRelation] = Field(default_factory=list, max_length=5)
    assumptions: list[MoveAssumption] = Field(default_factory=list, max_length=2)
    hypotheses: list[ProposedHypothesis] = Field(default_factory=list, max_length=1)
    queries: list[MoveQuery] = Field(default_factory=list, max_length=1)
    tests: list[ProposedTest] = Field(default_factory=list, max_length=1)


class VoteShare(BaseModel):
    """The probability a voter gives one hypothesis."""

    hypothesis: ShortId = Field(description="Hypothesis id.")
    probability: float = Field(ge=0.0, le=1.0, description="Probability in [0, 1].")


class SpecialistVote(BaseModel):
    """A specialist's vote: a probability vector over the hypotheses (and/or a ranking).

    The probabilities are normalised over the known hypotheses (missing ones get 0); the ranking
    is derived from them when given, else taken as written.
    """

    probabilities: list[VoteShare] = Field(default_factory=list, max_length=32)
    ranking: list[str] = Field(
        default_factory=list, description="Hypothesis ids, most likely first.", max_length=32
    )
    rationale: Text = Field("", description="One short sentence.")


class RdcInput(TypedDict, total=False):
    """What a caller passes in.

    Attributes:
        case: The CASE (a :class:`Case` or its JSON dict).
        thread_id: Ledger thread id when the run has no checkpointer thread (default: fresh).
    """

    case: dict[str, Any] | Case
    thread_id: str


class RdcState(RdcInput, total=False):
    """Full state of a debate.

    Attributes:
        run_id: Unique id of this run (prefixes ledger keys so re-runs on a thread never clash).
        ledger_thread: Thread id under which ledger entries are appended.
        specialists: The specialists in play, ``[{"name", "focus"}]``.
        graph: The debate graph as ``DebateGraph.to_dict()``.
        phase: Current phase (see :data:`PHASES`).
        phase_log: Phases entered, in order (one entry per phase change).
        round: Current round (1-based).
        turn_in_phase: Turns already taken in the current phase.
        turns: Specialist turns taken so far.
        speaker: The speaker of the pending turn.
        appeal_queue: Speakers still to be heard in the appeal.
        appeal_pair: The top conflict pair ``[top, challenger]`` the appeal argues (or empty).
        appeals: Appeals held so far.
        rr_cursor: Round-robin position.
        agent_priors: Per-agent priors from the diaries: ``{agent: {reliability, gain, cases}}``.
        bandit: Serialised LinUCB: ``{"dim", "alpha", "observations": [{arm, context, reward}]}``
            (rebuilt each step by replaying the observations); ``context`` is the pending turn's.
        posterior: Current differential (fusion over IN evidence).
        entropy: Entropy of the posterior, in nats.
        best_eig: EIG (nats) of the best admissible test (None when no test is admissible).
        retrieved_ids: Section ids retrieved so far (citable provenance).
        moves: Accepted moves (speaker, phase, round, added nodes/edges).
        rejected: Rejected claims, relations and invalid moves, with reasons.
        claims: Every accepted claim judged against the sentences of what it cites (a
            :class:`~disputatio.state.claims.Claim` dump, with its graph ``node``, ``speaker``
            and ``turn``): a section shown in the same turn or a case evidence item.
        votes: Votes of every vote round (``vote_round`` tells them apart).
        vote_round: Current vote round (0 before any vote).
        halt_reason: Why the debate stopped.
        usage: Per-agent token and latency usage.
        outbox: Ledger entries produced by nodes (flushed by the next deterministic node).
        ledger_cursor: How many outbox entries have been appended to the ledger.
        verdict: The jury's output.
    """

    run_id: str
    ledger_thread: str
    specialists: list[dict[str, str]]
    graph: dict[str, Any]
    phase: str
    phase_log: Annotated[list[str], operator.add]
    round: int
    turn_in_phase: int
    turns: int
    speaker: str
    appeal_queue: list[str]
    appeal_pair: list[str]
    appeals: int
    rr_cursor: int
    agent_priors: dict[str, dict[str, float]]
    bandit: dict[str, Any]
    posterior: dict[str, float]
    entropy: float
    best_eig: float | None
    retrieved_ids: Annotated[list[str], operator.add]
    moves: Annotated[list[dict[str, Any]], operator.add]
    rejected: Annotated[list[dict[str, Any]], operator.add]
    claims: Annotated[list[dict[str, Any]], operator.add]
    votes: Annotated[list[dict[str, Any]], operator.add]
    vote_round: int
    halt_reason: str
    usage: Annotated[dict[str, dict[str, Any]], merge_usage]
    outbox: Annotated[list[dict[str, Any]], operator.add]
    ledger_cursor: int
    verdict: dict[str, Any]


class RdcOutput(TypedDict, total=False):
    """What the graph returns (see :class:`RdcState` for each field)."""

    ledger_thread: str
    graph: dict[str, Any]
    phase_log: list[str]
    moves: list[dict[str, Any]]
    rejected: list[dict[str, Any]]
    claims: list[dict[str, Any]]
    votes: list[dict[str, Any]]
    halt_reason: str
    usage: dict[str, dict[str, Any]]
    verdict: dict[str, Any]
