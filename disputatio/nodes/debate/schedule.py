"""The scheduler hub: assesses agreement and dispatches the next phase with ``Send``.

Every worker, summarizer and aggregator task returns here, and the phases run in lock-step, so
that nothing is in flight when the scheduler looks at the state:

1. round 0: every leaf × every worker;
2. agreement per leaf (a leaf agreeing in round 0 is answered by its medoid answer, no debate);
3. debate rounds for the leaves that still disagree (bounded by ``rounds`` and the token
   budget; a leaf whose workers converge stops early);
4. reviewer → summarizer for every leaf that debated;
5. aggregation of internal nodes whose children are answered, bottom-up, up to the root;
6. with a final verdict wanted on a multiple-choice question, a flat root whose answer names
   no option gets one call that chooses one (:func:`~disputatio.nodes.debate.aggregate.choose`);
7. finalize.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from langgraph.runtime import Runtime
from langgraph.types import Command, Send

from disputatio.nodes.context import context_of
from disputatio.nodes.debate.agreement import (
    agreement_score,
    medoid,
    named_option,
    similarity_function,
)
from disputatio.nodes.debate.common import emit, latest_answers, total_tokens
from disputatio.nodes.debate.context import (
    DebateConfig,
    DebateContext,
    resolve_config,
)
from disputatio.nodes.debate.tree import leaves, ready_internal
from disputatio.state.debate import (
    ROOT,
    AggregateTask,
    ChooseTask,
    DebateState,
    ReviewTask,
    VerdictKind,
    WorkerTask,
)
from disputatio.validators.confidence import estimate_confidence

Next = Literal["worker_turn", "review", "aggregate", "choose", "finalize"]


def worker_name(node: str, index: int) -> str:
    """Agent name of worker ``index`` of leaf ``node``."""
    return f"worker-{node}-{index}"


def _consensus(
    answers: Mapping[str, Mapping[str, Any]], score: float, index: int, retrieved: Mapping[str, Any]
) -> dict[str, Any]:
    move = list(answers.values())[index]
    return {
        "answer": move["content"],
        "citations": list(move["citations"]),
        "unverified": list(move["unverified"]),
        "allowed_ids": list(retrieved.get(move["agent"], [])),
        "confidence": estimate_confidence(score, len(move["citations"]), len(move["unverified"])),
        "support": score,
        "agreement": score,
        "status": "agreed",
        "debated": False,
        "rounds": 0,
        "agent": move["agent"],
    }


def _grounded_medoid(moves: list[Mapping[str, Any]], texts: list[str], similarity: Any) -> int:
    """The agreeing answer to keep: the one citing the most verified sections, then the medoid.

    A cited answer wins over an uncited one that says the same thing.
    """
    central = medoid(texts, similarity)
    return max(range(len(moves)), key=lambda i: (len(moves[i]["citations"]), i == central, -i))


def _assess(state: DebateState, ctx: DebateContext, cfg: DebateConfig) -> dict[str, Any]:
    """Agreement of each leaf whose latest round is not assessed yet."""
    results, reviews = state.get("results") or {}, state.get("reviews") or {}
    known = state.get("agreement") or {}
    similarity = similarity_function(ctx.agreement, ctx.get_settings())
    agreement: dict[str, dict[str, Any]] = {}
    resolved: dict[str, dict[str, Any]] = {}
    for leaf in leaves(state["nodes"]):
        answers = latest_answers(state.get("transcript") or [], leaf)
        if leaf in results or leaf in reviews or not answers:
            continue
        round_ = max(m["round"] for m in answers.values())
        if known.get(leaf, {}).get("round") == round_:
            continue
        texts = [m["content"] for m in answers.values()]
        score = round(agreement_score(texts, similarity), 4)
        agreed = score >= cfg.agreement_threshold
        agreement[leaf] = {"round": round_, "score": score, "agreed": agreed}
        emit("agreement", node=leaf, round=round_, score=score, agreed=agreed)
        if agreed and round_ == 0:
            best = _grounded_medoid(list(answers.values()), texts, similarity)
            resolved[leaf] = _consensus(answers, score, best, state.get("retrieved") or {})
    return {"agreement": agreement, "results": resolved}


def _round_sends(state: DebateState, cfg: DebateConfig, todo: Mapping[str, int]) -> list[Send]:
    """One worker task per leaf in ``todo`` (leaf → round) and worker."""
    nodes, sections = state["nodes"], state.get("sections") or {}
    retrieved = state.get("retrieved") or {}
    sends = []
    for leaf, round_ in todo.items():
        answers = latest_answers(state.get("transcript") or [], leaf)
        for i in range(cfg.workers):
            agent = worker_name(leaf, i)
            others = [
                {"agent": a, "persona": m["role"], "content": m["content"]}
                for a, m in answers.items()
                if a != agent
            ]
            task: WorkerTask = {
                "node": leaf,
                "question": nodes[leaf]["question"],
                "main_question": nodes[ROOT]["question"],
                "agent": agent,
                "persona": cfg.persona(i),
                "temperature": cfg.temperature(i),
                "round": round_,
                "sections": [sections[s] for s in retrieved.get(agent, []) if s in sections],
                "previous": answers[agent]["content"] if agent in answers else None,
                "others": others,  # type: ignore[typeddict-item]
            }
            conversation = (state.get("conversations") or {}).get(agent)
            if cfg.continue_turns and conversation:
                task["conversation"] = conversation["messages"]
            sends.append(Send("worker_turn", task))
    return sends


def _leaf_sections(state: DebateState, cfg: DebateConfig, leaf: str) -> list[dict[str, Any]]:
    """Sections the leaf's workers retrieved, the cited ones first, at most summary_sections."""
    sections, retrieved = state.get("sections") or {}, state.get("retrieved") or {}
    answers = latest_answers(state.get("transcript") or [], leaf)
    ids = [c for m in answers.values() for c in m["citations"]]
    ids += [s for i in range(cfg.workers) for s in retrieved.get(worker_name(leaf, i), [])]
    unique = [s for n, s in enumerate(ids) if s in sections and s not in ids[:n]]
    return [sections[s] for s in unique[: cfg.summary_sections]]


