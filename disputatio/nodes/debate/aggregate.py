"""The aggregator: an internal node's answer, composed from its sub-questions' own answers.

An internal node's answer is COMPOSED, not rewritten: each sub-question's answer comes from that
sub-question's own result, keeping its verdict line and its cited sentences (an uncited claim a
sub-answer made about another sub-question is dropped) and its citations. A model rewriting the
children mixed their figures up (a held-out run kept an invented battery life from the wrong
sub-question, uncited).

A composition answers each sub-question, not the question: it names no answer option, and a
question that wants one short answer (a number, yes/no) gets several. With ``final_verdict`` (on
by default for a multiple-choice question, the graph's ``options``) one model call on the root
reads the composed sub-answers and gives the verdict on the question (an option's letter where
there are options); its verdict line heads the composed answer, which stays below it unchanged.
Otherwise no model is called.

A flat root (the question not decomposed) is answered by its own workers or summarizer, who
may still name no option ("none of the sections answers it"), where every single-agent
baseline is told to choose one. With ``final_verdict`` on such an answer gets the same one call
(:func:`choose`), reading the root's answer as its one sub-answer; its verdict line heads the
answer, which stays below it unchanged.
"""

from __future__ import annotations

import re
from statistics import fmean
from typing import Any

from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage
from langgraph.runtime import Runtime

from disputatio.models.accounting import invoke_with_usage
from disputatio.nodes.context import context_of
from disputatio.nodes.debate.agreement import lead_with_verdict
from disputatio.nodes.debate.common import make_move, text_of
from disputatio.nodes.debate.context import DebateConfig, DebateContext, resolve_config
from disputatio.nodes.debate.orchestrator import without_context
from disputatio.nodes.debate.review import node_result
from disputatio.prompts.debate import (
    CHOOSE_ONE,
    COMPOSED_PART,
    FINAL_VERDICT_SYSTEM,
    FINAL_VERDICT_USER,
    NO_ANSWER,
    SUB_ANSWER,
    VERDICT_OPTION,
    VERDICT_SHORT,
)
from disputatio.state.debate import AggregateTask, ChooseTask
from disputatio.tools.answer_text import verdict_line
from disputatio.validators.citations import (
    LEAD_CITATIONS_RE,
    extract_citations,
    verify_citations,
)
from disputatio.validators.claims import check_answer
from disputatio.validators.relevance_judge import below_floor, judge_relevance
from disputatio.validators.support import SupportChecker

#: A part of a decomposed question that no shown sentence answers.
NOT_FOUND_PART = "The documents do not answer this part."

_SENTENCE_RE = re.compile(r"(?<=[.!?])\s+(?=\S)")


def own_answer(answer: str) -> str:
    """A sub-answer reduced to what it grounds: its verdict line and its cited sentences.

    An answer that cites nothing is kept whole (there is nothing to tell claims apart by).
    """
    lines = [line for line in (answer or "").splitlines() if line.strip()]
    if not lines:
        return NO_ANSWER
    head = lines[0] if verdict_line(lines[0]) is not None else None
    body = " ".join(lines[1:] if head is not None else lines)
    sentences = _with_trailing_citations(
        _quotes_whole([s for s in _SENTENCE_RE.split(body) if s.strip()])
    )
    cited = [s for s in sentences if extract_citations(s)]
    if not cited and not (head and extract_citations(head)):
        return "\n".join(lines)
    return "\n".join(part for part in (head, " ".join(cited)) if part)


def _quotes_whole(sentences: list[str]) -> list[str]:
    """``sentences`` with a quotation that runs over several of them joined back into one.

    'The information is in section [S2], where it states: "Lessons can be moved without charge
    up to 3 times per package. After that, each further move costs 10 GBP."': its second
    sentence, uncited, was dropped with the answer (set 18's f012, 2026-12-04).
    """
    out: list[str] = []
    open_quote = False
    for sentence in sentences:
        if open_quote and out:
            out[-1] = f"{out[-1]} {sentence}"
        else:
            out.append(sentence)
        straight = sentence.count('"') % 2 == 1
        curly = sentence.count("\u201c") - sentence.count("\u201d")
        open_quote = open_quote != straight if not curly else curly > 0
    return out


