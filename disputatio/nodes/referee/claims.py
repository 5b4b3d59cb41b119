"""The claims a ruling rests on, each checked against the sentences its advocate cited.

The referee scores options from the advocates' claims (each cell's ``evidence`` names them).
Each claim is judged by the claim checker against the sections its advocate saw and cited, so
a score that rests on unsupported claims can be told from one that rests on the documents.
"""

from __future__ import annotations

from typing import Any

from disputatio.validators.cited import judge_cited
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
            text = str(item.get("text", "")).strip()
            if not text:
                continue
            claim = judge_cited(
                text,
                [str(c) for c in item.get("citations") or []],
                shown,
                checker=checker,
                part=f"{option} / {item.get('axis', '')}",
            )
            out.append({**claim.model_dump(mode="json"), "id": item.get("id")})
    return out
