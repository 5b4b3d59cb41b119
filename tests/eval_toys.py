"""Toy questions and scripted agents for runs of ``eval run`` that must all answer right."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from disputatio.eval.question import Question
from disputatio.testing import ScriptedChatModel

#: The agents of the baselines and of the medrag debate.
MEDRAG_AGENTS = ("baseline", "agent1", "agent2", "summarizer", "verifier")


def a_questions(n: int, snippet: str = "a gold snippet") -> list[Question]:
    """``n`` two-option toy questions (``q0``...) whose answer is ``A``, each with a snippet."""
    return [
        Question(
            id=f"q{i}",
            dataset="toy",
            question=f"Q{i}?",
            options={"A": "x", "B": "y"},
            gold="A",
            context=(snippet,),
        )
        for i in range(n)
    ]


def agents_answering(reply: str | Callable[[Any], str]) -> dict[str, ScriptedChatModel]:
    """Every agent of :data:`MEDRAG_AGENTS` giving ``reply`` (a text or a function) every time."""
    return {name: ScriptedChatModel(script=[reply], repeat_last=True) for name in MEDRAG_AGENTS}
