"""The orchestrator: decomposes the question into a bounded tree of sub-questions.

Sub-questions are answered on their own (a worker sees only its node's question), so one that
points back at the main question ("How often must *its* temperature channel be calibrated?")
loses its subject. After decomposition a deterministic guard (:func:`self_contained`) repairs
such a sub-question and records a note:

- *refers back*: it holds a pronoun or possessive (it, its, they, them, their, he, she...) or a
  demonstrative (this, that, these, those) that is not followed by a function word (so "that
  device" and "What causes this?" refer back; an "it" standing for nothing does not: "Is it
  true that …", "What does it cost to …", "How long does it take for … to …");
- *names no subject*: it shares none of the main question's *anchors*, the words that name what
  the main question is about: its name-like words (letters with a digit, or an upper-case
  letter past the first word: "CTD-41", "Marie", "FAISS"; a bare number is none) and the
  words of its possessor ("the sensor's").
  A main question without anchors gives the guard nothing to look for, and every sub-question
  that refers back is repaired (the repair only adds context).

Repair: when the main question names exactly one possessor cleanly ("the CTD-41's ...": an
article or a function word before it, or only name-like words) and the sub-question says
"its", every "its" becomes that possessor ("the CTD-41's"); otherwise the main question is
appended as context: ``"<sub-question> (About: <main question>)"``. Level-1 sub-questions refer
to the user's question (without its options), deeper ones to their parent's (repaired) question.
"""

from __future__ import annotations

import logging
import re
from typing import Any

from langchain_core.messages import HumanMessage, SystemMessage
from langgraph.runtime import Runtime

from disputatio.errors import ConfigError, ModelError
from disputatio.models.structured import structured_invoke
from disputatio.nodes.context import context_of
from disputatio.nodes.debate.common import emit, make_move, with_options
from disputatio.nodes.debate.context import DebateConfig, DebateContext, resolve_config
from disputatio.nodes.debate.tree import build_tree
from disputatio.prompts.debate import (
    ORCHESTRATOR_FLAT_SYSTEM,
    ORCHESTRATOR_SYSTEM,
    ORCHESTRATOR_USER,
)
from disputatio.state.debate import (
    ROOT,
    DebateState,
    Decomposition,
    FlatDecomposition,
    SubQuestionPlan,
)
from disputatio.validators.asked import is_yes_no_question
from disputatio.validators.base import resolve_validators
from disputatio.validators.citations import CitationCheck
from disputatio.validators.questions import question_parts
from disputatio.validators.sentences import split_sentences

logger = logging.getLogger(__name__)

AGENT = "orchestrator"

#: Pronouns and possessives that refer to something named elsewhere.
_REFERS = frozenset(
    "it its itself they them their theirs themselves he him his she her hers".split()
)
#: Demonstratives: they refer back unless a function word follows ("that is", "that the").
_DEMONSTRATIVES = frozenset("this that these those".split())
#: Function words: never anchors, and they end a possessor phrase.
_FUNCTION = frozenset(
    """a an the of to in on at by for from with without about as into over under than then
    and or but nor if so not no yes is are was were be been being am do does did done has have
    had can could may might must shall should will would what which who whom whose when where
    why how whether there here all any each every both either neither some such more most less
    many much few other another same own also only very just i me my we us our you your""".split()
)
#: Words before ``'s`` that make a contraction, not a possessive.
_NOT_OWNERS = _FUNCTION | _REFERS | _DEMONSTRATIVES | {"let"}
_TOKEN = re.compile(r"[A-Za-z0-9]+(?:[-./][A-Za-z0-9]+)*")
#: An "it" that stands for nothing ("Is it possible to …", "What does it cost to move …", "How
#: long does it take for … to …"): set 18's f012 (2026-12-04) was asked with the whole question
#: as context for its "it" twice over.
_EXPLETIVE_IT = re.compile(
    r"\bit\s+(?=(?:(?:is|was|be)\s+)?(?:not\s+)?(?:possible|necessary|allowed|permitted|"
    r"required|mandatory|compulsory|ok|okay|safe|true|worth|free|too\s+late)\s+(?:to|that|if)\b|"
    r"(?:cost|costs|take|takes)\s+(?:\w+\s+)?to\b|(?:take|takes)\s+(?:\w+\s+)?for\b)",
    re.I,
)
_ITS = re.compile(r"\bits\b", re.IGNORECASE)


_ABOUT = " (About: "


def with_context(sub: str, main: str) -> str:
    """``sub`` with the question it came from as context: ``"<sub> (About: <main>)"``."""
    return f"{sub}{_ABOUT}{main})"


def without_context(question: str) -> str:
    """``question`` without the context :func:`with_context` gave it."""
    return question.split(_ABOUT, 1)[0]


