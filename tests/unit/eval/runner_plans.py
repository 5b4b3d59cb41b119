"""Plans of toy questions for ``run_eval`` and its records grouped by protocol."""

from __future__ import annotations

from typing import Any

from disputatio.eval.runner import Plan

from .conftest import toy_questions


def plan(protocols: tuple[str, ...], n: int = 3, questions: Any = None) -> Plan:
    qs = questions or toy_questions(6)
    return Plan(("toy",), protocols, n=n, loader=lambda _name: list(qs))


def by_protocol(records: list[dict[str, Any]]) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for r in records:
        out.setdefault(r["protocol"], set()).add(r["question_id"])
    return out
