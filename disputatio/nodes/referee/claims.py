"""The claims a ruling rests on, each checked against the sentences its advocate cited.

The referee scores options from the advocates' claims (each cell's ``evidence`` names them).
Each claim is judged by the claim checker against the sections its advocate saw and cited, so
a score that rests on unsupported claims can be told from one that rests on the documents.
"""

from __future__ import annotations

from typing import Any

from disputatio.state.claims import Claim
from disputatio.validators.claims import check_answer
from disputatio.validators.support import SupportChecker


def brief_claims(
    briefs: list[dict[str, Any]],
    evidence: dict[str, list[dict[str, Any]]],
    checker: SupportChecker | None = None,
) -> list[dict[str, Any]]:
    """Every advocate claim with its verdict (``part``: ``"option / axis"``, ``id``: the claim id).

    Args:
        briefs: The briefs (``Brief`` dumps).
        evidence: Option → the sections its advocate saw.
        checker: The support checker (default: the lexical one).

    Returns:
        ``Claim`` dicts with the brief claim's ``id`` added, in brief order.
    """
    out: list[dict[str, Any]] = []
    for brief in briefs:
        option = str(brief.get("option", ""))
        shown = {str(s["id"]): s for s in evidence.get(option, []) if "id" in s}
        for item in brief.get("claims") or []:
            cited = [c for c in item.get("citations") or [] if c in shown]
            text = str(item.get("text", "")).strip()
            if not text:
                continue
            marked = f"{text} [{', '.join(cited)}]" if cited else text
            report = check_answer(
                marked, shown, checker=checker, part=f"{option} / {item.get('axis', '')}"
            )
            out.append(
                {**_one_claim(text, report.claims).model_dump(mode="json"), "id": item.get("id")}
            )
    return out


#: Verdicts from worst to best: a brief claim of several sentences is as good as its worst.
_WORST_FIRST = ("unsupported", "uncited", "supported")


def _one_claim(text: str, judged: list[Claim]) -> Claim:
    """One brief claim's verdict: its worst factual sentence's (the checker's filler dropped)."""
    facts = [c for c in judged if c.factual and c.verdict in _WORST_FIRST]
    if not facts:
        return Claim(text=text, verdict=None, factual=False, reason="states nothing to check")
    worst = min(facts, key=lambda c: _WORST_FIRST.index(str(c.verdict)))
    return worst.model_copy(update={"text": text})


def unsupported_cells(ruling: dict[str, Any], claims: list[dict[str, Any]]) -> list[str]:
    """``"option / axis"`` of the scored cells none of whose evidence claims is supported."""
    verdict = {c.get("id"): c.get("verdict") for c in claims}
    cells = []
    for score in ruling.get("scores") or []:
        ids = score.get("evidence") or []
        if ids and not any(verdict.get(i) == "supported" for i in ids):
            cells.append(f"{score.get('option')} / {score.get('axis')}")
    return cells