def _tokens(text: str) -> list[re.Match[str]]:
    return list(_TOKEN.finditer(text))


def _key(word: str) -> str:
    """Case-folded letters and digits (``CTD-41`` = ``ctd41``)."""
    return "".join(c for c in word.casefold() if c.isalnum())


def _name_like(word: str, first: bool) -> bool:
    if word.casefold() in _FUNCTION or not any(c.isalpha() for c in word):
        return False  # a bare number ("6000 m", "12 months") names nothing
    if any(c.isdigit() for c in word):
        return True
    upper = sum(c.isupper() for c in word)
    return upper > 1 or (upper == 1 and not first)


def _possessors(text: str) -> list[str | None]:
    """The phrases ``text`` puts before ``'s``; None for one whose extent is unclear.

    A possessor is the word before ``'s``, the name-like words right before it and a "the"
    right before those ("the Sea-Bird SBE 911"). It is unclear when another content word
    precedes it ("the new sensor's": the guard does not guess where the noun phrase starts).
    """
    tokens = _tokens(text)
    found: list[str | None] = []
    for i, token in enumerate(tokens):
        word = token.group().casefold()
        if text[token.end() : token.end() + 2] not in ("'s", "\u2019s") or word in _NOT_OWNERS:
            continue  # no possessive, or a contraction ("it's", "what's", "that's")
        start = i
        while start > 0 and _name_like(tokens[start - 1].group(), start - 1 == 0):
            start -= 1
        before = tokens[start - 1].group().casefold() if start > 0 else None
        if before == "the":
            found.append(text[tokens[start - 1].start() : token.end()])
        elif before is None or before in _FUNCTION:
            found.append(text[tokens[start].start() : token.end()])
        else:
            found.append(None)
    return found


def _refers_back(sub: str) -> bool:
    words = [t.group().casefold() for t in _tokens(_EXPLETIVE_IT.sub(" ", sub))]
    for i, word in enumerate(words):
        if word in _REFERS:
            return True
        if word in _DEMONSTRATIVES and (i + 1 == len(words) or words[i + 1] not in _FUNCTION):
            return True
    return False


def _anchors(main: str) -> set[str]:
    tokens = _tokens(main)
    names = {_key(t.group()) for i, t in enumerate(tokens) if _name_like(t.group(), i == 0)}
    for phrase in _possessors(main):
        names |= {
            _key(t.group()) for t in _tokens(phrase or "") if t.group().casefold() not in _FUNCTION
        }
    return names - {""}


def self_contained(sub: str, main: str) -> tuple[str, str | None]:
    """``sub`` made to name its subject when it refers back to ``main`` (see the module doc).

    Args:
        sub: A proposed sub-question.
        main: The question it was split from.

    Returns:
        ``(question, repair)``: the question to ask, and how it was repaired (None when ``sub``
        is kept as it is).
    """
    if _ABOUT in sub or not _refers_back(sub):  # context given already (:func:`stated_parts`)
        return sub, None
    anchors = _anchors(main)
    if anchors & {_key(t.group()) for t in _tokens(sub)}:
        return sub, None
    subjects = {p.casefold(): p for p in _possessors(main) if p is not None}
    clear = None not in _possessors(main) and len(subjects) == 1
    if clear and _ITS.search(sub):
        (subject,) = subjects.values()

        def possessive(match: re.Match[str]) -> str:
            text = f"{subject}'s"
            return text[0].upper() + text[1:] if match.group()[0].isupper() else text

        return _ITS.sub(possessive, sub), f"'its' read as \"{subject}'s\""
    return with_context(sub, main), "the question it was split from added as context"


def stated_parts(question: str) -> list[str]:
    """The parts ``question`` states itself, each asked so that it stands alone (or none).

    A question of two parts ("When is Summer Music Week, and is lunch provided?",
    :func:`~disputatio.validators.questions.question_parts`) is split on them: the local
    orchestrator's paraphrases dropped the asker's framing ("I'm 40 and I'd like 60-minute
    lessons. What's the fee per term?" became "What is the fee per term?"). Each later part
    gets the question's lead-in (the sentences before its first question) and is made to name
    its subject: "its" becomes the question's one possessor where that is clear
    (:func:`self_contained`); otherwise, when it refers back ("How does it differ from Q
    fever?": its "it" is the first part's subject, whatever else it names) or asks yes or no
    naming none of the question's anchors ("Is lunch provided?"), it gets the question as
    context: ``"<part> (About: <question>)"``.
    """
    parts = question_parts(question)
    if len(parts) < 2:
        return []
    lead = _lead_in(parts[0])
    anchors = _anchors(question)
    out = [parts[0]]
    for part in parts[1:]:
        part = f"{lead} {part}" if lead else part
        fixed, repair = self_contained(part, question)  # "its" → "the CTD-41's" where clear
        named = {_key(t.group()) for t in _tokens(part)}
        elliptic = is_yes_no_question(part) and not anchors & named
        if repair is None and (_refers_back(part) or elliptic):  # the pronoun is the question's
            fixed = with_context(part, question)
        out.append(fixed)
    return out


