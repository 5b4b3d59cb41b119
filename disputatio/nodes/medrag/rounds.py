"""Round control of the MedRAG-style debate: start, fan-out, agreement check, next round.

Routers are pure functions of the state and the run's context; they fan out with ``Send``.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from langgraph.config import get_stream_writer
from langgraph.runtime import Runtime
from langgraph.types import Send

from disputatio.errors import ConfigError
from disputatio.nodes.context import context_of
from disputatio.nodes.medrag.answers import comparable, is_numeric, resolve_answer_mode
from disputatio.nodes.medrag.context import MedragContext, resolve
from disputatio.nodes.medrag.turns import history_entry
from disputatio.state.medrag import MedragState, Summary, Turn
from disputatio.validators.base import resolve_validators


def _check_options(options: Any) -> None:
    if isinstance(options, Mapping):
        ok = bool(options) and all(str(k).strip() for k in options)
    elif isinstance(options, Sequence) and not isinstance(options, str):
        ok = bool(options) and all(isinstance(v, str) and v.strip() for v in options)
    else:
        ok = False
    if not ok:
        raise ConfigError(
            "medrag debate needs options: {'A': 'text', ...} or labels like ['yes', 'no'] "
            "(or answer_mode='numeric' for a numeric answer)"
        )


def prepare(state: MedragState, runtime: Runtime[MedragContext]) -> dict[str, Any]:
    """Validate the input, resolve its answer mode and open round 1.

    With ``answer_mode="numeric"`` the question is debated as a free number (see
    :mod:`disputatio.nodes.medrag.answers`); it needs no options, and any it has are not shown.

    Raises:
        ConfigError: If the question is empty, the answer mode is unknown, the options are
            malformed (options mode) or the context's values are out of range.
    """
    ctx = context_of(runtime, MedragContext)
    resolve(ctx)  # fail early on bad settings
    resolve_validators(ctx.validators)  # and on a bad validator spec, not after the debate
    if not str(state.get("question") or "").strip():
        raise ConfigError("medrag debate needs a non-empty question")
    mode = resolve_answer_mode(state.get("answer_mode"))
    if mode == "options":
        _check_options(state.get("options"))
    get_stream_writer()({"event": "round_start", "round": 1})
    return {
        "round": 1,
        "started_at": time.time(),
        "agreement_round": None,
        "verdict": None,
        "answer_mode": mode,
        "options": state.get("options") or [],
    }


def turns_of_round(turns: Sequence[Turn], round_: int) -> list[Turn]:
    """The turns of ``round_``, ordered by agent."""
    return sorted((t for t in turns if t.get("round") == round_), key=lambda t: t["agent"])


def _summaries_of_round(summaries: Sequence[Summary], round_: int) -> list[Summary]:
    return sorted((s for s in summaries if s.get("round") == round_), key=lambda s: s["agent"])


def fan_out_agents(state: MedragState, runtime: Runtime[MedragContext]) -> list[Send]:
    """Send one ``agent_turn`` per agent for the current round (agents run in parallel)."""
    cfg = resolve(context_of(runtime, MedragContext))
    round_ = state.get("round", 1)
    previous = {t["agent"]: t for t in turns_of_round(state.get("turns", []), round_ - 1)}
    summaries = _summaries_of_round(state.get("summaries", []), round_ - 1)
    sends = []
    for agent in cfg.agents:
        peers = [{"agent": s["agent"], "text": s["text"]} for s in summaries if s["agent"] != agent]
        payload = {
            "question": state["question"],
            "options": state["options"],
            "answer_mode": state.get("answer_mode"),
            "agent": agent,
            "round": round_,
            "peer_summaries": peers,
            "previous_choice": previous[agent].get("choice") if agent in previous else None,
            "history": _history(state.get("turns", []), agent, round_),
        }
        sends.append(Send("agent_turn", payload))
    return sends


def _history(turns: Sequence[Turn], agent: str, before: int) -> list[dict[str, Any]]:
    """``agent``'s turns before round ``before``, oldest first, as conversation entries."""
    mine = sorted(
        (t for t in turns if t["agent"] == agent and t.get("round", 0) < before),
        key=lambda t: t["round"],
    )
    return [history_entry(t) for t in mine]


def agreed_choice(
    turns: Sequence[Turn], agents: Sequence[str], *, numeric: bool = False
) -> str | None:
    """The common answer when every agent answered validly and identically, else None.

    With ``numeric`` the answers are numbers and agree when they are the same number
    (``1,000`` and ``1000.0``); the common answer is then the first agent's spelling.
    """
    by_agent = {t["agent"]: t for t in turns}
    if set(by_agent) != set(agents):
        return None
    ordered = [by_agent[agent] for agent in agents]
    if any(t.get("status") != "OK" for t in ordered):
        return None
    choices = comparable([t.get("choice") for t in ordered], numeric=numeric)
    return choices[0] if len(set(choices)) == 1 else None


def judge_round(state: MedragState, runtime: Runtime[MedragContext]) -> dict[str, Any]:
    """Check whether the agents agree in the round that just ended."""
    cfg = resolve(context_of(runtime, MedragContext))
    round_ = state.get("round", 1)
    turns = turns_of_round(state.get("turns", []), round_)
    choice = agreed_choice(turns, cfg.agents, numeric=is_numeric(state))
    get_stream_writer()(
        {
            "event": "round_done",
            "round": round_,
            "answers": {t["agent"]: t.get("choice") for t in turns},
            "agreement": choice is not None,
        }
    )
    return {"agreement_round": round_ if choice is not None else None}


def route_after_round(
    state: MedragState, runtime: Runtime[MedragContext]
) -> list[Send] | Literal["verify", "finalize"]:
    """Agreement ends the debate; otherwise summarise for the next round, or verify at the end."""
    cfg = resolve(context_of(runtime, MedragContext))
    round_ = state.get("round", 1)
    agreed = state.get("agreement_round") == round_
    if agreed and (cfg.early_stop or round_ >= cfg.rounds):
        return "finalize"
    if round_ < cfg.rounds:
        return [
            Send(
                "summarize",
                {
                    "question": state["question"],
                    "options": state["options"],
                    "answer_mode": state.get("answer_mode"),
                    "agent": t["agent"],
                    "round": round_,
                    "response": t.get("response", ""),
                    "history": _history(state.get("turns", []), t["agent"], round_ + 1),
                },
            )
            for t in turns_of_round(state.get("turns", []), round_)
        ]
    return "verify" if cfg.use_verifier else "finalize"


def next_round(state: MedragState) -> dict[str, Any]:
    """Open the next round (after the summaries are in)."""
    round_ = state.get("round", 1) + 1
    get_stream_writer()({"event": "round_start", "round": round_})
    return {"round": round_}