def _host(state: DebateState, cfg: DebateConfig, leaf: str) -> tuple[str, dict[str, Any] | None]:
    """The worker whose conversation a leaf's reviewer extends, and that conversation.

    With ``continue_turns``: the worker whose last call finished last (on a shared slot, the
    conversation the slot holds); otherwise the first worker, and no conversation.
    """
    conversations = state.get("conversations") or {}
    mine = [
        (conversations[name]["done"], name)
        for name in (worker_name(leaf, i) for i in range(cfg.workers))
        if name in conversations
    ]
    if not cfg.continue_turns or not mine:
        return worker_name(leaf, 0), None
    host = max(mine)[1]
    return host, conversations[host]


def _review_sends(state: DebateState, cfg: DebateConfig, todo: list[str]) -> list[Send]:
    """One review task per leaf, hosted by one worker (:func:`_host`).

    The reviewer sees the host's sections first, in the host's order (the start of the host's
    cached conversation), then the leaf's other sections (:func:`_leaf_sections`).
    """
    nodes, agreement = state["nodes"], state.get("agreement") or {}
    sections, retrieved = state.get("sections") or {}, state.get("retrieved") or {}
    sends = []
    for leaf in todo:
        host, conversation = _host(state, cfg, leaf)
        own = [sections[s] for s in retrieved.get(host, []) if s in sections]
        ids = {s["id"] for s in own}
        more = [s for s in _leaf_sections(state, cfg, leaf) if s["id"] not in ids]
        task: ReviewTask = {
            "node": leaf,
            "question": nodes[leaf]["question"],
            "main_question": nodes[ROOT]["question"],
            "moves": [
                m
                for m in state.get("transcript") or []
                if m["node"] == leaf and m["kind"] == "answer"
            ],
            "sections": [*own, *more],
            "agreement": float(agreement.get(leaf, {}).get("score", 0.0)),
            "rounds": int(agreement.get(leaf, {}).get("round", 0)),
            "host": host,
            "shared": len(own),
        }
        if conversation:
            task["conversation"] = conversation["messages"]
        sends.append(Send("review", task))
    return sends


def _verdict_kind(state: DebateState, cfg: DebateConfig) -> VerdictKind | None:
    """What the root's final verdict names, if one is wanted (``final_verdict``)."""
    has_options = bool(state.get("options"))
    wanted = has_options if cfg.final_verdict is None else cfg.final_verdict
    if not wanted:
        return None
    return "option" if has_options else "short"


