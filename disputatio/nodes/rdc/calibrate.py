"""Calibration learning over CASE files with ground truth (``disputatio rdc calibrate``).

Each case's known findings become evidence items (:func:`disputatio.nodes.rdc.case.evidence_items`)
grouped by their ``source`` field; :func:`disputatio.argumentation.fit_alpha_beta` fits the
quality exponent α and one reliability β per group by Brier score, and
:func:`disputatio.argumentation.leave_one_out` scores each case with the fit of the others.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

from disputatio.argumentation import LabelledCase, evaluate, fit_alpha_beta, leave_one_out
from disputatio.errors import ConfigError
from disputatio.nodes.rdc.case import evidence_items, read_case_file
from disputatio.state.rdc import Case


def labelled_case(case: Case) -> LabelledCase:
    """Return the engine's view of a case with ground truth.

    Raises:
        ConfigError: If the case names no gold hypothesis.
    """
    if case.gold is None:
        raise ConfigError(f"case {case.id!r} has no gold hypothesis: calibration needs one")
    return LabelledCase(
        case.id,
        {h.id: h.prior for h in case.hypotheses},
        evidence_items(case.evidence),
        case.gold,
        {e.id: e.source for e in case.evidence},
    )


def case_paths(paths: Sequence[Path]) -> list[Path]:
    """``paths`` with every directory replaced by its ``*.json`` files (sorted).

    Raises:
        ConfigError: A directory that holds no ``*.json`` file.
    """
    out: list[Path] = []
    for p in paths:
        if p.is_dir():
            found = sorted(c for c in p.glob("*.json") if c.is_file())
            if not found:
                raise ConfigError(f"no CASE.json files in directory {p}")
            out += found
        else:
            out.append(p)
    return out


def calibration_report(paths: Sequence[Path]) -> dict[str, Any]:
    """Fit α and β over the cases in ``paths``; return default, fitted and leave-one-out scores.

    A directory in ``paths`` stands for its ``*.json`` files (:func:`case_paths`).

    Raises:
        ConfigError: On an unreadable or invalid case, a case without gold, or fewer than two
            cases.
    """
    paths = case_paths(paths)
    if len(paths) < 2:
        raise ConfigError("rdc calibrate needs at least two cases (leave-one-out scoring)")
    cases = [labelled_case(read_case_file(p)) for p in paths]
    ids = [c.id for c in cases]
    if len(set(ids)) != len(ids):
        raise ConfigError("rdc calibrate: case ids must be unique")
    groups = sorted({c.group_of(i.id) for c in cases for i in c.items})
    default = evaluate(cases, 1.0, dict.fromkeys(groups, 1.0))
    return {
        "cases": len(cases),
        "case_ids": ids,
        "default": asdict(default),
        "fitted": asdict(fit_alpha_beta(cases)),
        "leave_one_out": asdict(leave_one_out(cases)),
    }
