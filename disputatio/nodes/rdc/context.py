"""Run context of ResearchDebateChain and its resolution against the settings.

Fields left at ``None`` take their value from ``settings.rdc`` (when the setting exists) or from
the defaults documented here. :meth:`RdcContext.config` freezes the result for one step.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

from disputatio.errors import ConfigError
from disputatio.nodes.context import AgentContext, given_or
from disputatio.storage.ledger import InMemoryLedger, Ledger

SPEAKER_SELECTIONS = ("round_robin", "linucb", "thompson")
SEMANTICS = ("bipolar", "derived")

_default_ledger: InMemoryLedger | None = None
_ledger_lock = threading.Lock()


def default_memory_ledger() -> InMemoryLedger:
    """Return the process-wide in-memory ledger used when a run names no ledger."""
    global _default_ledger
    with _ledger_lock:
        if _default_ledger is None:
            _default_ledger = InMemoryLedger()
        return _default_ledger


@dataclass(frozen=True)
class RdcConfig:
    """Resolved knobs of one RDC step (see :class:`RdcContext` for their meaning)."""

    quality_alpha: float
    max_rounds: int
    entropy_stop: float
    voi_stop: float
    max_risk: float
    speaker_selection: str
    token_budget: int | None
    turns_per_phase: int | None
    sections_per_turn: int
    section_chars: int
    graph_lines: int
    max_tokens: int | None
    temperature: float | None
    retries: int
    appeal: bool
    appeal_threshold: float
    max_appeals: int
    max_abs_llr: float
    linucb_alpha: float
    ece_bins: int
    value_per_nat: float | None
    risk_aversion: float | None
    semantics: str
    label_consistency: float
    min_entropy_drop: float
    stall_turns: int
    top_pairs: int
    max_support_paths: int
    retrieved_hypotheses: int
    memory: bool
    seed: int


@dataclass
class RdcContext(AgentContext):
    """Run settings of the RDC graph (LangGraph ``context_schema``).

    Attributes:
        specialists: Specialist names to use (default: the case's, else the domain's).
        max_specialists: Keep only the first N specialists.
        quality_alpha: ``f(q) = q**alpha`` in fusion (default ``rdc.quality_alpha``).
        max_rounds: Round budget (default ``rdc.max_rounds``).
        entropy_stop: Stop when the entropy (nats) is below (default ``rdc.entropy_stop``).
        voi_stop: Stop when the best admissible test's EIG (nats) is below (``rdc.voi_stop``).
        max_risk: Hard risk limit of the test plan (default ``rdc.max_risk``).
        speaker_selection: ``round_robin``, ``linucb`` or ``thompson`` (linear Thompson
            sampling; default ``rdc.speaker_selection``).
        token_budget: Stop before a turn once this many tokens were used (None: no budget).
        turns_per_phase: Turns per phase (default: one per specialist).
        sections_per_turn: Sections retrieved for each turn.
        section_chars: Characters of each section shown to the model.
        graph_lines: Debate-graph nodes shown in prompts (most recent last).
        max_tokens: Completion budget of each agent call (default: settings).
        temperature: Sampling temperature of the agents (default: settings).
        retries: Extra structured-output attempts per call.
        appeal: Hold an appeal when the vote is split.
        appeal_threshold: Disagreement index at or above which an appeal is held.
        max_appeals: Appeals at most.
        max_abs_llr: Claimed LLRs are clipped to ``±max_abs_llr``.
        linucb_alpha: Exploration width of LinUCB.
        ece_bins: Bins of the expected calibration error.
        value_per_nat: Value of one nat of information (default: the case's).
        risk_aversion: Cost units per unit of risk (default: the case's).
        semantics: ``bipolar`` or ``derived`` labelling (default ``rdc.semantics``).
        label_consistency: Consistency regulariser strength κ (default ``rdc.label_consistency``).
        min_entropy_drop: Entropy-drop halt threshold (default ``rdc.min_entropy_drop``).
        retrieved_hypotheses: Hypotheses agents may add from retrieval
            (default ``rdc.retrieved_hypotheses``).
        memory: Keep per-agent diaries in the graph's store (default ``rdc.memory``).
        seed: Seed of the Thompson sampler's random generator (reproducible runs).
        ledger: Where ledger entries go (default: ``rdc.ledger`` — the Postgres ledger of the
            configured database, or the process-wide in-memory one when it is ``memory``).
    """

    specialists: list[str] | None = None
    max_specialists: int | None = None
    quality_alpha: float | None = None
    max_rounds: int | None = None
    entropy_stop: float | None = None
    voi_stop: float | None = None
    max_risk: float | None = None
    speaker_selection: str | None = None
    token_budget: int | None = None
    turns_per_phase: int | None = None
    sections_per_turn: int = 3
    section_chars: int = 1200
    graph_lines: int = 24
    max_tokens: int | None = None
    temperature: float | None = None
    retries: int = 2
    appeal: bool = True
    appeal_threshold: float = 0.5
    max_appeals: int = 1
    max_abs_llr: float = 5.0
    linucb_alpha: float = 1.0
    ece_bins: int = 10
    value_per_nat: float | None = None
    risk_aversion: float | None = None
    semantics: str | None = None
    label_consistency: float | None = None
    min_entropy_drop: float | None = None
    retrieved_hypotheses: int | None = None
    memory: bool | None = None
    seed: int = 0
    ledger: Any = field(default=None)

    def get_ledger(self) -> Ledger:
        """Return the run's ledger (default: see :attr:`ledger`).

        Under the LangGraph server the context carries no ledger object, so the run writes to
        the Postgres ledger of the configured database, never to the in-memory fallback.
        """
        if self.ledger is not None:
            return self.ledger
        settings = self.get_settings()
        if settings.rdc.ledger == "memory":
            return default_memory_ledger()
        from disputatio.storage.ledger import PostgresLedger

        return PostgresLedger(settings)

    def config(self) -> RdcConfig:
        """Resolve every knob against ``settings.rdc``.

        Raises:
            ConfigError: On an unknown speaker selection or a non-positive bound.
        """
        rdc = self.get_settings().rdc
        selection = self.speaker_selection or rdc.speaker_selection
        if selection not in SPEAKER_SELECTIONS:
            raise ConfigError(
                f"unknown rdc.speaker_selection {selection!r} (known: {SPEAKER_SELECTIONS})"
            )
        max_rounds = given_or(self.max_rounds, rdc.max_rounds)
        if max_rounds < 1 or self.max_appeals < 0 or self.sections_per_turn < 0:
            raise ConfigError("rdc: max_rounds must be >= 1, max_appeals/sections_per_turn >= 0")
        if self.turns_per_phase is not None and self.turns_per_phase < 1:
            raise ConfigError("rdc: turns_per_phase must be >= 1")
        if self.max_tokens is not None and self.max_tokens < 1:
            raise ConfigError("rdc: max_tokens must be >= 1 (tokens per agent call)")
        if self.token_budget is not None and self.token_budget < 1:
            raise ConfigError("rdc: token_budget must be >= 1")
        semantics = self.semantics or rdc.semantics
        if semantics not in SEMANTICS:
            raise ConfigError(f"unknown rdc.semantics {semantics!r} (known: {SEMANTICS})")
        return RdcConfig(
            quality_alpha=_pick(self.quality_alpha, rdc.quality_alpha),
            max_rounds=max_rounds,
            entropy_stop=_pick(self.entropy_stop, rdc.entropy_stop),
            voi_stop=_pick(self.voi_stop, rdc.voi_stop),
            max_risk=_pick(self.max_risk, rdc.max_risk),
            speaker_selection=selection,
            token_budget=self.token_budget,
            turns_per_phase=self.turns_per_phase,
            sections_per_turn=self.sections_per_turn,
            section_chars=self.section_chars,
            graph_lines=self.graph_lines,
            max_tokens=self.max_tokens,
            temperature=self.temperature,
            retries=self.retries,
            appeal=self.appeal,
            appeal_threshold=self.appeal_threshold,
            max_appeals=self.max_appeals,
            max_abs_llr=self.max_abs_llr,
            linucb_alpha=self.linucb_alpha,
            ece_bins=self.ece_bins,
            value_per_nat=self.value_per_nat,
            risk_aversion=self.risk_aversion,
            semantics=semantics,
            label_consistency=_pick(self.label_consistency, rdc.label_consistency),
            min_entropy_drop=_pick(self.min_entropy_drop, rdc.min_entropy_drop),
            stall_turns=rdc.stall_turns,
            top_pairs=rdc.top_pairs,
            max_support_paths=rdc.max_support_paths,
            retrieved_hypotheses=int(given_or(self.retrieved_hypotheses, rdc.retrieved_hypotheses)),
            memory=given_or(self.memory, rdc.memory),
            seed=self.seed,
        )


def _pick(value: float | None, default: float) -> float:
    return float(given_or(value, default))


def tokens_used(usage: dict[str, dict[str, Any]] | None) -> int:
    """Return the input + output tokens of every agent so far."""
    return sum(
        int(u.get("input_tokens", 0)) + int(u.get("output_tokens", 0))
        for u in (usage or {}).values()
    )