def _with_trailing_citations(sentences: list[str]) -> list[str]:
    """``sentences`` with each citation written after a full stop joined to the one before.

    "… costs 451 GBP for adults. [S1]" splits into the claim and "[S1]"; left apart, the claim
    counted as uncited and was dropped from the composed answer, its citation kept alone.
    """
    out: list[str] = []
    for sentence in sentences:
        lead = LEAD_CITATIONS_RE.match(sentence)
        if lead and out:
            out[-1] = f"{out[-1]} {lead.group().strip()}"
            sentence = sentence[lead.end() :]
        if sentence.strip():
            out.append(sentence)
    return out


def _part(child: dict[str, Any]) -> str:
    """A child's own answer (a composed child is kept as it is: its parts were reduced)."""
    return child["answer"] if child.get("status") == "aggregated" else own_answer(child["answer"])


def check_parts(
    children: list[dict[str, Any]],
    sections: dict[str, dict[str, Any]],
    checker: SupportChecker | None = None,
    on_question: bool = False,
    question_words: bool = False,
    keep_unsupported: bool = False,
    relevance_floor: float = 0.0,
) -> list[dict[str, Any]]:
    """Each leaf child's answer checked claim by claim against the sections its workers saw.

    A part no shown sentence supports says so (:data:`NOT_FOUND_PART`) instead of carrying
    the model's memory into the composed answer; a composed child was checked part by part
    already and is kept. With a ``relevance_floor`` the checker's judge is asked, as the quick
    path asks it of a one-part answer, whether the leaf's supported claims answer its
    sub-question; under the floor the part says the documents do not answer it ("Can I spread
    the payment?" answered by "Lessons of 20 minutes are not offered to adults").

    Args:
        children: The children as the aggregate task holds them (``allowed_ids`` per child).
        sections: Sections by id (at least every child's allowed ones).
        checker: The support checker (default: the lexical one).
        on_question: Drop supported claims that answer a neighbouring question instead of the
            child's (``grounding.on_question``).
        question_words: Check the question's words too (``grounding.on_question_words``).
        keep_unsupported: Keep unsupported claims, flagged (no retrieval at all, ``no_rag``, or
            ``grounding.allow_unsupported``). Otherwise a part whose workers were shown nothing
            says the documents do not answer it, as one whose sections do not support it.
        relevance_floor: Refuse a part whose claims the judge gives P(answers) under this
            (``grounding.relevance_floor`` where ``grounding.judge_relevance``; 0: not asked;
            never with ``keep_unsupported``).

    Returns:
        The children with ``answer`` and ``citations`` replaced, and ``claims`` added.
    """
    out = []
    for child in children:
        if child.get("status") == "aggregated":
            out.append(child)
            continue
        shown = {i: sections[i] for i in child.get("allowed_ids") or [] if i in sections}
        report = check_answer(
            own_answer(child["answer"]),
            shown,
            checker=checker,
            part=child["id"],
            not_found_answer=NOT_FOUND_PART,
            keep_unsupported=keep_unsupported,
            question=child.get("question") if on_question else None,
            question_words=question_words,
        )
        if relevance_floor and not keep_unsupported:
            asked = without_context(child["question"])  # its part, not the whole question
            relevance = judge_relevance(asked, report, getattr(checker, "judge", None))
            report = below_floor(report, relevance, relevance_floor, NOT_FOUND_PART)
        cited = [i for c in report.claims if not c.dropped for i in c.citations]
        out.append(
            {
                **child,
                "answer": report.answer,
                "citations": list(dict.fromkeys(cited)),
                "claims": [c.model_dump(mode="json") for c in report.claims],
            }
        )
    return out


def compose(children: list[dict[str, Any]]) -> str:
    """An internal node's answer: each sub-question with its own (grounded) answer.

    A sub-question is shown without the context it was asked with (:func:`without_context`):
    "(About: <the whole question>)" in the answer was split into claims and shown as uncited
    (set 18's f012, 2026-12-04).
    """
    return "\n\n".join(
        COMPOSED_PART.format(question=without_context(c["question"]), answer=_part(c))
        for c in children
    )


