"""The end of the MedRAG-style debate: the verifier, the fallbacks and the per-question log.

Decision order (the first that yields a valid option wins):

1. ``agreement``: every agent gave the same valid answer in the last round;
2. ``verifier``: an LLM judge over the cleaned, truncated debate gave a valid answer;
3. ``majority_vote``: one valid answer is strictly the most frequent over all rounds and agents
   (:func:`disputatio.parsing.answers.majority_vote`);
4. ``agent1_fallback``: on a tie, Agent1's last valid answer (if it never gave one, the tied
   answer seen first, still recorded as ``majority_vote``);
5. ``failed``: no agent ever gave a valid answer; the answer is None.

In numeric mode (a question without options) the answers are numbers: agreement, the vote and
the fallback count equal numbers together (``1,000`` = ``1000.0``), and the verifier is asked
for the correct final number (any number it gives is valid).
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from langgraph.config import get_stream_writer
from langgraph.runtime import Runtime

from disputatio.models.accounting import invoke_with_usage
from disputatio.nodes.context import context_of
from disputatio.nodes.medrag.answers import comparable, is_numeric, parse_reply, same_answer
from disputatio.nodes.medrag.context import MedragContext, resolve
from disputatio.nodes.medrag.rounds import agreed_choice, turns_of_round
from disputatio.nodes.medrag.text import (
    clean_response,
    debate_transcript,
    final_answers,
    verifier_messages,
)
from disputatio.parsing.answers import majority_vote
from disputatio.state.medrag import SEED_CONSENSUS, ConsensusType, MedragState, Turn, Verdict
from disputatio.tools.answer_text import clean_text, drop_unfinished_tail, message_text
from disputatio.validators.base import ValidationContext, resolve_validators, run_validators
from disputatio.validators.claims import claims_of

#: Fields of a section kept in a citation.
CITATION_FIELDS = ("id", "source", "title", "page", "heading_path", "document_id")


def verify(state: MedragState, runtime: Runtime[MedragContext]) -> dict[str, Any]:
    """Ask the verifier to pick the answer of a debate that ended without agreement.

    It sees every agent's final choice and the debate cut to ``verifier_max_chars`` from its
    start, each turn keeping its answer line.
    """
    ctx = context_of(runtime, MedragContext)
    cfg = resolve(ctx)
    turns = state.get("turns", [])
    answers = final_answers(turns, cfg.agents)
    transcript = debate_transcript(turns, max(200, cfg.verifier_max_chars - len(answers)))
    numeric = is_numeric(state)
    messages = verifier_messages(
        question=state["question"],
        options=state.get("options") or [],
        transcript=transcript,
        answers=answers,
        numeric=numeric,
    )
    llm = ctx.chat_model(
        "verifier",
        role="verifier",
        temperature=cfg.verifier_temperature,
        max_tokens=cfg.max_tokens,
        stop=list(cfg.stop) or None,
        repetition_penalty=cfg.repetition_penalty,
    )
    reply, usage = invoke_with_usage(llm, messages, agent="verifier", role="verifier")
    raw = clean_text(message_text(reply))
    parsed = parse_reply(raw, state.get("options") or [], numeric=numeric)
    text = clean_response(raw, cfg.response_max_chars)
    ms = float(usage["verifier"]["latency_ms"])
    verdict = Verdict(
        response=text,
        choice=parsed.choice,
        status=parsed.status,
        pattern=parsed.pattern,
        transcript_chars=len(transcript) + len(answers),
        ms=ms,
        usage=usage,
    )
    get_stream_writer()({"event": "verdict", "choice": parsed.choice, "status": parsed.status})
    move = {
        "node": "root",
        "agent": "verifier",
        "role": "verifier",
        "round": state.get("round", 1),
        "kind": "verdict",
        "content": text,
        "citations": [],
        "unverified": [],
        "queries": [],
    }
    return {
        "verdict": verdict,
        "usage": usage,
        "timings": [{"step": "verify", "ms": ms}],
        "transcript": [move],
    }


def decide(
    turns: Sequence[Turn],
    verdict: Verdict | None,
    agents: Sequence[str],
    last_round: int,
    *,
    numeric: bool = False,
) -> tuple[str | None, ConsensusType]:
    """Apply the decision order of the module docstring.

    Args:
        turns: Every turn of the debate.
        verdict: The verifier's reply, if it was asked.
        agents: Agent names; ``agents[0]`` is Agent1.
        last_round: The last round that was played.
        numeric: Answers are numbers: equal numbers count as one answer (spelled as the
            first turn that gave it, in round then agent order).

    Returns:
        ``(answer, consensus_type)``.
    """
    agreed = agreed_choice(turns_of_round(turns, last_round), agents, numeric=numeric)
    if agreed is not None:
        return agreed, "agreement"
    rank = {agent: i for i, agent in enumerate(agents)}
    ordered = sorted(turns, key=lambda t: (t.get("round", 0), rank.get(t["agent"], len(rank))))
    ok = [t for t in ordered if t.get("status") == "OK" and t.get("choice")]
    if verdict is not None and verdict.get("status") == "OK" and verdict.get("choice"):
        # the verifier's number in an agent's spelling when it is one of theirs
        pool = comparable([*(t["choice"] for t in ok), verdict["choice"]], numeric=numeric)
        return pool[-1] or verdict["choice"], "verifier"
    valid = [c for c in comparable([t["choice"] for t in ok], numeric=numeric) if c]
    winner = majority_vote(valid)
    if winner is None:
        return None, "failed"
    counts = Counter(valid).most_common(2)
    if len(counts) == 1 or counts[0][1] > counts[1][1]:
        return winner, "majority_vote"
    agent1 = [c for t, c in zip(ok, valid, strict=True) if t["agent"] == agents[0]]
    if agent1 and agent1[-1]:
        return agent1[-1], "agent1_fallback"
    return winner, "majority_vote"


def answers_per_round(
    turns: Sequence[Turn], agents: Sequence[str], *, numeric: bool = False
) -> list[dict[str, Any]]:
    """``[{round, answers: {agent: choice}, statuses: {agent: status}, agreement}]``."""
    rounds = sorted({t["round"] for t in turns})
    out = []
    for r in rounds:
        these = turns_of_round(turns, r)
        out.append(
            {
                "round": r,
                "answers": {t["agent"]: t.get("choice") for t in these},
                "statuses": {t["agent"]: t.get("status") for t in these},
                "agreement": agreed_choice(these, agents, numeric=numeric) is not None,
            }
        )
    return out


def _history_entry(t: Mapping[str, Any], summary: str | None) -> dict[str, Any]:
    """One debater turn of the log: the seed's ``answer`` block plus our own fields."""
    return {
        "agent": t["agent"],
        "role": "debater",
        "round": t["round"],
        "temperature": t.get("temperature"),
        "query": t.get("retrieval", {}).get("query"),
        "query_source": t.get("retrieval", {}).get("query_source"),
        "retrieval_error": t.get("retrieval_error", False),
        "answer": {
            "step_by_step_thinking": t.get("response", ""),
            "answer_choice": t.get("choice"),
            "retrieval_time": t.get("retrieval_time", 0.0),
            "generation_time": t.get("generation_time", 0.0),
        },
        "response": t.get("response", ""),
        "choice": t.get("choice"),
        "status": t.get("status"),
        "pattern": t.get("pattern"),
        "citations": t.get("citations", []),
        "summary": summary,
        "usage": t.get("usage", {}).get(t["agent"], {}),
    }


