"""Prompt building and text cleaning for the MedRAG-style debate (pure functions).

An agent's prompt is its own growing conversation (see :data:`disputatio.prompts.medrag.
AGENT_SYSTEM`): question → its ``retrieve("query")`` call → the documents (labelled ``S1``,
``S2``... and mapped back to section ids) → its answer → the other agents' summaries → ... so
every call extends the previous one and a llama.cpp slot reuses the cached prefix.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage

from disputatio.prompts import medrag as P
from disputatio.retrievers.base import format_sections
from disputatio.state.medrag import Options, Turn
from disputatio.state.retrieval import Section
from disputatio.tools.answer_text import (
    answer_hint,
    clean_text,
    format_options,
    render_sections,
    truncate,
)

# a fragment of 8..300 characters repeated back to back at least twice more (model loops)
_REPEAT_RE = re.compile(r"(.{8,300}?)(?:\s*\1){2,}", re.S)
_ANSWER_LINE_RE = re.compile(
    r"\\boxed\s*\{[^{}\n]{0,80}\}|answer[\s_-]*choice\s*[:=]\s*\S[^\n]{0,60}", re.I
)

#: Characters per token assumed when sizing prompts for a local slot (conservative).
PROMPT_CHARS_PER_TOKEN = 3
#: Tokens of the fixed prompt text of one round (system, tags, instructions).
TEMPLATE_TOKENS_PER_ROUND = 250


def drop_repeats(text: str) -> str:
    """Collapse a fragment repeated back to back (three times or more) to one occurrence."""
    previous = None
    while previous != text:
        previous = text
        text = _REPEAT_RE.sub(r"\1", text)
    lines: list[str] = []
    for line in text.split("\n"):
        if not (lines and line.strip() and line.strip() == lines[-1].strip()):
            lines.append(line)
    return "\n".join(lines)


def answer_line(text: str) -> str | None:
    r"""The last answer marker of ``text`` (``\\boxed{X}`` or ``Answer Choice: X``), if any."""
    found = _ANSWER_LINE_RE.findall(text or "")
    return found[-1] if found else None


def truncate_keeping_answer(text: str, max_chars: int) -> str:
    """Cut ``text`` to ``max_chars`` from its start, but keep its last answer marker."""
    if len(text) <= max_chars:
        return text
    answer = answer_line(text)
    if not answer or len(answer) + 2 >= max_chars:
        return truncate(text, max_chars)
    head = truncate(text[: max(0, max_chars - len(answer) - 2)], max_chars - len(answer) - 1)
    return f"{head} {answer}"[:max_chars]


def clean_response(text: str, max_chars: int) -> str:
    """Clean a reply: no ``<think>``, no repeated patterns, at most ``max_chars`` characters.

    The cap keeps the reply's answer marker (a looping reply cut from its start would lose it).
    """
    return truncate_keeping_answer(drop_repeats(clean_text(text)), max_chars)


def render_labelled(
    sections: Sequence[Section], max_chars: int | None, *, failed: bool = False
) -> str:
    """Sections labelled ``S1``, ``S2``... (small models copy short labels reliably)."""
    if failed:
        return P.RETRIEVAL_FAILED
    if not sections:
        return P.NO_DOCUMENTS
    labels = [f"S{i}" for i in range(1, len(sections) + 1)]
    return format_sections(list(sections), max_chars, labels=labels)


def section_chars(
    *,
    k: int,
    wanted: int,
    slot_tokens: int | None,
    rounds: int,
    answer_tokens: int,
    query_tokens: int,
    summary_tokens: int,
    agents: int,
    question_chars: int,
) -> int:
    """Characters per section so that an agent's whole conversation fits its llama.cpp slot.

    The last round's prompt holds every earlier round (documents, calls, answers, the peers'
    summaries) plus the completion; with ``slot_tokens = n_ctx / n_parallel`` tokens per slot,
    the documents of each round get an equal share of what is left.

    Returns:
        ``wanted`` when it fits (or when ``slot_tokens`` is None: not a local model), else the
        largest length that fits (at least 100 characters).
    """
    if slot_tokens is None:
        return wanted
    fixed_tokens = (
        rounds * (TEMPLATE_TOKENS_PER_ROUND + answer_tokens + query_tokens)
        + max(0, rounds - 1) * (summary_tokens * max(1, agents - 1) + summary_tokens)
        + question_chars // PROMPT_CHARS_PER_TOKEN
    )
    spare_chars = (slot_tokens - fixed_tokens) * PROMPT_CHARS_PER_TOKEN
    fits = spare_chars // max(1, rounds * k)
    return max(100, min(wanted, fits))


def agent_messages(
    *,
    question: str,
    options: Options,
    sections: Sequence[Section],
    round_: int,
    peer_summaries: Sequence[Mapping[str, str]],
    previous_choice: str | None,
    section_max_chars: int | None,
) -> list[BaseMessage]:
    """Build one agent's prompt for ``round_`` (round 1 is independent)."""
    system = SystemMessage(P.AGENT_SYSTEM.format(answer_hint=answer_hint(options)))
    common: dict[str, Any] = {
        "sections": render_sections(sections, section_max_chars),
        "question": question,
        "options": format_options(options),
        "answer_hint": answer_hint(options),
    }
    if round_ <= 1 or not peer_summaries:
        return [system, HumanMessage(P.AGENT_ROUND1.format(**common))]
    peers = "\n".join(
        P.PEER_SUMMARY.format(agent=p["agent"], text=p["text"]) for p in peer_summaries
    )
    user = P.AGENT_ROUND_N.format(
        **common,
        previous_choice=previous_choice or "none",
        peer_summaries=peers,
        round=round_,
    )
    return [system, HumanMessage(user)]


