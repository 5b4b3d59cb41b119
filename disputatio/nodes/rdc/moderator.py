"""The moderator: seeds the debate, runs the phases, picks speakers and decides when to stop.

Each round runs the phases challenges → rebuttal → cross-examination, each with
``turns_per_phase`` turns (default: one per specialist). Halting is checked at the start of every
round (after seeding too), in this order: round budget (``round > max_rounds``), entropy of the
differential below ``entropy_stop``, EIG of the best admissible test below ``voi_stop`` (only when
the case has admissible tests). Before every turn: the token budget, then the entropy drop per
step (each of the last ``stall_turns`` turns dropped the entropy by less than
``min_entropy_drop`` nats: the debate has stalled). Any halt leads to
the vote; the appeal (see :mod:`.vote`) comes back here for its queued turns.
"""

from __future__ import annotations

import uuid
from dataclasses import asdict
from typing import Any, Literal

from langgraph.runtime import Runtime
from langgraph.types import Command, Send

from disputatio.argumentation import entropy_nats
from disputatio.errors import ConfigError
from disputatio.nodes.context import context_of
from disputatio.nodes.rdc import speakers
from disputatio.nodes.rdc.analysis import best_eig, differential
from disputatio.nodes.rdc.case import candidate_tests, load_case, resolve_specialists, seed_graph
from disputatio.nodes.rdc.context import RdcConfig, RdcContext, tokens_used
from disputatio.nodes.rdc.memory import agent_priors
from disputatio.nodes.rdc.outbox import entry, flush
from disputatio.state.rdc import ROUND_PHASES, RdcState
from disputatio.storage.ledger import jsonable


def seed(state: RdcState, runtime: Runtime[RdcContext]) -> dict[str, Any]:
    """Validate the case, build the seeded debate graph and open the ledger thread.

    Raises:
        ConfigError: On an invalid case, or a thread that already holds a debate.
    """
    if state.get("run_id"):
        raise ConfigError("this thread already holds a debate: start a new thread id")
    ctx = context_of(runtime, RdcContext)
    cfg = ctx.config()
    case = load_case(state["case"])
    specs = resolve_specialists(case, ctx.specialists, ctx.max_specialists)
    graph = seed_graph(case, cfg.quality_alpha, cfg.semantics, ctx.get_settings().rdc.reliabilities)
    _, posterior = differential(graph, cfg.quality_alpha, cfg.semantics, cfg.label_consistency)
    eig = best_eig(posterior, candidate_tests(case), cfg.max_risk)
    run_id = uuid.uuid4().hex
    info = runtime.execution_info
    thread = (info.thread_id if info else None) or state.get("thread_id") or f"rdc-{run_id}"
    entropy = entropy_nats(posterior)
    names = [s.name for s in specs]
    tenant = ctx.get_settings().run_tenant(ctx.tenant)
    priors = agent_priors(runtime.store if cfg.memory else None, tenant, names)
    payload = {
        "case": case.model_dump(mode="json"),
        "specialists": [s.model_dump() for s in specs],
        "config": asdict(cfg),
        "graph": graph.to_dict(),
        "posterior": posterior,
        "entropy": entropy,
        "agent_priors": priors,
    }
    runtime.stream_writer({"event": "seeded", "thread": thread, "posterior": posterior})
    return {
        "case": case.model_dump(mode="json"),
        "run_id": run_id,
        "ledger_thread": thread,
        "specialists": [s.model_dump() for s in specs],
        "graph": graph.to_dict(),
        "phase": "seeding",
        "phase_log": ["seeding"],
        "round": 1,
        "turn_in_phase": 0,
        "turns": 0,
        "appeal_queue": [],
        "appeals": 0,
        "rr_cursor": 0,
        "agent_priors": priors,
        "bandit": speakers.new_bandit(cfg.linucb_alpha, {a: p["gain"] for a, p in priors.items()}),
        "posterior": posterior,
        "entropy": entropy,
        "best_eig": eig,
        "vote_round": 0,
        "ledger_cursor": 0,
        "outbox": [entry(f"{run_id}:seed", "seed", payload)],
    }


def round_halt(state: RdcState, cfg: RdcConfig, round_: int) -> str | None:
    """Return why the debate stops at the start of round ``round_`` (None: go on)."""
    if round_ > cfg.max_rounds:
        return "budget_rounds"
    if state["entropy"] < cfg.entropy_stop:
        return "entropy"
    eig = state["best_eig"]
    if eig is not None and eig < cfg.voi_stop:
        return "voi"
    return None