def _summary_entry(s: Mapping[str, Any]) -> dict[str, Any]:
    """One round summary of the log (the summarizer's usage, if it was a model call)."""
    return {
        "agent": s["agent"],
        "round": s["round"],
        "text": s.get("text", ""),
        "llm": s.get("llm", False),
        "usage": next(iter(s.get("usage", {}).values()), {}),
    }


def build_log(
    state: MedragState,
    answer: str | None,
    consensus: str,
    wall_ms: float,
    agents: Sequence[str],
    mode: str = "debate_rag",
    *,
    numeric: bool = False,
) -> dict[str, Any]:
    """The per-question log in the seed's shape, plus answers per round and retrieval results.

    Seed keys: ``mode``; ``history[]`` with ``answer {step_by_step_thinking, answer_choice,
    retrieval_time, generation_time}``; ``final_answer {answer_choice, consensus_type}``
    (``consensus_type`` in the seed's names: ``verification_consensus`` for the verifier, see
    :data:`~disputatio.state.medrag.SEED_CONSENSUS`); ``timing`` in seconds.
    """
    rank = {agent: i for i, agent in enumerate(agents)}
    turns = sorted(state.get("turns", []), key=lambda t: (t["round"], rank.get(t["agent"], 0)))
    summary_records = sorted(
        state.get("summaries", []), key=lambda s: (s["round"], rank.get(s["agent"], 0))
    )
    summaries = {(s["agent"], s["round"]): s.get("text", "") for s in summary_records}
    history = [_history_entry(t, summaries.get((t["agent"], t["round"]))) for t in turns]
    verdict = state.get("verdict")
    retrieval = [
        {"agent": t["agent"], "round": t["round"], **t.get("retrieval", {})} for t in turns
    ]
    retrieval_s = sum(float(t.get("retrieval_time", 0.0)) for t in turns)
    generation_s = sum(float(t.get("generation_time", 0.0)) for t in turns)
    return {
        "question_id": state.get("question_id"),
        "question": state.get("question"),
        "options": state.get("options"),
        "mode": mode,
        "final_answer": {
            "answer_choice": answer,
            "consensus_type": SEED_CONSENSUS.get(consensus, consensus),
            "agreement_round": state.get("agreement_round"),
            "verifier_choice": (verdict or {}).get("choice"),
            "rounds_run": state.get("round", 1),
        },
        "timing": {
            "total_time": round(wall_ms / 1000.0, 3),
            "retrieval_time": round(retrieval_s, 3),
            "generation_time": round(generation_s, 3),
            "verifier_time": round(float((verdict or {}).get("ms", 0.0)) / 1000.0, 3),
        },
        "notes": list(state.get("notes", [])),
        "answer": answer,
        "consensus_type": consensus,
        "agreement_round": state.get("agreement_round"),
        "rounds_run": state.get("round", 1),
        "history": history,
        "answers_per_round": answers_per_round(turns, agents, numeric=numeric),
        "summaries": [_summary_entry(s) for s in summary_records],
        "verifier": state.get("verdict"),
        "retrieval": retrieval,
        "timings": {"steps": list(state.get("timings", [])), "total_ms": wall_ms},
        "usage": state.get("usage", {}),
    }


