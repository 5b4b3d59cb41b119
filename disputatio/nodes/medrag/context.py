"""Run settings of the MedRAG-style debate: the graph's ``context_schema`` and its resolution.

Every field left as None is taken from ``settings.medrag`` (or ``settings.models``); the switches
at the end exist for ablations and default to the full protocol.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from disputatio.errors import ConfigError
from disputatio.nodes.context import AgentContext, given_or


@dataclass
class MedragContext(AgentContext):
    """Run settings of ``medrag_debate`` (LangGraph ``context_schema``).

    Attributes:
        rounds: Debate rounds at most (default ``medrag.rounds``).
        k: Sections retrieved per agent per round (default ``medrag.k``).
        temperatures: One temperature per agent (default ``medrag.temperatures``); the number
            of agents is its length.
        summary_max_tokens: Budget of each summary (default ``medrag.summary_max_tokens``).
        summary_temperature: Temperature of summaries (default ``medrag.summary_temperature``).
        verifier_max_chars: Debate text shown to the verifier (default
            ``medrag.verifier_max_chars``).
        max_tokens: Completion budget of agent answers (default ``medrag.max_tokens``).
        verifier_temperature: Temperature of the verifier (default
            ``medrag.verifier_temperature``, 0.7 as in the seed).
        section_max_chars: Truncate each retrieved section to this many characters in prompts
            (default ``medrag.section_max_chars``; shortened further when a local model's slot
            could not hold the whole debate).
        query_max_chars: Longest retrieval query sent.
        query_max_tokens: Completion budget of the agent's ``retrieve("query")`` call (default
            ``medrag.query_max_tokens``).
        response_max_chars: Cap of a cleaned reply (default ``medrag.response_max_chars``).
        repetition_penalty: Repetition penalty sent to local/vLLM servers (default
            ``medrag.repetition_penalty``).
        stop: Stop sequences of every call (default ``medrag.stop``).
        agent_query: Agents write their own ``retrieve("query")`` before answering (the seed);
            off searches with the question (plus peers' summaries when ``requery``) and saves
            one call per turn (ablation).
        use_retrieval: Retrieve before reasoning (ablation: off).
        use_summaries: Summarise turns with a model; off shows peers the cleaned, truncated
            reply instead (ablation).
        requery: With ``agent_query`` off: from round 2 on, search with the question plus the
            peers' summaries; off searches with the question only (ablation).
        use_verifier: Ask the verifier when the agents disagree after the last round
            (ablation: off goes straight to the majority vote).
        early_stop: Stop as soon as all agents agree (ablation: off always runs every round).
        validators: Validator specs run on the final answer (default: citations, confidence,
            bias; see :mod:`disputatio.validators.hooks`).
        error_handler: Validation error handler hook (default: log and report failed).
    """

    rounds: int | None = None
    k: int | None = None
    temperatures: list[float] | None = None
    summary_max_tokens: int | None = None
    summary_temperature: float | None = None
    verifier_max_chars: int | None = None
    max_tokens: int | None = None
    verifier_temperature: float | None = None
    section_max_chars: int | None = None
    query_max_chars: int = 1000
    query_max_tokens: int | None = None
    response_max_chars: int | None = None
    repetition_penalty: float | None = None
    stop: list[str] | None = None
    agent_query: bool = True
    use_retrieval: bool = True
    use_summaries: bool = True
    requery: bool = True
    use_verifier: bool = True
    early_stop: bool = True
    validators: Sequence[Any] | None = None
    error_handler: Any = None


@dataclass(frozen=True)
class MedragConfig:
    """:class:`MedragContext` with every default filled in from the settings."""

    rounds: int
    k: int
    temperatures: tuple[float, ...]
    summary_max_tokens: int
    summary_temperature: float
    verifier_max_chars: int
    max_tokens: int | None
    verifier_temperature: float
    section_max_chars: int | None
    query_max_chars: int
    use_retrieval: bool
    use_summaries: bool
    requery: bool
    use_verifier: bool
    early_stop: bool
    query_max_tokens: int = 48
    response_max_chars: int = 2000
    repetition_penalty: float | None = 1.2
    stop: tuple[str, ...] = ()
    agent_query: bool = True

    @property
    def agents(self) -> tuple[str, ...]:
        """Agent names, ``agent1``, ``agent2``..., one per temperature."""
        return tuple(f"agent{i + 1}" for i in range(len(self.temperatures)))

    def temperature_of(self, agent: str) -> float:
        """Temperature of ``agent``."""
        return self.temperatures[self.agents.index(agent)]

    def slot_of(self, agent: str) -> int:
        """llama.cpp slot of ``agent`` and of its summariser (its conversation stays cached)."""
        return self.agents.index(agent)


def resolve(ctx: MedragContext) -> MedragConfig:
    """Fill the unset fields of ``ctx`` from its settings.

    Raises:
        ConfigError: If a value is out of range (fewer than two agents, rounds < 1, k < 1).
    """
    med = ctx.get_settings().medrag
    temperatures = tuple(given_or(ctx.temperatures, med.temperatures))
    config = MedragConfig(
        rounds=given_or(ctx.rounds, med.rounds),
        k=given_or(ctx.k, med.k),
        temperatures=temperatures,
        summary_max_tokens=ctx.summary_max_tokens or med.summary_max_tokens,
        summary_temperature=given_or(ctx.summary_temperature, med.summary_temperature),
        verifier_max_chars=ctx.verifier_max_chars or med.verifier_max_chars,
        max_tokens=ctx.max_tokens or med.max_tokens,
        verifier_temperature=given_or(ctx.verifier_temperature, med.verifier_temperature),
        section_max_chars=ctx.section_max_chars or med.section_max_chars,
        query_max_chars=ctx.query_max_chars,
        query_max_tokens=ctx.query_max_tokens or med.query_max_tokens,
        response_max_chars=ctx.response_max_chars or med.response_max_chars,
        repetition_penalty=given_or(ctx.repetition_penalty, med.repetition_penalty),
        stop=tuple(given_or(ctx.stop, med.stop)),
        agent_query=ctx.agent_query,
        use_retrieval=ctx.use_retrieval,
        use_summaries=ctx.use_summaries,
        requery=ctx.requery,
        use_verifier=ctx.use_verifier,
        early_stop=ctx.early_stop,
    )
    if len(config.temperatures) < 2:
        raise ConfigError("medrag debate needs at least two agents (two temperatures)")
    if config.rounds < 1 or config.k < 1:
        raise ConfigError(f"medrag rounds and k must be >= 1 (got {config.rounds}, {config.k})")
    return config