def verdict_messages(state: AggregateTask, cfg: DebateConfig) -> list[BaseMessage]:
    """The final verdict's prompt: the root's question (options appended), every sub-answer."""
    children = "\n".join(
        SUB_ANSWER.format(id=c["id"], question=c["question"], answer=_part(c))
        for c in state["children"]
    )
    option = state["final_verdict"] == "option"
    form = cfg.forms["final"].format(
        answer=VERDICT_OPTION if option else VERDICT_SHORT, rule=CHOOSE_ONE if option else ""
    )
    return [
        SystemMessage(FINAL_VERDICT_SYSTEM.format(form=form)),
        HumanMessage(FINAL_VERDICT_USER.format(question=state["question"], children=children)),
    ]


def _verdict_of(reply: str) -> str:
    """The verdict line of the final verdict's reply (else its first line as the verdict)."""
    line = verdict_line(lead_with_verdict(reply))
    if line is None:
        line = next((x.strip() for x in reply.splitlines() if x.strip()), NO_ANSWER)
    return f"Verdict: {line}"


def _final_verdict(
    task: AggregateTask, runtime: Runtime[DebateContext]
) -> tuple[str, dict[str, Any]]:
    """The final verdict's call on ``task``: its ``Verdict: ...`` line and the call's usage."""
    agent = f"aggregator-{task['node']}"
    ctx = context_of(runtime, DebateContext)
    llm = ctx.agent_model(agent, "aggregator", temperature=0.0)
    messages = verdict_messages(task, resolve_config(ctx))
    reply, usage = invoke_with_usage(llm, messages, agent=agent, role="aggregator")
    return _verdict_of(text_of(reply)), usage


def aggregate(state: AggregateTask, runtime: Runtime[DebateContext]) -> dict[str, Any]:
    """Compose an internal node's answer; on the root with ``final_verdict``, head it with one."""
    node, agent = state["node"], f"aggregator-{state['node']}"
    ctx = context_of(runtime, DebateContext)
    grounding = ctx.get_settings().grounding
    children = check_parts(
        state["children"],
        state.get("part_sections") or {},
        ctx.support_checker(),
        on_question=grounding.on_question,
        question_words=grounding.on_question_words,
        keep_unsupported=ctx.no_rag or grounding.allow_unsupported,
        relevance_floor=grounding.relevance_floor if grounding.judge_relevance else 0.0,
    )
    state = {**state, "children": children}
    allowed = list(dict.fromkeys(i for c in children for i in c["citations"]))
    text = compose(children)
    update: dict[str, Any] = {}
    if state.get("final_verdict") is not None:
        line, update["usage"] = _final_verdict(state, runtime)
        text = f"{line}\n\n{text}"
    check = verify_citations(text, allowed)
    move = make_move(
        node=node, agent=agent, role="aggregator", round_=0, kind="aggregate", check=check
    )
    support = fmean(float(c["confidence"]) for c in state["children"]) if state["children"] else 0.0
    result = node_result(
        check,
        allowed,
        support,
        agreement=None,
        status="aggregated",
        debated=False,
        rounds=0,
        agent=agent,
    )
    return {**update, "transcript": [move], "results": {node: result}}


def choose(state: ChooseTask, runtime: Runtime[DebateContext]) -> dict[str, Any]:
    """Head a flat root's answer that names no option with one final verdict that names one."""
    node, agent = state["node"], f"aggregator-{state['node']}"
    result = state["result"]
    child = {
        "id": node,
        "question": state["asked"],
        "answer": result["answer"],
        "status": result.get("status"),
    }
    task: AggregateTask = {
        "node": node,
        "question": state["question"],
        "main_question": state["question"],
        "children": [child],
        "sections": [],
        "part_sections": {},
        "final_verdict": "option",
    }
    line, usage = _final_verdict(task, runtime)
    text = f"{line}\n\n{result['answer']}"
    check = verify_citations(text, list(result["allowed_ids"]))
    move = make_move(
        node=node, agent=agent, role="aggregator", round_=0, kind="verdict", check=check
    )
    chosen = {
        **result,
        "answer": check.text,
        "citations": list(check.verified),
        "unverified": list(check.unverified),
        "chosen": True,
    }
    return {"usage": usage, "transcript": [move], "results": {node: chosen}}
