"""The MIRAGE table of a report: MIRAGE's five sets side by side, as its paper lays them out.

:func:`mirage_table` turns :func:`~disputatio.eval.analysis.analyse` of MIRAGE records into
Markdown: accuracy (%) with its 95% Wilson interval per protocol and set, in MIRAGE's column
order, with chance and the calibration split's majority baseline; balanced accuracy with its
interval on the yes/no sets; the paired tests of the table (each protocol against ``cot`` on
each set, exact McNemar, Holm-adjusted over the whole table: one family); and, for scale,
:data:`PUBLISHED`, the MIRAGE paper's CoT and MedRAG results of GPT-3.5 and GPT-4, labelled
as another model's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from disputatio.eval.mirage import NAMES
from disputatio.eval.stats import holm

__all__ = ["PUBLISHED", "SOURCE", "Published", "mirage_table", "table_tests"]

#: Column headers of the five sets, in MIRAGE's order (:data:`~disputatio.eval.mirage.NAMES`).
HEADERS = {
    "mirage:mmlu": "MMLU-Med",
    "mirage:medqa": "MedQA-US",
    "mirage:medmcqa": "MedMCQA",
    "mirage:pubmedqa": "PubMedQA*",
    "mirage:bioasq": "BioASQ-Y/N",
}
#: The yes/no sets, whose balanced accuracy is tabled too.
YES_NO = ("mirage:pubmedqa", "mirage:bioasq")
#: The protocol every other one is tested against on each set (when the set has it).
REFERENCE = "cot"

SOURCE = (
    "Xiong, Jin, Lu and Zhang (2024), *Benchmarking Retrieval-Augmented Generation for "
    "Medicine* (MIRAGE; arXiv 2402.13178), its table of backbone LLMs: accuracy (%) on all "
    "7,663 questions; CoT = no retrieval, MedRAG = MedCorp with the RRF of four retrievers, "
    "32 snippets"
)


@dataclass(frozen=True)
class Published:
    """One published row of the MIRAGE paper (accuracy in %, as printed there).

    Attributes:
        model: The model that produced it (never ours).
        method: ``CoT`` or ``MedRAG``.
        accuracy: MIRAGE set name → accuracy in % (two decimals, as printed).
        average: The paper's printed average of the five.
    """

    model: str
    method: str
    accuracy: Mapping[str, float]
    average: float


def _row(model: str, method: str, values: Sequence[float], average: float) -> Published:
    return Published(model, method, dict(zip(NAMES, values, strict=True)), average)


#: The paper's CoT / MedRAG rows of GPT-3.5 and GPT-4 (:data:`SOURCE`), sets in :data:`NAMES`
#: order; the printed average is kept to check the transcription (see the tests).
PUBLISHED: tuple[Published, ...] = (
    _row("GPT-3.5", "CoT", (72.91, 65.04, 55.25, 36.00, 74.27), 60.69),
    _row("GPT-3.5", "MedRAG", (75.48, 66.61, 58.04, 67.40, 90.29), 71.57),
    _row("GPT-4", "CoT", (89.44, 83.97, 69.88, 39.60, 84.30), 73.44),
    _row("GPT-4", "MedRAG", (87.24, 82.80, 66.65, 70.60, 92.56), 79.97),
)


def _pct(value: float | None, digits: int = 1) -> str:
    return "–" if value is None else f"{100 * value:.{digits}f}"


def _pp(value: float) -> str:
    """A signed difference in percentage points, ``+4.0`` / ``-1.0`` (never ``-0.0``)."""
    return f"{round(100 * value, 1) + 0.0:+.1f}"


def _cell(s: Mapping[str, Any]) -> str:
    """``53.0 (43.3–62.5) n=100``: accuracy with its Wilson interval and its questions."""
    return f"{_pct(s['accuracy'])} ({_pct(s['ci_low'])}–{_pct(s['ci_high'])}) n={s['n']}"


def _balanced(s: Mapping[str, Any]) -> str:
    ci = s.get("balanced_ci")
    interval = f" ({_pct(ci[0])}–{_pct(ci[1])})" if ci else ""
    return f"{_pct(s.get('balanced_accuracy'))}{interval} n={s['n']}"


def _protocols(sets: Mapping[str, Any]) -> list[str]:
    """Every protocol of the table, in the order the sets list them (first seen first)."""
    out: list[str] = []
    for data in sets.values():
        out += [name for name in data["protocols"] if name not in out]
    return out


def reference_of(protocols: Sequence[str]) -> str | None:
    """The protocol a set's others are tested against: ``cot`` if it ran, else the first."""
    return REFERENCE if REFERENCE in protocols else (protocols[0] if protocols else None)