def summary_messages(
    *, question: str, options: Options, response: str, max_tokens: int
) -> list[BaseMessage]:
    """Build the prompt that summarises one turn (asks for about 0.7 words per token)."""
    max_words = max(10, int(max_tokens * 0.7))
    return [
        SystemMessage(P.SUMMARY_SYSTEM.format(max_words=max_words)),
        HumanMessage(
            P.SUMMARY_USER.format(
                question=question,
                options=format_options(options),
                response=clean_text(response),
                answer_hint=answer_hint(options),
            )
        ),
    ]


def debate_transcript(turns: Sequence[Turn], max_chars: int) -> str:
    """The cleaned debate, oldest turn first, within ``max_chars`` characters.

    Each turn gets an equal share of the budget (cut from its start, keeping its answer
    marker), so a long first round cannot crowd out the last one or the agents' answers.
    """
    ordered = sorted(turns, key=lambda t: (t.get("round", 0), t.get("agent", "")))
    if not ordered:
        return ""
    overhead = sum(
        len(P.TRANSCRIPT_TURN.format(agent=t["agent"], round=t["round"], text="")) + 1
        for t in ordered
    )
    share = max(50, (max_chars - overhead) // len(ordered))
    blocks = [
        P.TRANSCRIPT_TURN.format(
            agent=t["agent"],
            round=t["round"],
            text=truncate_keeping_answer(clean_text(t["response"]), share),
        )
        for t in ordered
    ]
    return truncate("\n".join(blocks), max_chars)


def final_answers(turns: Sequence[Turn], agents: Sequence[str]) -> str:
    """One line per agent with its last answer (the verifier must see every choice)."""
    lines = []
    for agent in agents:
        mine = [t for t in turns if t["agent"] == agent]
        last = max(mine, key=lambda t: t["round"]) if mine else None
        choice = (last or {}).get("choice") or (last or {}).get("status") or "none"
        lines.append(P.FINAL_ANSWER_LINE.format(agent=agent, choice=choice))
    return "\n".join(lines)


def verifier_messages(
    *, question: str, options: Options, transcript: str, answers: str = "", numeric: bool = False
) -> list[BaseMessage]:
    """Build the verifier's prompt (``answers``: the agents' final choices, one per line).

    With ``numeric`` it asks for the correct final number instead of an option.
    """
    if numeric:
        return [
            SystemMessage(P.NUMERIC_VERIFIER_SYSTEM.format()),
            HumanMessage(
                P.NUMERIC_VERIFIER_USER.format(
                    question=question, final_answers=answers, transcript=transcript
                )
            ),
        ]
    return [
        SystemMessage(P.VERIFIER_SYSTEM.format(answer_hint=answer_hint(options))),
        HumanMessage(
            P.VERIFIER_USER.format(
                question=question,
                options=format_options(options),
                final_answers=answers,
                transcript=transcript,
                answer_hint=answer_hint(options),
            )
        ),
    ]


def agent_prefix(question: str, options: Options, *, numeric: bool = False) -> list[BaseMessage]:
    """The start every call of an agent shares: system prompt and the question.

    With ``numeric`` the agent is asked for a boxed number and shown no options.
    """
    if numeric:
        return [
            SystemMessage(P.NUMERIC_AGENT_SYSTEM.format()),
            HumanMessage(P.NUMERIC_AGENT_QUESTION.format(question=question)),
        ]
    return [
        SystemMessage(P.AGENT_SYSTEM.format(answer_hint=answer_hint(options))),
        HumanMessage(P.AGENT_QUESTION.format(question=question, options=format_options(options))),
    ]


def peers_block(
    peer_summaries: Sequence[Mapping[str, str]],
    round_: int,
    previous_choice: str | None,
    *,
    numeric: bool = False,
) -> str:
    """The round-2+ message: the other agents' summaries."""
    peers = "\n".join(
        P.PEER_SUMMARY.format(agent=p["agent"], text=p["text"]) for p in peer_summaries
    )
    template = P.NUMERIC_AGENT_PEERS if numeric else P.AGENT_PEERS
    return template.format(
        peer_summaries=peers, round=round_, previous_choice=previous_choice or "none"
    )


def documents_block(documents: str, options: Options, *, numeric: bool = False) -> str:
    """The message that hands the agent its documents and asks for the answer.

    In numeric mode, empty ``documents`` (no retrieval) give the bare instruction to solve.
    """
    if numeric:
        if not documents:
            return P.NUMERIC_AGENT_SOLVE.format()
        return P.NUMERIC_AGENT_DOCUMENTS.format(sections=documents)
    return P.AGENT_DOCUMENTS.format(sections=documents, answer_hint=answer_hint(options))
