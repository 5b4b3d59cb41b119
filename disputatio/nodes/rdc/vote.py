"""The vote (one parallel task per specialist) and its tally, which may open an appeal.

A vote is a probability vector over the hypotheses (normalised; its ranking follows from it), or
a bare ranking from a model that gives none. An appeal is held when it is enabled, fewer than
``max_appeals`` were held, the disagreement index of the vote is at least ``appeal_threshold``,
and some specialist's top choice differs from the top of the differential. It runs on the *top
conflict pair* (:func:`disputatio.nodes.rdc.analysis.conflict_pair`: the differential's top
against the hypothesis the votes favour most among the others): the first voter whose top
choice is the challenger and the first whose top choice is the leader (if any) get one
``appeal`` turn each on that pair, then everyone votes again. The jury reads the last round.
"""

from __future__ import annotations

import logging
from typing import Any, Literal

from langgraph.runtime import Runtime
from langgraph.types import Command

from disputatio.argumentation import DebateGraph
from disputatio.errors import ModelError
from disputatio.models.structured import structured_invoke
from disputatio.nodes.context import context_of
from disputatio.nodes.rdc.analysis import conflict_pair, jury_disagreement, ordered_differential
from disputatio.nodes.rdc.case import hypothesis_aliases, load_case
from disputatio.nodes.rdc.context import RdcContext
from disputatio.nodes.rdc.moves import clean_id
from disputatio.nodes.rdc.outbox import entry, flush, prompt_sha256
from disputatio.nodes.rdc.render import vote_messages
from disputatio.nodes.rdc.specialist import find_spec
from disputatio.state.rdc import RdcState, SpecialistVote

logger = logging.getLogger(__name__)


def vote(state: RdcState, runtime: Runtime[RdcContext]) -> dict[str, Any]:
    """Ask one specialist (``state["speaker"]``, sent by the moderator) for its ranking.

    Unknown hypothesis names are dropped, repeats collapse to their first place; a specialist
    whose model gives no valid vote abstains (logged and recorded).
    """
    ctx = context_of(runtime, RdcContext)
    cfg = ctx.config()
    case = load_case(state["case"])
    spec = find_spec(state, state["speaker"])
    graph = DebateGraph.from_dict(state["graph"])
    messages = vote_messages(case, spec, graph, state["posterior"], cfg.graph_lines)
    llm = ctx.chat_model(
        spec.name, role="specialist", temperature=cfg.temperature, max_tokens=cfg.max_tokens
    )
    record: dict[str, Any] = {"speaker": spec.name, "vote_round": state["vote_round"]}
    usage: dict[str, dict[str, Any]] = {}
    try:
        ballot, usage = structured_invoke(
            llm, SpecialistVote, messages, agent=spec.name, role="specialist", retries=cfg.retries
        )
        aliases = hypothesis_aliases(case)
        mass: dict[str, float] = {}
        for share in ballot.probabilities:
            h = aliases.get(clean_id(share.hypothesis).lower())
            if h is not None:
                mass[h] = mass.get(h, 0.0) + share.probability
        total = sum(mass.values())
        if total > 0.0:
            dist = {h.id: mass.get(h.id, 0.0) / total for h in case.hypotheses}
            record["distribution"] = dist
            record["ranking"] = sorted((h for h in dist if dist[h] > 0), key=lambda h: -dist[h])
        else:
            ranked = [aliases.get(clean_id(h).lower()) for h in ballot.ranking]
            record["ranking"] = list(dict.fromkeys(h for h in ranked if h is not None))
        record["rationale"] = ballot.rationale
    except ModelError as exc:
        logger.warning("rdc: %s abstains: %s", spec.name, exc.message)
        record.update({"ranking": [], "rationale": "", "error": exc.message})
    key = f"{state['run_id']}:v{state['vote_round']}:{spec.name}"
    runtime.stream_writer({"event": "vote", **record})
    return {
        "votes": [record],
        "usage": usage,
        "outbox": [
            entry(f"{key}:prompt", "prompt", {**record, "sha256": prompt_sha256(messages)}),
            entry(f"{key}:vote", "vote", record),
        ],
    }


def tally(state: RdcState, runtime: Runtime[RdcContext]) -> Command[Literal["moderator", "jury"]]:
    """Flush the ledger, measure the disagreement of the vote and hold an appeal if warranted."""
    ctx = context_of(runtime, RdcContext)
    cfg = ctx.config()
    cursor = flush(
        ctx.get_ledger(), state["ledger_thread"], state["outbox"], state["ledger_cursor"]
    )
    hyps = list(state["posterior"])
    votes = [v for v in state.get("votes", []) if v["vote_round"] == state["vote_round"]]
    votes.sort(key=lambda v: [s["name"] for s in state["specialists"]].index(v["speaker"]))
    split = jury_disagreement(votes, hyps)
    top = ordered_differential(state["posterior"])[0]
    dissenters = [v["speaker"] for v in votes if v["ranking"] and v["ranking"][0] != top]
    pair = conflict_pair(state["posterior"], votes)
    appeal = (
        cfg.appeal
        and state["appeals"] < cfg.max_appeals
        and split is not None
        and split["index"] >= cfg.appeal_threshold
        and bool(dissenters)
        and pair is not None
    )
    queue: list[str] = []
    if appeal and pair is not None:
        for side in (pair[1], pair[0]):  # the challenger's advocate first, then the leader's
            first = next((v["speaker"] for v in votes if v["ranking"][:1] == [side]), None)
            if first is not None and first not in queue:
                queue.append(first)
        appeal = bool(queue)
    payload = {
        "vote_round": state["vote_round"],
        "disagreement": split,
        "appeal": appeal,
        "conflict_pair": list(pair) if pair else None,
    }
    out = [entry(f"{state['run_id']}:tally{state['vote_round']}", "tally", payload)]
    update: dict[str, Any] = {"ledger_cursor": cursor, "outbox": out}
    if appeal:
        update.update(
            {
                "phase": "appeal",
                "phase_log": ["appeal"],
                "appeal_queue": queue,
                "appeal_pair": list(pair) if pair else [],
                "appeals": state["appeals"] + 1,
            }
        )
        runtime.stream_writer({"event": "appeal", "speakers": queue, "pair": pair})
        return Command(update=update, goto="moderator")
    update.update({"phase": "jury", "phase_log": ["jury"]})
    return Command(update=update, goto="jury")