def table_tests(sets: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Each protocol against the set's reference (:func:`reference_of`), on every set.

    The tests come from the set's paired tests (``analyse``'s ``pairs``), turned to read
    ``other − reference``; ``holm_table`` is the McNemar p Holm-adjusted over all the tests
    returned (the table's family), not over one set's.
    """
    tests: list[dict[str, Any]] = []
    for dataset, data in sets.items():
        ref = reference_of(list(data["protocols"]))
        for pair in data["pairs"]:
            if ref not in (pair["a"], pair["b"]):
                continue
            flip = pair["a"] == ref  # the pair reads a − b; the table reads other − ref
            tests.append(
                {
                    "dataset": dataset,
                    "reference": ref,
                    "protocol": pair["b"] if flip else pair["a"],
                    "n": pair["n"],
                    "diff": -pair["diff"] if flip else pair["diff"],
                    "low": -pair["diff_high"] if flip else pair["diff_low"],
                    "high": -pair["diff_low"] if flip else pair["diff_high"],
                    "only_ref": pair["only_a"] if flip else pair["only_b"],
                    "only_other": pair["only_b"] if flip else pair["only_a"],
                    "mcnemar_p": pair["mcnemar_p"],
                }
            )
    for test, adjusted in zip(tests, holm([t["mcnemar_p"] for t in tests]), strict=True):
        test["holm_table"] = adjusted
    return tests


def _accuracy_rows(sets: Mapping[str, Any]) -> list[str]:
    names = [n for n in NAMES if n in sets]
    lines = [
        "| | " + " | ".join(HEADERS[n] for n in names) + " | avg |",
        "|" + "---|" * (len(names) + 2),
    ]
    chance = [sets[n].get("reference", {}).get("chance") for n in names]
    mean = sum(chance) / len(chance) if len(names) == len(NAMES) and None not in chance else None
    lines.append(
        "| chance (a uniform guess) | " + " | ".join(_pct(c) for c in chance) + f" | {_pct(mean)} |"
    )
    majority = []
    for n in names:
        ref = sets[n].get("reference") or {}
        where = "calibration split" if ref.get("split") == "calibration" else "these questions"
        majority.append(
            f"{_pct(ref.get('accuracy'))} (`{ref.get('label')}`, {where}, n={ref.get('questions')})"
        )
    lines.append("| majority (always one label) | " + " | ".join(majority) + " | – |")
    for name in _protocols(sets):
        summaries = [sets[n]["protocols"].get(name) for n in names]
        accs = [s["accuracy"] for s in summaries if s and s["accuracy"] is not None]
        sizes = {s["n"] for s in summaries if s}
        # a mean over cells of different sizes mixes a finished draw with a begun one
        avg = sum(accs) / len(accs) if len(accs) == len(NAMES) and len(sizes) == 1 else None
        cells = [_cell(s) if s else "–" for s in summaries]
        lines.append(f"| **{name}** (this run) | " + " | ".join(cells) + f" | {_pct(avg)} |")
    for row in PUBLISHED:
        cells = [f"{row.accuracy[n]:.2f}" for n in names]
        lines.append(
            f"| *another model's:* {row.model} {row.method} (MIRAGE paper) | "
            + " | ".join(cells)
            + f" | {row.average:.2f} |"
        )
    return lines


def _balanced_rows(sets: Mapping[str, Any]) -> list[str]:
    names = [n for n in YES_NO if n in sets]
    if not names:
        return []
    lines = [
        "",
        "Balanced accuracy (%) on the yes/no sets: the mean of the per-gold-answer accuracies "
        "(a constant answer scores 1/labels whatever the label frequencies), with its 95% "
        "stratified-bootstrap interval:",
        "",
        "| | " + " | ".join(HEADERS[n] for n in names) + " |",
        "|" + "---|" * (len(names) + 1),
        "| chance, or any constant answer | "
        + " | ".join(_pct(sets[n].get("reference", {}).get("chance")) for n in names)
        + " |",
    ]
    for name in _protocols({n: sets[n] for n in names}):
        summaries = [sets[n]["protocols"].get(name) for n in names]
        cells = [_balanced(s) if s else "–" for s in summaries]
        lines.append(f"| **{name}** | " + " | ".join(cells) + " |")
    return lines


def _test_rows(tests: Sequence[Mapping[str, Any]]) -> list[str]:
    if not tests:
        return []
    lines = [
        "",
        f"Paired tests of the table ({len(tests)} tests, one family): each protocol against "
        f"`{REFERENCE}` (or the set's first protocol) on the questions both answered; Δ = "
        "other − reference in percentage points with its paired-bootstrap 95% interval; "
        "McNemar p exact; Holm p adjusted over all the tests of this table (read it, not the "
        "raw p):",
        "",
        "| set | protocol | vs | n | Δ pp (95% CI) | only ref right | only other right "
        "| McNemar p | Holm p (table) |",
        "|" + "---|" * 9,
    ]
    for t in tests:
        lines.append(
            f"| {HEADERS.get(t['dataset'], t['dataset'])} | {t['protocol']} | {t['reference']}"
            f" | {t['n']} | {_pp(t['diff'])} ({_pp(t['low'])} to {_pp(t['high'])})"
            f" | {t['only_ref']} | {t['only_other']} | {t['mcnemar_p']:.3f}"
            f" | {t['holm_table']:.3f} |"
        )
    return lines


def mirage_table(analysis: Mapping[str, Any]) -> list[str]:
    """The ``## MIRAGE table`` section of a report; no lines when no MIRAGE set is analysed.

    Calibration-split records (``mirage:<set>@calibration``) are not part of it.
    """
    sets = {n: analysis[n] for n in NAMES if n in analysis}
    if not sets:
        return []
    lines = [
        "",
        "## MIRAGE table",
        "",
        "Accuracy (%) with its 95% Wilson interval on MIRAGE's test sets, n questions a cell "
        "(the first n of one seeded draw of each set's test split, so a smaller n is inside a "
        "larger one); avg: the unweighted mean of the five, as MIRAGE averages, only for a "
        "protocol with all five at the same n. Chance and the majority label come from each set's "
        "calibration split (never drawn for a test); the majority row is that label's accuracy "
        "there. The rows marked *another model's* are published results of other models on "
        "all the questions, for scale only: " + SOURCE + ".",
        "",
        *_accuracy_rows(sets),
        *_balanced_rows(sets),
        *_test_rows(table_tests(sets)),
    ]
    return lines