def _choose_send(state: DebateState, cfg: DebateConfig) -> Send | None:
    """The one choosing call for a flat root whose answer names no option (else None).

    Only with an option verdict wanted, and once (a chosen result is marked ``chosen``).
    """
    root = (state.get("results") or {}).get(ROOT)
    options = state.get("options") or {}
    if root is None or root.get("chosen") or state["nodes"][ROOT]["children"]:
        return None
    if _verdict_kind(state, cfg) != "option" or named_option(root["answer"], options):
        return None
    task: ChooseTask = {
        "node": ROOT,
        "question": state["nodes"][ROOT]["question"],
        "asked": state.get("question") or state["nodes"][ROOT]["question"],
        "result": root,
    }
    return Send("choose", task)


def _aggregate_sends(state: DebateState, cfg: DebateConfig, todo: list[str]) -> list[Send]:
    nodes, results = state["nodes"], state.get("results") or {}
    sections = state.get("sections") or {}
    sends = []
    verdict = _verdict_kind(state, cfg)
    for nid in todo:
        children = [
            {
                "id": c,
                "question": nodes[c]["question"],
                "answer": results[c]["answer"],
                "citations": results[c]["citations"],
                "allowed_ids": results[c].get("allowed_ids") or [],
                "confidence": results[c]["confidence"],
                "status": results[c].get("status"),
            }
            for c in nodes[nid]["children"]
        ]
        shown = {i for ch in children for i in ch["allowed_ids"] if i in sections}
        cited = list(dict.fromkeys(i for ch in children for i in ch["citations"] if i in sections))
        task: AggregateTask = {
            "node": nid,
            "question": nodes[nid]["question"],
            "main_question": nodes[ROOT]["question"],
            "children": children,
            "sections": [sections[i] for i in cited[: cfg.summary_sections]],
            "part_sections": {i: sections[i] for i in sorted(shown)},
            "final_verdict": verdict if nid == ROOT else None,
        }
        sends.append(Send("aggregate", task))
    return sends


def _plan(state: DebateState, cfg: DebateConfig, notes: list[str]) -> list[Send] | Next:
    """The next phase, from a state that already holds this step's assessments."""
    transcript = state.get("transcript") or []
    results, reviews = state.get("results") or {}, state.get("reviews") or {}
    agreement = state.get("agreement") or {}
    leaf_ids = leaves(state["nodes"])
    fresh = [leaf for leaf in leaf_ids if not latest_answers(transcript, leaf)]
    if fresh:
        return _round_sends(state, cfg, dict.fromkeys(fresh, 0))
    pending = [leaf for leaf in leaf_ids if leaf not in results and leaf not in reviews]
    debating = [
        leaf
        for leaf in pending
        if not agreement[leaf]["agreed"] and agreement[leaf]["round"] < cfg.rounds
    ]
    if debating and total_tokens(state.get("usage")) >= cfg.token_budget:
        notes.append(f"token budget {cfg.token_budget} reached: debate stopped early")
        emit("budget", tokens=total_tokens(state.get("usage")), budget=cfg.token_budget)
        debating = []
    if debating:
        return _round_sends(state, cfg, {d: agreement[d]["round"] + 1 for d in debating})
    if pending:
        return _review_sends(state, cfg, pending)
    ready = ready_internal(state["nodes"], results)
    if ready:
        return _aggregate_sends(state, cfg, ready)
    choose = _choose_send(state, cfg)
    return [choose] if choose is not None else "finalize"


def schedule(state: DebateState, runtime: Runtime[DebateContext]) -> Command[Next]:
    """Assess agreement, then send the next phase's tasks (or go to ``finalize``)."""
    ctx = context_of(runtime, DebateContext)
    cfg = resolve_config(ctx)
    update = _assess(state, ctx, cfg)
    merged: DebateState = {
        **state,
        "agreement": {**(state.get("agreement") or {}), **update["agreement"]},
        "results": {**(state.get("results") or {}), **update["results"]},
    }
    notes: list[str] = []
    goto = _plan(merged, cfg, notes)
    if notes:
        update["notes"] = notes
    return Command(update=update, goto=goto)
