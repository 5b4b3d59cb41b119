"""Scripted fake models for the API tests: replies cite the first section shown in the prompt.

Each model records what it received, so tests can check that a tenant's agents saw only that
tenant's sections.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Any

from langchain_core.messages import BaseMessage

from disputatio.testing import ScriptedChatModel

_SECTION = re.compile(r'<section id="([^"]+)"|\bid="([^"]+)"|\[([A-Za-z0-9][\w.:#/-]*)\]')


def first_section_id(messages: list[BaseMessage]) -> str | None:
    """The id of the first section a prompt shows."""
    for message in messages:
        text = message.content if isinstance(message.content, str) else str(message.content)
        for match in _SECTION.finditer(text):
            found = next(g for g in match.groups() if g)
            if found not in ("section-id", "id", "example_id"):
                return found
    return None


def citing(text: str, delay_s: float = 0.0) -> Callable[[list[BaseMessage]], str]:
    """A reply that states ``text`` and cites the first section of the prompt."""

    def reply(messages: list[BaseMessage]) -> str:
        if delay_s:
            time.sleep(delay_s)
        sid = first_section_id(messages)
        return f"{text} [{sid}]." if sid else f"{text}."

    return reply


DEBATE_AGENTS = {
    "worker": "Brucellosis is diagnosed by blood culture and serology",
    "reviewer": "Both workers cite the brucellosis section; the claim is supported",
    "summarizer": "Brucellosis is diagnosed by blood culture and serology",
    "aggregator": "Brucellosis is diagnosed by blood culture and serology",
    "orchestrator": "The question needs no decomposition",
}


class FakeModels:
    """Context overrides of the API app: scripted models for every graph, one per agent role.

    Attributes:
        delay_s: Seconds each debate reply takes (to stop a server mid-debate).
        models: Every model handed out, by (graph, tenant, role), to inspect prompts.
    """

    def __init__(self, delay_s: float = 0.0) -> None:
        self.delay_s = delay_s
        self.models: dict[tuple[str, str, str], ScriptedChatModel] = {}

    def _model(self, graph: str, tenant: str, role: str, reply: Any) -> ScriptedChatModel:
        model = ScriptedChatModel(script=[reply], repeat_last=True, name=f"{tenant}:{role}")
        self.models[(graph, tenant, role)] = model
        return model

    def __call__(self, graph: str, tenant: str) -> dict[str, Any]:
        if graph == "rag":
            answer = citing("Brucellosis is diagnosed by blood culture and serology")
            return {"models": {"answerer": self._model(graph, tenant, "answerer", answer)}}
        if graph == "debate":
            models = {
                role: self._model(graph, tenant, role, citing(text, self.delay_s))
                for role, text in DEBATE_AGENTS.items()
            }
            return {"models": models, "flat": True, "workers": 2, "rounds": 1,
                    "max_tool_calls": 0}  # fmt: skip
        return {}
