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

from disputatio.api.auth import hash_key
from disputatio.settings import ServerSettings
from disputatio.testing import ScriptedChatModel

KEY_A, TENANT_A = "key-acme-0123456789", "api-acme"
KEY_B, TENANT_B = "key-globex-9876543210", "api-globex"


def server_settings(**overrides: Any) -> ServerSettings:
    """Server settings of the tests: two tenants, small limits, a short run lease."""
    values: dict[str, Any] = {
        "api_keys": {hash_key(KEY_A): TENANT_A, hash_key(KEY_B): TENANT_B},
        "max_upload_mb": 0.25,
        "max_request_kb": 64,
        "max_query_chars": 500,
        "max_runs_per_tenant": 3,
        "run_lease_s": 3.0,
        "stream_poll_s": 0.1,
        "stream_max_s": 120.0,
    }
    values.update(overrides)
    return ServerSettings(**values)


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
    "worker-root-0": "Brucellosis is diagnosed by blood culture and serology",
    "worker-root-1": "Only a positive culture confirms brucellosis; antibody titres can mislead",
    "reviewer": "Both workers cite the brucellosis section; the claim is supported",
    "summarizer": "Brucellosis is diagnosed by blood culture and serology",
    "aggregator": "Brucellosis is diagnosed by blood culture and serology",
    "orchestrator": "The question needs no decomposition",
}


class FakeModels:
    """Context overrides of the API app: scripted models for every graph, one per agent role.

    Attributes:
        delay_s: Seconds each debate reply takes (to stop a server mid-debate).
        rounds: Debate rounds (the two workers disagree, so every round is held).
        models: Every model handed out, by (graph, tenant, role), to inspect prompts.
    """

    def __init__(self, delay_s: float = 0.0, rounds: int = 1) -> None:
        self.delay_s = delay_s
        self.rounds = rounds
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
            return {"models": models, "flat": True, "workers": 2, "rounds": self.rounds,
                    "max_tool_calls": 0}  # fmt: skip
        return {}
