"""The report of evaluation runs: Markdown tables and PNG plots (matplotlib, Agg backend).

``write_report(run_dirs, out)`` reads each run's ``results.jsonl``, computes
:func:`~disputatio.eval.analysis.analyse` (MIRAGE sets: with their calibration split, where
the majority baseline and chance are taken) and writes ``report.md``, ``report.json``,
``accuracy.png`` and ``accuracy_vs_tokens.png`` (:mod:`disputatio.eval.plots`), the MIRAGE
table of MIRAGE records (:mod:`disputatio.eval.render_mirage`), and the
confidence section (:mod:`disputatio.eval.confidence_report`: ECE, Brier, reliability and
risk-coverage of the raw and the fitted confidence, ``reliability.png`` and
``risk_coverage.png``). With several
runs, protocols are named ``<protocol>@<run id>`` so different configurations never merge.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from disputatio.errors import ConfigError
from disputatio.eval.analysis import RESAMPLES, analyse, protocol_summary
from disputatio.eval.confidence_report import (
    confidence_analysis,
    markdown_section,
    models_for_runs,
)
from disputatio.eval.mirage import calibration_questions, is_mirage
from disputatio.eval.plots import confidence_plots, plot
from disputatio.eval.question import Question
from disputatio.eval.render_mirage import mirage_table
from disputatio.eval.results import ResultsLog, read_manifest

__all__ = ["load_runs", "markdown", "plot", "summary_table", "write_report"]

NOT_A_RESULT = (
    "> **Labels.** `oracle` corpus = BM25 over the data set's own gold snippets (an upper "
    "bound, not retrieval). A run of a few questions is a smoke test of the harness, not a "
    "result: read the intervals."
)


def _f(value: Any, spec: str = ".3f") -> str:
    if value is None:
        return "–"
    return format(value, spec) if isinstance(value, int | float) else str(value)


def _p(value: float, resamples: int) -> str:
    """A bootstrap p-value; 0 means below the resolution ``1/resamples``."""
    return f"<{1 / resamples:.0e}" if value == 0 and resamples else _f(value)


def _ci(interval: Sequence[float] | None) -> str:
    """`` (0.512–0.634)`` or nothing."""
    return f" ({_f(interval[0])}–{_f(interval[1])})" if interval else ""


def _counts(counts: Mapping[str, int]) -> str:
    """``yes 13, no 7``: answers and how often each was given."""
    return ", ".join(f"{label} {n}" for label, n in counts.items()) or "–"


def load_runs(run_dirs: Sequence[Path]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """``(manifests, records)`` of the runs.

    With more than one run, protocols are suffixed with the run id (never merged).
    """
    manifests, records = [], []
    for run_dir in run_dirs:
        manifest = read_manifest(run_dir)
        log = ResultsLog(run_dir / "results.jsonl", writer=False)
        own = [check_analysable(record, f"{log.path}:{n}") for n, record in log.numbered()]
        manifests.append({**manifest, "records": record_totals(own)})
        for record in own:
            if len(run_dirs) > 1:
                record = {**record, "protocol": f"{record['protocol']}@{manifest['run_id']}"}
            records.append(record)
    return manifests, records


def check_analysable(record: dict[str, Any], where: str) -> dict[str, Any]:
    """``record`` if the report can read it (its fields have the shapes the analysis reads).

    A malformed record stops the report with one line naming its file and line rather than
    being skipped: the tables are paired comparisons on the same questions, and a record left
    out silently changes them (as a line that is not JSON already does).

    Raises:
        ConfigError: ``<file>:<line>: malformed record (...)``.
    """
    try:
        record_totals([record])
        if not record.get("error"):
            protocol_summary([record])
    except (KeyError, TypeError, AttributeError, ValueError) as exc:
        detail = f"{type(exc).__name__}: {exc}"
        raise ConfigError(
            f"{where}: malformed record ({detail[:120]}); fix or remove the line"
        ) from exc
    return record


def record_totals(records: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Records, errors, summed per-question wall time (h) and first/last finish of a run."""
    finished = sorted(str(r["finished_at"]) for r in records if r.get("finished_at"))
    return {
        "records": len(records),
        "errors": sum(1 for r in records if r.get("error")),
        "wall_h": sum(float(r.get("wall_ms") or 0.0) for r in records) / 3_600_000.0,
        "first": finished[0] if finished else None,
        "last": finished[-1] if finished else None,
    }


