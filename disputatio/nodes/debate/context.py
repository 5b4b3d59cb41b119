"""Run settings of the hierarchical debate: the context schema and its resolved form.

Every field left ``None`` is taken from ``settings.debate`` (or ``settings.models``). Ablations
are plain flags: ``flat`` (no decomposition), ``no_debate`` (one worker) and ``no_rag`` (no
retrieval at all).

Agent names (use them as keys of ``models`` to script or override single agents):

==========================  =================================================================
``orchestrator``            decomposes the question (role ``orchestrator``)
``worker-<node>-<i>``       worker ``i`` (0-based) of leaf ``<node>`` (``root``, ``1``, ``1.2``);
                            role = its persona (``debate.personas``: ``synthesizer``,
                            ``devils_advocate``, ``skeptic`` by default); ``models["worker"]``
                            serves every worker
``reviewer-<node>``         critiques a leaf's debate (role ``reviewer``)
``summarizer-<node>``       writes a debated leaf's answer (role ``summarizer``)
``aggregator-<node>``       answers an internal node from its children (role ``aggregator``)
==========================  =================================================================
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from langchain_core.language_models import BaseChatModel
from pydantic import ValidationError

from disputatio.errors import ConfigError
from disputatio.nodes.context import AgentContext
from disputatio.prompts.debate import PERSONAS, VERDICT_FORMS
from disputatio.settings.pipelines import DebateSettings

#: How answers are compared: lexical similarity, embedding cosine, or your own function.
Similarity = Callable[[str, str], float]


@dataclass
class DebateContext(AgentContext):
    """Context schema of the hierarchical debate graph.

    Attributes:
        max_depth: Depth of the sub-question tree (default ``debate.max_depth``).
        max_breadth: Children per node (default ``debate.max_breadth``).
        workers: Workers per leaf, 1–3 (default ``debate.workers``).
        worker_temperatures: Temperature per worker (default ``debate.worker_temperatures``).
        personas: Persona per worker, in order: names of
            :data:`~disputatio.prompts.debate.PERSONAS` or instructions of your own (default
            ``debate.personas``: synthesizer, devil's advocate, skeptic; ``critic`` and
            ``close_reader`` are the measured alternative for small local models).
        rounds: Debate rounds when workers disagree (default ``debate.rounds``).
        max_tool_calls: Retrieval calls a worker may make per turn (default
            ``debate.max_tool_calls``); 0 disables the tool round.
        agreement_threshold: Similarity counted as agreement (default
            ``debate.agreement_threshold``).
        token_budget: Stop starting debate rounds beyond this many tokens (default
            ``debate.token_budget``).
        flat: Ablation: no decomposition, the question is the only leaf.
        no_debate: Ablation: one worker per leaf, no debate.
        no_rag: Ablation: no retrieval, no citations.
        seed_k: Sections retrieved for each worker before its first answer.
        tool_k: Sections per retrieval tool call.
        debate_tools: Offer the retrieval tool in debate rounds too (not only in round 0).
        section_max_chars: Characters of each section shown in prompts.
        summary_sections: Sections shown to a summarizer or aggregator at most.
        max_tokens: Completion budget per call (default ``models.max_tokens``).
        agreement: ``"lexical"`` (default), ``"embedding"`` or a function ``(a, b) -> [0, 1]``.
        validators: Validator specs run on the final answer (default: citations, confidence,
            bias).
        review_searches: Retrievals the reviewer may ask for per debated leaf (default
            ``debate.review_searches``).
        error_handler: Validation error handler hook (default: log and report failed).
        cite_repair: Ask a worker or summarizer once more, for the section labels, when its
            answer cites none of the sections it was shown (ablation: off).
        shared_slot: ``local:`` models: the workers of a leaf, its reviewer and its summarizer
            share one llama.cpp slot, so the leaf's question and sections are read once and each
            call reads only what it adds (the server runs them one after another there). On a
            CPU, where two requests decode together barely faster than one, that is quicker;
            set False to give each worker its own slot and decode them in parallel (a GPU).
        continue_turns: A worker's debate round is a new turn of its own last conversation
            (its answer as the assistant message, the others' answers in a new user message),
            and the reviewer a new turn of the conversation of the worker that answered last
            (whose conversation the shared slot holds): the server reads only the new turn
            instead of the question and the whole debate again. ``None`` (default): on for
            ``local:`` workers, where the slot's cache makes it pay (measured in
            docs/benchmarks_debate.md), off for other models (whose reviewer then reads the
            whole debate afresh, in its own conversation).
        final_verdict: A decomposed question's answer (the composition of its sub-answers)
            is headed by a verdict on the question itself, from one more call that reads the
            sub-answers (an option's letter on a multiple-choice question). ``None`` (default):
            on when the question has ``options``; set True for questions that want one short
            answer (a number, yes/no), False to keep the bare composition. On a
            multiple-choice question it also makes a flat root whose answer names no option
            (its workers or summarizer found the sections silent) get that one call, reading
            the root's answer, so that the debate answers every question, as the baselines do.
        verdict_last: Agents write their support first and their verdict line last (the
            local 1.5B was no better with it on fresh dev questions: docs/results.md); the
            nodes move that line to the top of the answer, so the stored answers, the
            agreement check and the final answer read the same either way.
            ``None`` (default): ``debate.verdict_last`` (False: verdict first).

    With a ``local:`` orchestrator (small model) and ``max_depth`` unset, the plan is a flat
    list of at most 3 sub-questions (depth 1), asked with a one-shot example.
    """

    max_depth: int | None = None
    max_breadth: int | None = None
    workers: int | None = None
    worker_temperatures: list[float] | None = None
    personas: Sequence[str] | None = None
    rounds: int | None = None
    max_tool_calls: int | None = None
    agreement_threshold: float | None = None
    token_budget: int | None = None
    flat: bool = False
    no_debate: bool = False
    no_rag: bool = False
    seed_k: int = 4
    tool_k: int = 4
    debate_tools: bool = True
    section_max_chars: int = 1500
    summary_sections: int = 6
    max_tokens: int | None = None
    agreement: str | Similarity = "lexical"
    validators: Sequence[Any] | None = None
    review_searches: int | None = None
    error_handler: Any = None
    cite_repair: bool = True
    shared_slot: bool = True
    continue_turns: bool | None = None
    final_verdict: bool | None = None
    verdict_last: bool | None = None

    def agent_model(
        self,
        agent: str,
        role: str,
        *,
        group: str | None = None,
        temperature: float | None = None,
        slot: int | None = None,
    ) -> BaseChatModel:
        """The chat model of ``agent``: ``models[agent]`` → ``models[role]`` → ``models[group]``.

        ``temperature`` is applied to model objects too; ``slot`` pins a ``local:`` model's
        requests to one llama.cpp slot (prefix-cache affinity).
        """
        key = next((k for k in (agent, role, group) if k and k in self.models), None)
        cfg = resolve_config(self)
        return self.chat_model(
            key or agent, role=role, temperature=temperature, max_tokens=cfg.max_tokens, slot=slot
        )


@dataclass(frozen=True)
class DebateConfig:
    """Context and settings merged into the numbers the nodes use."""

    max_depth: int
    max_breadth: int
    workers: int
    temperatures: tuple[float, ...]
    rounds: int
    max_tool_calls: int
    agreement_threshold: float
    token_budget: int
    use_rag: bool
    seed_k: int
    tool_k: int
    debate_tools: bool
    section_max_chars: int
    summary_sections: int
    max_tokens: int
    personas: tuple[str, ...]
    review_searches: int = 1
    flat_plan: bool = False
    cite_repair: bool = True
    shared_slot: bool = True
    continue_turns: bool = False
    final_verdict: bool | None = None
    verdict_last: bool = False

    @property
    def forms(self) -> dict[str, str]:
        """The answer forms of the prompts (:data:`~disputatio.prompts.debate.VERDICT_FORMS`)."""
        return VERDICT_FORMS["last" if self.verdict_last else "first"]

    @property
    def max_words(self) -> int:
        """Words asked for in answers (about 0.6 words per completion token)."""
        return max(20, min(250, int(self.max_tokens * 0.6)))

    def persona(self, index: int) -> str:
        """Persona of worker ``index``."""
        return self.personas[index % len(self.personas)]

    def temperature(self, index: int) -> float:
        """Temperature of worker ``index``."""
        return self.temperatures[index % len(self.temperatures)]


def _pick(value: Any, default: Any) -> Any:
    return default if value is None else value


#: Context fields of the settings' names that are not checked against the settings' ranges.
_OWN_CHECKS = frozenset({"personas", "token_budget"})


def _overridden_settings(ctx: DebateContext) -> DebateSettings:
    """``settings.debate`` with the context's overrides, checked by the settings' own fields.

    Each knob's default and range are declared once, in
    :class:`~disputatio.settings.pipelines.DebateSettings`; a context field of the same name
    only overrides it. Not so ``personas`` (checked by :func:`_personas`, with clearer
    messages) and ``token_budget`` (a run may stop far below the settings' floor).

    Raises:
        ConfigError: If an override is out of the setting's range.
    """
    d = ctx.get_settings().debate
    overrides = {
        name: value
        for name in type(d).model_fields
        if name not in _OWN_CHECKS and (value := getattr(ctx, name, None)) is not None
    }
    if not overrides:
        return d
    try:
        return type(d).model_validate({**d.model_dump(), **overrides})
    except ValidationError as exc:
        first = exc.errors()[0]
        field = ".".join(str(part) for part in first["loc"])
        raise ConfigError(f"debate: {field}: {first['msg']} (got {first['input']!r})") from None


def resolve_config(ctx: DebateContext) -> DebateConfig:
    """Merge ``ctx`` with the settings and apply the ablations.

    Raises:
        ConfigError: If a value is out of range.
    """
    s = ctx.get_settings()
    d = _overridden_settings(ctx)
    small = ctx.max_depth is None and ctx.is_local_model("orchestrator", "orchestrator")
    depth = min(d.max_depth, 1) if small else d.max_depth
    breadth = d.max_breadth
    cfg = DebateConfig(
        max_depth=0 if ctx.flat else depth,
        max_breadth=min(breadth, 3) if small else breadth,
        workers=1 if ctx.no_debate else d.workers,
        temperatures=tuple(d.worker_temperatures),
        rounds=0 if ctx.no_debate else d.rounds,
        max_tool_calls=0 if ctx.no_rag else d.max_tool_calls,
        agreement_threshold=d.agreement_threshold,
        token_budget=int(_pick(ctx.token_budget, d.token_budget)),
        use_rag=not ctx.no_rag,
        seed_k=ctx.seed_k,
        tool_k=ctx.tool_k,
        debate_tools=ctx.debate_tools,
        section_max_chars=ctx.section_max_chars,
        summary_sections=ctx.summary_sections,
        max_tokens=int(_pick(ctx.max_tokens, s.models.max_tokens)),
        review_searches=0 if ctx.no_rag else d.review_searches,
        flat_plan=small or depth == 1,
        cite_repair=ctx.cite_repair,
        shared_slot=ctx.shared_slot,
        continue_turns=bool(_pick(ctx.continue_turns, ctx.is_local_model("worker", "worker"))),
        final_verdict=ctx.final_verdict,
        verdict_last=d.verdict_last,
        personas=_personas(_pick(ctx.personas, d.personas)),
    )
    _check(cfg)
    return cfg


def _personas(value: Sequence[str]) -> tuple[str, ...]:
    """The personas as a tuple; a name must be one of ``PERSONAS``, an instruction has spaces.

    Raises:
        ConfigError: On one string instead of a list, a blank persona, or an unknown name (a
            typo would otherwise become the instruction "Your role: devil_advocate").
    """
    if isinstance(value, str):
        raise ConfigError("debate: personas must be a list of names or instructions, not a string")
    if not all(p.strip() for p in value):
        raise ConfigError("debate: personas must be non-empty strings")
    unknown = [p for p in value if " " not in p.strip() and p not in PERSONAS]
    if unknown:
        raise ConfigError(
            f"debate: unknown persona {unknown[0]!r}; use one of {', '.join(PERSONAS)} "
            "or write an instruction of your own (a sentence)"
        )
    return tuple(value)


def _check(cfg: DebateConfig) -> None:
    problems = [
        (not 1 <= cfg.workers <= len(cfg.personas), f"workers must be 1..{len(cfg.personas)}"),
        (not cfg.temperatures, "worker_temperatures must not be empty"),
        (min(cfg.seed_k, cfg.tool_k, cfg.summary_sections) < 1, "seed_k, tool_k, ... must be >= 1"),
        (cfg.section_max_chars < 50, "section_max_chars must be >= 50"),
        (cfg.max_tokens < 16, "max_tokens must be >= 16"),
    ]
    for bad, message in problems:
        if bad:
            raise ConfigError(f"debate: {message}")
