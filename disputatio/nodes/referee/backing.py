"""Hold the ruling to the claims the documents support.

The referee scores each (option, axis) cell from the advocates' claims its ``evidence`` names;
after the run every claim is judged against the sections its advocate cited
(:mod:`~disputatio.nodes.referee.claims`). A cell *stands on the documents* when one of its
evidence claims is supported. On the demo corpus (2026-12-02, "Blood culture or serology for
diagnosing brucellosis?") the referee recommended serology "confidence: high" although none of
serology's five claims was supported, and the only supported claim was blood culture's:

* the recommended option whose scores cite claims, none of them supported, is no
  recommendation: the ruling says so first (``unbacked``), recommends nothing, confidence
  ``low``. (A score citing no claim was never checked: it caps the confidence at ``medium``,
  as :func:`~disputatio.nodes.referee.scoring.build_ruling` does, and no more);
* a recommendation with some cells not standing on the documents is at most ``medium``;
* every cell whose cited claims are all unsupported is named in a caveat (``unsupported_cells``).
"""

from __future__ import annotations

from typing import Any

from disputatio.nodes.referee.rendering import render_ruling
from disputatio.nodes.referee.scoring import cap_confidence
from disputatio.state.referee import Plan, Ruling


def unsupported_cells(ruling: Ruling, claims: list[dict[str, Any]]) -> list[str]:
    """``"option / axis"`` of the scored cells none of whose evidence claims is supported."""
    verdict = {c.get("id"): c.get("verdict") for c in claims}
    return [
        f"{s.option} / {s.axis}"
        for s in ruling.scores
        if s.evidence and not any(verdict.get(i) == "supported" for i in s.evidence)
    ]


def held_to_evidence(plan: Plan, ruling: Ruling, claims: list[dict[str, Any]]) -> Ruling:
    """``ruling`` with its recommendation and confidence held to the supported claims.

    Args:
        plan: The plan (options and axes, for the re-rendered verdict).
        ruling: The referee's validated ruling.
        claims: Every advocate claim with its verdict (``id`` is the claim id).

    Returns:
        A new ruling: ``unsupported_cells`` set, and the recommendation dropped (``unbacked``
        saying why) or its confidence capped where the cells behind it do not stand on the
        documents; the ruling itself when nothing changes.
    """
    weak = unsupported_cells(ruling, claims)
    if not weak and not ruling.uncited_cells:
        return ruling
    loose = set(weak) | set(ruling.uncited_cells)
    update: dict[str, Any] = {"unsupported_cells": weak}
    caveats = list(ruling.caveats)
    if weak:
        caveats.append(f"Scores resting on no supported claim: {', '.join(weak)}.")
    rec = ruling.recommendation
    mine = [f"{s.option} / {s.axis}" for s in ruling.scores if s.option == rec]
    checked = [f"{s.option} / {s.axis}" for s in ruling.scores if s.option == rec and s.evidence]
    if rec and checked and all(cell in weak for cell in checked):
        why = f"no score of {rec} rests on a claim its sections support"
        caveats.insert(0, f"No recommendation on the evidence: {why}.")
        update.update(recommendation="", confidence="low", unbacked=why)
    elif rec and any(cell in loose for cell in mine):
        update["confidence"] = cap_confidence(ruling.confidence, "medium")
    held = ruling.model_copy(update={**update, "caveats": caveats})
    held.rendered = render_ruling(plan, held)
    return held