def _config_lines(manifest: Mapping[str, Any]) -> list[str]:
    ident = manifest.get("identity", {})
    keys = (
        *("model", "seed", "corpus", "tenant", "corpus_fingerprint", "k", "rounds"),
        *("temperatures", "max_tokens", "section_max_chars", "hier_k", "hier_max_tokens"),
    )
    parts = [f"{k}={ident.get(k)}" for k in keys if ident.get(k) is not None]
    chat = ident.get("settings", {}).get("models", {}).get("chat")
    code = ident.get("code", {})
    runs = manifest.get("runs", [])
    git = runs[-1].get("git", {}) if runs else {}
    out = [
        f"- run `{manifest['run_id']}`: model `{ident.get('model') or chat}`; " + ", ".join(parts),
        f"  - code {code.get('version')} fingerprint `{code.get('fingerprint')}`, "
        f"git `{str(git.get('sha'))[:12]}`{' (dirty)' if git.get('dirty') else ''}; "
        f"{len(runs)} invocation(s)",
    ]
    totals = manifest.get("records")
    if totals:
        out.append(
            f"  - {totals['records']} records ({totals['errors']} failed, retried on resume); "
            f"wall time of the questions summed: {totals['wall_h']:.2f} h; "
            f"first finished {totals['first']}, last {totals['last']}"
        )
    return out


def summary_table(analysis: Mapping[str, Any]) -> list[str]:
    """Every data set and protocol in one table: the headline numbers of the sections below."""
    if not analysis:
        return []
    lines = [
        "## Summary",
        "",
        "Each protocol on its own questions (n; the first n of the same draw): accuracy with its "
        "95% Wilson interval, the majority-class baseline on the same questions (its label "
        "chosen on the calibration split where the data set has one), balanced accuracy with "
        "its 95% stratified-bootstrap interval, cost per question, and chance (a uniform "
        "guess). Paired tests are in each data set's section.",
        "",
        "| data set | protocol | n | accuracy (95% CI) | majority | balanced (95% CI) | calls/q "
        "| tokens/q | p50 s | chance |",
        "|" + "---|" * 10,
    ]
    for dataset, data in analysis.items():
        chance = _f((data.get("reference") or {}).get("chance"))
        for name, s in data["protocols"].items():
            tokens = (s["input_tokens_per_q"] or 0) + (s["output_tokens_per_q"] or 0)
            lines.append(
                f"| {dataset} | {name} | {s['n']} | {_f(s['accuracy'])} "
                f"({_f(s['ci_low'])}–{_f(s['ci_high'])}) | {_f(s.get('majority'))} "
                f"| {_f(s['balanced_accuracy'])}{_ci(s.get('balanced_ci'))} "
                f"| {_f(s['calls_per_q'], '.1f')} | {_f(tokens, '.0f')} "
                f"| {_f(s['wall_p50_s'], '.1f')} | {chance} |"
            )
    return ["", *lines]


def markdown(manifests: Sequence[Mapping[str, Any]], analysis: Mapping[str, Any]) -> str:
    """The report as Markdown."""
    lines = ["# Evaluation report", "", NOT_A_RESULT, "", "## Runs", ""]
    for manifest in manifests:
        lines += _config_lines(manifest)
    if not analysis:
        lines += [
            "",
            "No finished records yet: run `disputatio eval run` (the same command resumes).",
        ]
    oracle = [m["run_id"] for m in manifests if m.get("identity", {}).get("corpus") == "oracle"]
    if oracle:
        lines += [
            "",
            f"**Oracle setting** ({', '.join(f'`{r}`' for r in oracle)}): retrieval searched "
            "only the data sets' own gold snippets, an upper bound, not a retrieval result.",
        ]
    lines += summary_table(analysis)
    lines += mirage_table(analysis)
    for dataset, data in analysis.items():
        lines += _dataset_section(dataset, data)
    lines += [
        "",
        "Change of answer (debates): the final answer differs from every initial answer; "
        "c→w: some initial answer was right, w→c: the final answer is right.",
        "",
    ]
    return "\n".join(lines)


def _dataset_section(dataset: str, data: Mapping[str, Any]) -> list[str]:
    """One data set's section: its protocol table, notes, tokens, answers and paired tests."""
    lines = ["", f"## {dataset} ({data['questions']} questions)", "", _baseline_line(data), ""]
    lines += _protocol_table(data)
    lines += _protocol_notes(data)
    lines += ["", "Tokens per question by role (in / out):", ""]
    for name, s in data["protocols"].items():
        roles = ", ".join(
            f"{role} {_f(v.get('input_tokens'), '.0f')}/{_f(v.get('output_tokens'), '.0f')}"
            for role, v in s["tokens_by_role"].items()
        )
        lines.append(f"- {name}: {roles or '–'}")
    lines += _answers_given(data)
    lines += _gold_recall(data)
    if data["pairs"]:
        lines += _pairs_table(data["pairs"])
    return lines


