"""Scripted models of the MedRAG debate: one script per agent and role (shared by its tests)."""

from __future__ import annotations

from typing import Any

from disputatio.testing import ScriptedChatModel


def models(
    agent1: list[Any],
    agent2: list[Any],
    *,
    sum1: list[Any] | None = None,
    sum2: list[Any] | None = None,
    verifier: list[Any] | None = None,
) -> dict[str, ScriptedChatModel]:
    """The debate's five models, each answering from its own script (empty: never called)."""
    return {
        "agent1": ScriptedChatModel(script=agent1, name="agent1"),
        "agent2": ScriptedChatModel(script=agent2, name="agent2"),
        "agent1_summarizer": ScriptedChatModel(script=sum1 or [], name="sum1"),
        "agent2_summarizer": ScriptedChatModel(script=sum2 or [], name="sum2"),
        "verifier": ScriptedChatModel(script=verifier or [], name="verifier"),
    }
