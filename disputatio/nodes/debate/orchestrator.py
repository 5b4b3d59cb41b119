"""The orchestrator: decomposes the question into a bounded tree of sub-questions.

Sub-questions are answered on their own (a worker sees only its node's question), so one that
points back at the main question ("How often must *its* temperature channel be calibrated?")
loses its subject. After decomposition a deterministic guard (:func:`self_contained`) repairs
such a sub-question and records a note:

- *refers back*: it holds a pronoun or possessive (it, its, they, them, their, he, she...) or a
  demonstrative (this, that, these, those) that is not followed by a function word (so "that
  device" and "What causes this?" refer back, "Is it true that the..." counts by its "it");
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
from disputatio.nodes.debate.context import DebateContext, resolve_config
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
from disputatio.validators.base import resolve_validators
from disputatio.validators.citations import CitationCheck

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
    many much few other another same own also only very just""".split()
)
#: Words before ``'s`` that make a contraction, not a possessive.
_NOT_OWNERS = _FUNCTION | _REFERS | _DEMONSTRATIVES | {"let"}
_TOKEN = re.compile(r"[A-Za-z0-9]+(?:[-./][A-Za-z0-9]+)*")
_ITS = re.compile(r"\bits\b", re.IGNORECASE)


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
    words = [t.group().casefold() for t in _tokens(sub)]
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
    if not _refers_back(sub):
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
    return f"{sub} (About: {main})", "the question it was split from added as context"


def decompose(state: DebateState, runtime: Runtime[DebateContext]) -> dict[str, Any]:
    """Ask the orchestrator for sub-questions and build the tree (flat: the root only).

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
    if cfg.max_depth >= 1:
        flat = cfg.flat_plan or cfg.max_depth == 1
        system = (
            ORCHESTRATOR_FLAT_SYSTEM.format(breadth=cfg.max_breadth)
            if flat
            else ORCHESTRATOR_SYSTEM.format(breadth=cfg.max_breadth, depth=cfg.max_depth)
        )
        messages = [
            SystemMessage(system),
            HumanMessage(ORCHESTRATOR_USER.format(question=question)),
        ]
        llm = ctx.agent_model(AGENT, AGENT, temperature=0.0)
        try:
            if flat:
                listed, update["usage"] = structured_invoke(
                    llm, FlatDecomposition, messages, agent=AGENT, role=AGENT
                )
                plan = [SubQuestionPlan(question=q) for q in listed.subquestions if q.strip()]
            else:
                result, update["usage"] = structured_invoke(
                    llm, Decomposition, messages, agent=AGENT, role=AGENT
                )
                plan = result.subquestions
        except ModelError as exc:
            logger.warning("decomposition failed, answering without it: %s", exc.message)
            update["notes"] = [f"decomposition failed, answered flat: {exc.message}"]
            update["usage"] = dict(getattr(exc, "usage", None) or {})
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