def _protocol_table(data: Mapping[str, Any]) -> list[str]:
    """One row per protocol: accuracy, its interval, the baseline, cost, rounds, changes."""
    base = data["baseline"]
    lines = [
        f"| protocol | n | accuracy | 95% CI | always `{base['label']}` | unanswered | calls/q "
        "| tok in/q | tok out/q | p50 s | p95 s | rounds | tool calls/q | cited/q | converged "
        "| c→w | w→c | w→w |",
        "|" + "---|" * 18,
    ]
    for name, s in data["protocols"].items():
        ch = s["change"] or {}
        conv = s["convergence_rate"]
        lines.append(
            f"| {name} | {s['n']} | {_f(s['accuracy'])} | {_f(s['ci_low'])}–{_f(s['ci_high'])}"
            f" | {_f(s.get('majority'))}"
            f" | {s['unanswered']} | {_f(s['calls_per_q'], '.1f')}"
            f" | {_f(s['input_tokens_per_q'], '.0f')} | {_f(s['output_tokens_per_q'], '.0f')}"
            f" | {_f(s['wall_p50_s'], '.1f')} | {_f(s['wall_p95_s'], '.1f')}"
            f" | {_f(s['rounds_mean'], '.2f')} | {_f(s['tool_calls_per_q'], '.1f')}"
            f" | {_f(s['sections_cited_per_q'], '.1f')} | {_f(conv, '.2f')}"
            f" | {_f(ch.get('correct_to_wrong'), '')} | {_f(ch.get('wrong_to_correct'), '')}"
            f" | {_f(ch.get('wrong_to_wrong'), '')} |"
        )
    return lines


def _protocol_notes(data: Mapping[str, Any]) -> list[str]:
    """Resumed runs left out of the latencies, hierarchical plans, self-consistency budgets."""
    lines: list[str] = []
    resumed = {n: s["resumed"] for n, s in data["protocols"].items() if s["resumed"]}
    if resumed:
        lines += [
            "",
            "Left out of p50/p95 (resumed after a kill: only the resumed part was timed): "
            + ", ".join(f"{name} {k}" for name, k in resumed.items())
            + ".",
        ]
    plans = {n: s["decomposed"] for n, s in data["protocols"].items() if s["decomposed"]}
    if plans:
        lines += ["", "Hierarchical plans:", ""]
        lines += [
            f"- {name}: {d['decomposed']} of {d['questions']} questions decomposed"
            f" ({_f(d['sub_questions_mean'], '.1f')} sub-questions on average);"
            f" {d['with_debate']} with a debated leaf"
            for name, d in plans.items()
        ]
    budgets = {n: s["budget"] for n, s in data["protocols"].items() if s["budget"]}
    if budgets:
        lines += ["", "Self-consistency budget (matched to the debate's actual use):", ""]
        for name, b in budgets.items():
            own = data["protocols"][name]
            sc_tokens = (own["input_tokens_per_q"] or 0) + (own["output_tokens_per_q"] or 0)
            lines.append(
                f"- {name}: {b['matched']}/{own['n']} matched; debate "
                f"{_f(b['target_calls_per_q'], '.1f')} calls, "
                f"{_f(b['target_tokens_per_q'], '.0f')} tokens per question; SC "
                f"{_f(own['calls_per_q'], '.1f')} calls, "
                f"{_f(sc_tokens, '.0f')}"
                " tokens per question"
            )
    return lines


def _answers_given(data: Mapping[str, Any]) -> list[str]:
    """The answers each protocol gave, beside the gold ones, with balanced accuracy."""
    lines = [
        "",
        "Answers given (final answers; the gold answers of the same questions; balanced "
        "accuracy, the mean of the per-gold-answer accuracies, 0.5 for a constant yes/no; "
        "the debaters' first answers to the question itself, by role):",
        "",
    ]
    for name, s in data["protocols"].items():
        line = (
            f"- {name}: {_counts(s['answers'])} (gold: {_counts(s['gold_answers'])}); "
            f"balanced accuracy {_f(s['balanced_accuracy'])}"
        )
        first = s["first_answers_by_role"]
        if first:
            line += "; first answers: " + "; ".join(
                f"{role} {_counts(counts)}" for role, counts in first.items()
            )
        lines.append(line)
    return lines