def moderator(
    state: RdcState, runtime: Runtime[RdcContext]
) -> Command[Literal["specialist", "vote"]]:
    """Flush the ledger outbox, then dispatch the next turn or move on to the vote."""
    ctx = context_of(runtime, RdcContext)
    cfg = ctx.config()
    cursor = flush(
        ctx.get_ledger(), state["ledger_thread"], state["outbox"], state["ledger_cursor"]
    )
    update: dict[str, Any] = {"ledger_cursor": cursor}
    names = [s["name"] for s in state["specialists"]]
    if state["phase"] == "appeal":
        queue = state.get("appeal_queue") or []
        if not queue or _over_budget(state, cfg):
            return to_vote(state, update, None)
        update["appeal_queue"] = queue[1:]
        runtime.stream_writer(
            {"event": "turn", "agent": queue[0], "phase": "appeal", "round": state["round"]}
        )
        return _dispatch(state, update, "appeal", queue[0])
    phase, round_, turn = state["phase"], state["round"], state["turn_in_phase"]
    start_of_round = phase == "seeding"
    if phase == "seeding":
        phase, turn = ROUND_PHASES[0], 0
    elif turn >= (cfg.turns_per_phase or len(names)):
        pos = ROUND_PHASES.index(phase) + 1
        if pos == len(ROUND_PHASES):
            round_, pos, start_of_round = round_ + 1, 0, True
        phase, turn = ROUND_PHASES[pos], 0
    if start_of_round:
        reason = round_halt(state, cfg, round_)
        if reason is not None:
            runtime.stream_writer({"event": "halt", "reason": reason})
            return to_vote(state, update, reason)
    if _over_budget(state, cfg):
        runtime.stream_writer({"event": "halt", "reason": "budget_tokens"})
        return to_vote(state, update, "budget_tokens")
    if stalled(state, cfg):
        runtime.stream_writer({"event": "halt", "reason": "entropy_drop"})
        return to_vote(state, update, "entropy_drop")
    if phase != state["phase"]:
        update["phase_log"] = [phase]
    update.update({"phase": phase, "round": round_, "turn_in_phase": turn + 1})
    if cfg.speaker_selection in ("linucb", "thompson"):
        shared = speakers.context_vector(
            state["entropy"], len(state["posterior"]), phase, round_, cfg.max_rounds
        )
        bandit = state["bandit"]
        contexts = speakers.arm_contexts(names, bandit, shared, bandit.get("prior_gain"))
        speaker, scores = speakers.select(cfg.speaker_selection, names, bandit, contexts, cfg.seed)
        pending = {"arm": speaker, "context": contexts[speaker]}
        update["bandit"] = {**bandit, "pending": pending}
        runtime.stream_writer({"event": "bandit", "speaker": speaker, "bounds": scores})
    else:
        speaker = speakers.round_robin(names, state["rr_cursor"])
        update["rr_cursor"] = state["rr_cursor"] + 1
    runtime.stream_writer({"event": "turn", "agent": speaker, "phase": phase, "round": round_})
    return _dispatch(state, update, phase, speaker)


def stalled(state: RdcState, cfg: RdcConfig) -> bool:
    """Return whether the debate stalled (the per-step halt).

    It has when each of the last ``stall_turns`` turns dropped the entropy by less than
    ``min_entropy_drop`` nats; off when ``min_entropy_drop`` is 0.
    """
    moves = state.get("moves") or []
    if cfg.min_entropy_drop <= 0.0 or len(moves) < cfg.stall_turns:
        return False
    return all(
        m["entropy_before"] - m["entropy_after"] < cfg.min_entropy_drop
        for m in moves[-cfg.stall_turns :]
    )


def _over_budget(state: RdcState, cfg: RdcConfig) -> bool:
    return cfg.token_budget is not None and tokens_used(state.get("usage")) >= cfg.token_budget


def _dispatch(
    state: RdcState, update: dict[str, Any], phase: str, speaker: str
) -> Command[Literal["specialist", "vote"]]:
    if phase == "appeal":
        update["phase"] = "appeal"
    update["speaker"] = speaker
    return Command(update=update, goto="specialist")


def to_vote(
    state: RdcState, update: dict[str, Any], reason: str | None
) -> Command[Literal["specialist", "vote"]]:
    """Open a vote round: one ``vote`` task per specialist (``Send``)."""
    vote_round = state["vote_round"] + 1
    update.update({"phase": "vote", "phase_log": ["vote"], "vote_round": vote_round})
    if reason is not None:
        update["halt_reason"] = reason
        halt = {
            "reason": reason,
            "round": state["round"],
            "turns": state["turns"],
            "entropy": state["entropy"],
            "best_eig": state["best_eig"],
            "tokens": tokens_used(state.get("usage")),
        }
        update["outbox"] = [entry(f"{state['run_id']}:halt", "halt", jsonable(halt))]
    shared = {
        "case": state["case"],
        "graph": state["graph"],
        "posterior": state["posterior"],
        "specialists": state["specialists"],
        "run_id": state["run_id"],
        "vote_round": vote_round,
    }
    sends = [Send("vote", {**shared, "speaker": s["name"]}) for s in state["specialists"]]
    return Command(update=update, goto=sends)
