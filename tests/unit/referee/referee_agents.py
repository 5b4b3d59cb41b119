"""Scripted referee agents that read their prompt, for property-based runs of the graph.

Each agent is a function of the prompt it RECEIVED (a :class:`ScriptedChatModel` reply), so a
run's replies follow whatever plan the graph built, and each parallel agent has its own model.
What a function reads from the prompt it reads through the prompt's XML blocks only.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from langchain_core.messages import BaseMessage

from disputatio.nodes.referee.planning import slug
from disputatio.testing import ScriptedChatModel

Reply = Callable[[list[BaseMessage]], dict[str, Any]]


def block(messages: list[BaseMessage], tag: str) -> str:
    """The text inside ``<tag ...>…</tag>`` of the last message."""
    text = str(messages[-1].content)
    m = re.search(rf"<{tag}[^>]*>\n?(.*?)\n?</{tag}>", text, re.S)
    return m.group(1) if m else ""


def prompt_axes(messages: list[BaseMessage]) -> list[str]:
    """Axis names of the ``<axes>`` block (``- name (weight w/10)``)."""
    return re.findall(r"^- (.+?) \(weight \d+/10\)", block(messages, "axes"), re.M)


def prompt_labels(messages: list[BaseMessage]) -> list[str]:
    """Section labels shown in ``<sections>``."""
    return re.findall(r'<section id="(S\d+)"', block(messages, "sections"))


def advocate(option: str, cover: list[bool], cite: bool) -> Reply:
    """Claims on the axes whose ``cover`` flag is set (cycled); cites S1 when asked and shown."""

    def reply(messages: list[BaseMessage]) -> dict[str, Any]:
        labels = prompt_labels(messages)
        claims = [
            {
                "axis": axis,
                "text": f"{option} does well on {axis}",
                "citations": ([labels[0]] if cite and labels else []) + ["made-up"],
            }
            for i, axis in enumerate(prompt_axes(messages))
            if cover[i % len(cover)]
        ]
        return {"summary": f"{option} fits", "claims": claims, "weaknesses": []}

    return reply


def examiner(verdicts: list[str], answer_every: int, cite: bool) -> Reply:
    """A verdict (cycled) on every ``answer_every``-th claim of ``<claims>``; cites S1 if asked."""

    def reply(messages: list[BaseMessage]) -> dict[str, Any]:
        ids = re.findall(r"^(\S+#\d+) \(", block(messages, "claims"), re.M)
        labels = prompt_labels(messages)
        checks = [
            {
                "claim_id": cid,
                "verdict": verdicts[i % len(verdicts)],
                "citations": [labels[0]] if cite and labels else [],
            }
            for i, cid in enumerate(ids)
            if i % answer_every == 0
        ]
        return {"checks": checks, "defense": "fine"}

    return reply


@dataclass
class RefereeScript:
    """The referee: scores a subset of cells first, then (if ``fills``) the cells asked for.

    Asked to score again (degenerate scores), it scores every cell with ``rescore`` (cycled;
    the first reply's ``score`` when empty).

    Attributes:
        first: Which cells (by index over options × axes, cycled) the first reply scores.
        score: Score of cell ``i`` (cycled).
        recommend: Index of the option recommended (into ``<options>``).
        fills: Whether follow-up replies score the cells they are asked for.
        rescore: Scores of the re-scoring reply, cell ``i`` (cycled).
        asked: The cells each follow-up prompt asked for (filled in as it runs).
        scored_first: The cells the first reply scored (filled in as it runs).
        rescores: The reasons each re-scoring prompt gave (filled in as it runs).
    """

    first: list[bool]
    score: list[int]
    recommend: int
    fills: bool = True
    override: str = ""
    rescore: list[int] = field(default_factory=list)
    asked: list[list[tuple[str, str]]] = field(default_factory=list)
    scored_first: list[tuple[str, str]] = field(default_factory=list)
    rescores: list[str] = field(default_factory=list)
    _first: list[BaseMessage] = field(default_factory=list)

    def reply(self, messages: list[BaseMessage]) -> dict[str, Any]:
        """The first reply, a fill or a re-scoring, by what the prompt asks."""
        last = str(messages[-1].content)
        if len(messages) == 2:
            self._first = messages
            return self.first_reply(messages)
        if last.startswith("Your scores are degenerate:"):
            self.rescores.append(last.split(":", 1)[1].split(". Scores must")[0].strip())
            return self.rescore_reply(self._first)
        return self.fill_reply(messages)

    def rescore_reply(self, first: list[BaseMessage]) -> dict[str, Any]:
        options = block(first, "options").splitlines()
        cells = [(o, a) for o in options for a in prompt_axes(first)]
        values = self.rescore or self.score
        return {
            "scores": [
                {"option": o, "axis": a, "score": values[i % len(values)]}
                for i, (o, a) in enumerate(cells)
            ],
            "recommendation": options[self.recommend % len(options)],
            "override_constraint": self.override,
            "confidence": "high",
        }

    def first_reply(self, messages: list[BaseMessage]) -> dict[str, Any]:
        options = block(messages, "options").splitlines()
        cells = [(o, a) for o in options for a in prompt_axes(messages)]
        self.scored_first = [c for i, c in enumerate(cells) if self.first[i % len(self.first)]]
        scores = [
            {"option": o, "axis": a, "score": self.score[i % len(self.score)]}
            for i, (o, a) in enumerate(cells)
            if self.first[i % len(self.first)]
        ]
        return {
            "scores": scores,
            "recommendation": options[self.recommend % len(options)],
            "override_constraint": self.override,
            "confidence": "high",
        }

    def fill_reply(self, messages: list[BaseMessage]) -> dict[str, Any]:
        cells = re.findall(r"^- option '(.+?)', axis '(.+?)'$", str(messages[-1].content), re.M)
        self.asked.append(cells)
        if not self.fills:
            return {"scores": []}
        return {"scores": [{"option": o, "axis": a, "score": 5} for o, a in cells]}

    def model(self, rounds: int) -> ScriptedChatModel:
        """The referee's model: room for the first reply, ``rounds`` fills and a re-scoring."""
        return ScriptedChatModel(script=[self.reply] * (rounds + 2), name="referee")


def agents(
    options: list[str], advocates: dict[str, Reply], examiners: dict[str, Reply]
) -> dict[str, ScriptedChatModel]:
    """One model per advocate and examiner of ``options`` (named like the graph names them)."""
    out: dict[str, ScriptedChatModel] = {}
    for o in options:
        out[f"advocate-{slug(o)}"] = ScriptedChatModel(
            script=[advocates[o]], name=f"advocate-{slug(o)}"
        )
        out[f"examiner-{slug(o)}"] = ScriptedChatModel(
            script=[examiners[o]], name=f"examiner-{slug(o)}"
        )
    return out