def _gold_recall(data: Mapping[str, Any]) -> list[str]:
    """Each ``found``-setting protocol's recall@k of the gold evidence (before its removal)."""
    found = {n: s["gold_recall"] for n, s in data["protocols"].items() if s.get("gold_recall")}
    if not found:
        return []
    lines = [
        "",
        "Gold evidence found (the *found* setting: the share of the question's gold snippets "
        "among the first k sections the search returned, before they were taken out of what "
        "the model saw):",
        "",
    ]
    for name, g in found.items():
        k = g["k"] if g["k"] is not None else "k"
        lines.append(
            f"- {name}: recall@{k} mean {_f(g['mean'])} over {g['n']} questions; at least one "
            f"gold snippet found for {g['any']}, all for {g['all']}"
        )
    return lines


def _baseline_line(data: Mapping[str, Any]) -> str:
    """Where the majority label and chance come from, and what they score there."""
    base, ref = data["baseline"], data.get("reference") or {}
    label, acc = base["label"], _f(base["accuracy"])
    chance = f"; chance (a uniform guess) = {_f(ref.get('chance'))}" if ref.get("chance") else ""
    column = f"column `always {label}`: its accuracy on each protocol's own questions"
    if ref.get("split") == "calibration":
        return (
            f"Majority-class baseline: always `{label}` = {acc} on the calibration split "
            f"({ref['questions']} questions, never drawn for a test: the label is not chosen on "
            f"the questions it is compared with){chance} ({column})."
        )
    return (
        f"Majority-class baseline: always `{label}` = {acc} on all {data['questions']} "
        f"questions (chosen on the questions evaluated: no calibration split){chance} ({column})."
    )


def _pairs_table(pairs: Sequence[Mapping[str, Any]]) -> list[str]:
    """The paired tests of one data set: McNemar p raw and Holm-adjusted over the table."""
    lines = [
        "",
        "Paired tests (on the questions both protocols ran, an unanswered question "
        "counting as wrong; b = only A right, c = only B right). Holm p: the McNemar p "
        f"adjusted for the {len(pairs)} tests of this table (family-wise error); read it, "
        "not the raw p, when asking whether any of these differences is real:",
        "",
        "| A | B | n | acc A | acc B | b | c | McNemar p | Holm p | Δ (A−B) | bootstrap 95% CI "
        f"| bootstrap p ({RESAMPLES} resamples) |",
        "|" + "---|" * 12,
    ]
    for p in pairs:
        lines.append(
            f"| {p['a']} | {p['b']} | {p['n']} | {_f(p['acc_a'])} | {_f(p['acc_b'])}"
            f" | {p['only_a']} | {p['only_b']} | {_f(p['mcnemar_p'])}"
            f" | {_f(p.get('mcnemar_p_holm'))} | {_f(p['diff'])}"
            f" | {_f(p['diff_low'])}–{_f(p['diff_high'])} | {_p(p['bootstrap_p'], RESAMPLES)} |"
        )
    return lines


def calibration_of(datasets: Iterable[str]) -> dict[str, list[Question]]:
    """The calibration split of each data set that has one (the MIRAGE sets)."""
    return {d: calibration_questions(d) for d in datasets if is_mirage(d)}


def write_report(run_dirs: Sequence[Path], out: Path, *, seed: int = 0) -> dict[str, Path]:
    """Write ``report.md``, ``report.json`` and the plots into ``out``; return their paths."""
    out.mkdir(parents=True, exist_ok=True)
    manifests, records = load_runs(run_dirs)
    calibration = calibration_of({str(r["dataset"]) for r in records})
    result = analyse(records, seed=seed, calibration=calibration)
    models, origin = models_for_runs(run_dirs, manifests, records, seed=seed)
    confidence = confidence_analysis(records, models, seed=seed)
    paths = {"markdown": out / "report.md", "json": out / "report.json"}
    pngs = plot(result, out) + confidence_plots(confidence, out)
    text = markdown(manifests, result) + markdown_section(confidence, origin)
    if pngs:
        text += "\n" + "\n".join(f"![{p.stem}]({p.name})" for p in pngs) + "\n"
    paths["markdown"].write_text(text, encoding="utf-8")
    doc = {**result, "confidence": confidence} if confidence else result
    paths["json"].write_text(json.dumps(doc, indent=2, default=str), encoding="utf-8")
    paths.update({p.stem: p for p in pngs})
    return paths