def _lead_in(part: str) -> str:
    """The sentences of ``part`` before its question ("My male dog weighs 8 kg."), or ""."""
    spans = split_sentences(part)
    return part[: spans[-1].start].strip() if len(spans) > 1 else ""


def _asked_plan(
    ctx: DebateContext, cfg: DebateConfig, question: str
) -> tuple[list[SubQuestionPlan], dict[str, Any], list[str]]:
    """The orchestrator's plan for ``question``, its usage and the notes of a failure."""
    flat = cfg.flat_plan or cfg.max_depth == 1
    system = (
        ORCHESTRATOR_FLAT_SYSTEM.format(breadth=cfg.max_breadth)
        if flat
        else ORCHESTRATOR_SYSTEM.format(breadth=cfg.max_breadth, depth=cfg.max_depth)
    )
    messages = [SystemMessage(system), HumanMessage(ORCHESTRATOR_USER.format(question=question))]
    llm = ctx.agent_model(AGENT, AGENT, temperature=0.0)
    try:
        if flat:
            listed, usage = structured_invoke(
                llm, FlatDecomposition, messages, agent=AGENT, role=AGENT
            )
            asked = [SubQuestionPlan(question=q) for q in listed.subquestions if q.strip()]
            return asked, usage, []
        result, usage = structured_invoke(llm, Decomposition, messages, agent=AGENT, role=AGENT)
        return result.subquestions, usage, []
    except ModelError as exc:
        logger.warning("decomposition failed, answering without it: %s", exc.message)
        usage = dict(getattr(exc, "usage", None) or {})
        return [], usage, [f"decomposition failed, answered flat: {exc.message}"]


def decompose(state: DebateState, runtime: Runtime[DebateContext]) -> dict[str, Any]:
    """Ask the orchestrator for sub-questions and build the tree (flat: the root only).

    A question that states its parts is split on them instead (:func:`stated_parts`,
    ``debate.stated_parts``), with no orchestrator call.

    A decomposition the model cannot produce (after the structured-output retries) degrades
    to the flat protocol with a note, instead of failing the run; the tokens of the failed
    attempts are still counted. Small local models (and ``max_depth == 1``) are asked for a
    flat list of sub-questions; larger ones for the nested plan, each with a one-shot example.
    """
    ctx = context_of(runtime, DebateContext)
    cfg = resolve_config(ctx)
    asked = str(state.get("question") or "").strip()
    question = with_options(asked, state.get("options"))
    if not question:
        raise ConfigError("debate: the question is empty")
    resolve_validators(ctx.validators)  # fail fast on a bad validator spec, not after the debate
    update: dict[str, Any] = {"usage": {}, "notes": [], "transcript": []}
    plan: list[SubQuestionPlan] = []
    stated: list[str] = []
    if cfg.max_depth >= 1 and not state.get("options") and ctx.get_settings().debate.stated_parts:
        stated = stated_parts(asked)
    if stated:
        plan = [SubQuestionPlan(question=part) for part in stated]
    elif cfg.max_depth >= 1:
        plan, update["usage"], update["notes"] = _asked_plan(ctx, cfg, question)
    nodes = build_tree(
        question, plan, max_depth=cfg.max_depth, max_breadth=cfg.max_breadth, bare_question=asked
    )
    for node in nodes.values():
        if node["parent"] is None:
            continue
        main = asked if node["parent"] == ROOT else nodes[node["parent"]]["question"]
        node["question"], repair = self_contained(node["question"], main)
        if repair is not None:
            logger.info("sub-question %s named no subject: %s", node["id"], repair)
            update["notes"] = [
                *update["notes"],
                f"sub-question {node['id']} named no subject ({repair}): {node['question']}",
            ]
    if cfg.max_depth >= 1:
        listing = "\n".join(f"{n['id']}: {n['question']}" for n in nodes.values() if n["parent"])
        update["transcript"] = [
            make_move(
                node=ROOT,
                agent=AGENT,
                role=AGENT,
                round_=0,
                kind="plan",
                check=CitationCheck(listing or "(no decomposition)", [], []),
            )
        ]
    emit(
        "decomposed",
        nodes=[{k: n[k] for k in ("id", "parent", "question")} for n in nodes.values()],
    )
    update["nodes"] = nodes
    return update