def answer_citations(
    turns: Sequence[Turn],
    answer: str | None,
    sections: dict[str, dict[str, Any]],
    *,
    numeric: bool = False,
) -> list[dict[str, Any]]:
    """Verified citations of the final answer: what the last turns that chose it cited."""
    if answer is None:
        return []
    last: dict[str, Turn] = {}
    for t in sorted(turns, key=lambda t: t.get("round", 0)):
        last[t["agent"]] = t
    ids = list(
        dict.fromkeys(
            cid
            for t in last.values()
            if t.get("status") == "OK" and same_answer(t.get("choice"), answer, numeric=numeric)
            for cid in t.get("citations", [])
        )
    )
    return [
        {k: sections[i].get(k) for k in CITATION_FIELDS} if i in sections else {"id": i}
        for i in ids
    ]


def _checkable(turn: Turn) -> str:
    """A supporting turn's reply as its claims are checked: without a cut-off last sentence."""
    text = turn.get("response", "")
    return drop_unfinished_tail(text) if turn.get("cut") else text


def validate_answer(
    state: MedragState, ctx: MedragContext, answer: str | None, agents: Sequence[str]
) -> tuple[list[dict[str, Any]], float | None]:
    """Run the validation hooks on the final answer and its supporting turns.

    The text checked is the answer label followed by the last reply of each agent that chose
    it (citations as section ids); ``allowed_ids`` are the sections those agents were shown;
    ``agreement`` is the share of agents whose last answer is the final one.

    Returns:
        ``(validation results as dicts, confidence score or None)``.
    """
    turns = state.get("turns", [])
    numeric = is_numeric(state)
    last: dict[str, Turn] = {}
    for t in sorted(turns, key=lambda t: t.get("round", 0)):
        last[t["agent"]] = t
    support = [
        t
        for t in last.values()
        if answer is not None
        and t.get("status") == "OK"
        and same_answer(t.get("choice"), answer, numeric=numeric)
    ]
    text = "\n".join([f"Answer: {answer}", *(_checkable(t) for t in support)])
    allowed = list(dict.fromkeys(i for t in support for i in (t.get("labels") or {}).values()))
    vctx = ValidationContext(
        question=str(state.get("question") or ""),
        allowed_ids=allowed,
        sections=dict(state.get("sections") or {}),
        agreement=len(support) / len(agents) if agents else None,
        unverified=[u for t in support for u in t.get("unverified", [])],
        transcript=list(state.get("transcript") or []),
        extra={
            "options": state.get("options"),
            "answer": answer,
            "support_checker": ctx.support_checker(),
            "grounding": ctx.get_settings().grounding,
        },
    )
    checks = run_validators(resolve_validators(ctx.validators), text, vctx, ctx.error_handler)
    scores = [c.score for c in checks if c.name == "confidence" and c.score is not None]
    return [c.model_dump(mode="json") for c in checks], (scores[-1] if scores else None)


def finalize(state: MedragState, runtime: Runtime[MedragContext]) -> dict[str, Any]:
    """Choose the final answer, its citations, validate it and assemble the per-question log."""
    ctx = context_of(runtime, MedragContext)
    cfg = resolve(ctx)
    turns = state.get("turns", [])
    numeric = is_numeric(state)
    answer, consensus = decide(
        turns, state.get("verdict"), cfg.agents, state.get("round", 1), numeric=numeric
    )
    wall_ms = (time.time() - state.get("started_at", time.time())) * 1000.0
    citations = answer_citations(turns, answer, state.get("sections") or {}, numeric=numeric)
    validation, confidence = validate_answer(state, ctx, answer, cfg.agents)
    get_stream_writer()({"event": "done", "answer": answer, "consensus_type": consensus})
    mode = "debate_rag" if cfg.use_retrieval else "debate"
    log = build_log(state, answer, consensus, wall_ms, cfg.agents, mode, numeric=numeric)
    log["validation"] = validation
    update: dict[str, Any] = {
        "answer": answer,
        "consensus_type": consensus,
        "citations": citations,
        "validation": validation,
        "claims": claims_of(validation),
        "log": log,
    }
    if confidence is not None:
        update["confidence"] = confidence
    return update
