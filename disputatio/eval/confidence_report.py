"""The confidence section of the eval report: calibration and risk-coverage, raw and fitted.

:func:`confidence_analysis` measures, per data set and protocol, the records' raw confidence
(:func:`~disputatio.eval.confidence.raw_confidence`) on every answered record that carries
one, and the fitted confidence (:mod:`disputatio.eval.confidence_fit`) beside the raw one on
the test split (cross-fitted on the test records, out of fold, for a group without calibration
records: :func:`~disputatio.eval.confidence_fit.cross_fitted`); :func:`markdown_section`
writes it; :func:`models_for_runs` takes each run's kept models
(``<run>/confidence_model.json``) or fits them in memory.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from disputatio.eval.analysis import protocol_order
from disputatio.eval.confidence import (
    SOURCES,
    by_group,
    is_right,
    raw_confidence,
    split_of_record,
    usable,
)
from disputatio.eval.confidence_fit import (
    CANDIDATES,
    FOLDS,
    MODEL_FILE,
    cross_fitted,
    find_model,
    fit_models,
    fitted_confidence,
    read_models,
)
from disputatio.eval.confidence_metrics import BINS, RESAMPLES, confidence_summary


def models_for_runs(
    run_dirs: Sequence[Path],
    manifests: Sequence[Mapping[str, Any]],
    records: Sequence[Mapping[str, Any]],
    *,
    seed: int = 0,
) -> tuple[dict[str, Any], list[str]]:
    """The confidence models of the runs and where each run's came from.

    ``records`` are :func:`~disputatio.eval.render.load_runs`'s (protocols suffixed with
    ``@<run id>`` when there are several runs); a run without ``confidence_model.json`` is
    fitted here, in memory, on its own calibration records.
    """
    several = len(run_dirs) > 1
    models: list[dict[str, Any]] = []
    origin = []
    for run_dir, manifest in zip(run_dirs, manifests, strict=True):
        run_id = str(manifest["run_id"])
        suffix = f"@{run_id}" if several else ""
        kept = read_models(run_dir)
        if kept is not None:
            origin.append(f"`{run_id}`: kept in `{MODEL_FILE}` (by {kept.get('by')})")
            models += [{**m, "protocol": f"{m['protocol']}{suffix}"} for m in kept["models"]]
            continue
        own = [r for r in records if not several or str(r["protocol"]).endswith(suffix)]
        fitted = fit_models(usable(own), seed=seed)
        origin.append(
            f"`{run_id}`: fitted in memory for this report (`disputatio eval "
            f"calibrate-confidence {run_dir}` keeps it in `{MODEL_FILE}`)"
        )
        models += fitted["models"]
    return {"models": models}, origin


def _group(
    rows: Sequence[Mapping[str, Any]], model: Mapping[str, Any] | None, seed: int, resamples: int
) -> dict[str, Any]:
    raws = [(raw_confidence(r), r) for r in rows]
    scored = [(c, r) for (c, _src), r in raws if c is not None]
    sources = sorted({src for (_c, src), _r in raws if src})
    out: dict[str, Any] = {
        "records": len(rows),
        "answered": sum(1 for r in rows if r.get("answer") is not None),
        "with_confidence": len(scored),
        "sources": [SOURCES[s] for s in sources],
        "raw": confidence_summary(
            [c for c, _ in scored], [is_right(r) for _, r in scored], resamples=resamples, seed=seed
        ),
    }
    if model is None:
        out["fit"] = {"fitted": False, "reason": "no model for this protocol"}
        return out
    out["fit"] = {k: v for k, v in model.items() if k != "calibration_ids"}
    test = [r for r in rows if split_of_record(r) == "test" and r.get("answer") is not None]
    if model.get("fitted"):
        fitted = [fitted_confidence(model, r) for r in test]
    else:  # no calibration records: out-of-fold fits on the test records, said as such
        fitted, kinds = cross_fitted(test, seed=seed)
        if not kinds:
            return out
        out["fit"]["cross"] = {"folds": len(kinds), "kinds": kinds}
    out["test"] = _test_summary(test, fitted, seed, resamples)
    return out


def _test_summary(
    test: Sequence[Mapping[str, Any]], fitted: Sequence[float | None], seed: int, resamples: int
) -> dict[str, Any]:
    """The fitted confidence on the test records, and the raw one on the same records."""
    pairs = [(f, raw_confidence(r)[0], r) for f, r in zip(fitted, test, strict=True)]
    with_fit = [(f, c, r) for f, c, r in pairs if f is not None]
    both = [(f, c, r) for f, c, r in with_fit if c is not None]
    return {
        "answered": len(test),
        "with_fitted": len(with_fit),
        "fitted": confidence_summary(
            [f for f, _, _ in with_fit],
            [is_right(r) for _, _, r in with_fit],
            resamples=resamples,
            seed=seed,
        ),
        # the raw confidence on the same test records (those of them that carry one)
        "raw": confidence_summary(
            [c for _, c, _ in both], [is_right(r) for _, _, r in both], resamples=0
        ),
        "fitted_on_raw_records": confidence_summary(
            [f for f, _, _ in both], [is_right(r) for _, _, r in both], resamples=0
        ),
    }


def confidence_analysis(
    records: Sequence[Mapping[str, Any]],
    models: Mapping[str, Any],
    *,
    seed: int = 0,
    resamples: int = RESAMPLES,
) -> dict[str, dict[str, Any]]:
    """``{dataset: {protocol: {records, answered, with_confidence, sources, raw, fit, test}}}``.

    ``raw``: :func:`~disputatio.eval.confidence_metrics.confidence_summary` of the raw
    confidence on every answered record carrying one; ``test`` (fitted groups only): the
    fitted confidence on the test split, and the raw one on the same records.
    """
    out: dict[str, dict[str, Any]] = {}
    groups = by_group(usable(records))
    for dataset, protocol in sorted(groups, key=lambda k: (k[0], protocol_order(k[1]))):
        model = find_model(models, dataset, protocol)
        out.setdefault(dataset, {})[protocol] = _group(
            groups[(dataset, protocol)], model, seed, resamples
        )
    return out


def _f(value: Any, spec: str = ".3f") -> str:
    return "–" if value is None else format(value, spec)


def _ci(summary: Mapping[str, Any], key: str) -> str:
    ci = (summary.get("ci") or {}).get(key)
    return f" ({ci[0]:.3f}–{ci[1]:.3f})" if ci else ""


def _arrow(raw: Mapping[str, Any], fitted: Mapping[str, Any], key: str) -> str:
    return f"{_f(raw.get(key))} → {_f(fitted.get(key))}"


def _acc_at(summary: Mapping[str, Any]) -> list[str]:
    at = summary.get("accuracy_at") or {}
    return [_f(at.get(c)) for c in ("0.5", "0.8", "1.0")]


def _raw_table(analysis: Mapping[str, Mapping[str, Any]]) -> list[str]:
    lines = [
        "| data set | protocol | records | with confidence | source | accuracy | mean conf. "
        "| ECE (95% CI) | Brier (95% CI) | AUC acc.-coverage (95% CI) | best AUC "
        "| acc. @50% | @80% | @100% |",
        "|" + "---|" * 14,
    ]
    for dataset, protocols in analysis.items():
        for name, g in protocols.items():
            s = g["raw"]
            if not s.get("n"):
                lines.append(
                    f"| {dataset} | {name} | {g['records']} | 0 of {g['answered']} answered "
                    "| none written | – | – | – | – | – | – | – | – | – |"
                )
                continue
            lines.append(
                f"| {dataset} | {name} | {g['records']} | {s['n']} of {g['answered']} answered "
                f"| {', '.join(g['sources'])} | {_f(s['accuracy'])} | {_f(s['mean_confidence'])} "
                f"| {_f(s['ece'])}{_ci(s, 'ece')} | {_f(s['brier'])}{_ci(s, 'brier')} "
                f"| {_f(s['area'])}{_ci(s, 'area')} | {_f(s['best_area'])} | "
                + " | ".join(_acc_at(s))
                + " |"
            )
    return lines


def _fit_table(analysis: Mapping[str, Mapping[str, Any]]) -> list[str]:
    lines = [
        "| data set | protocol | model | signals | calibration n (right) | CV log-loss "
        "| test n | ECE raw → fitted | Brier raw → fitted | AUC raw → fitted "
        "| acc. @50% raw → fitted | fitted ECE (95% CI) |",
        "|" + "---|" * 12,
    ]
    for dataset, protocols in analysis.items():
        for name, g in protocols.items():
            fit = g["fit"]
            if not fit.get("fitted") and "cross" not in fit:
                lines.append(f"| {dataset} | {name} | not fitted: {fit['reason']} |" + " |" * 9)
                continue
            t = g["test"]
            raw, fitted, same = t["raw"], t["fitted"], t["fitted_on_raw_records"]
            if "cross" in fit:  # no calibration records: out-of-fold fits on the test ones
                kinds = ", ".join(sorted(set(fit["cross"]["kinds"])))
                head = f"cross-fitted ({fit['cross']['folds']} folds): {kinds} | – | – | – "
            else:
                cv = fit["cv_log_loss"]
                losses = ", ".join(f"{k} {cv[k]:.3f}" for k in CANDIDATES if k in cv)
                head = (
                    f"{fit['kind']} | {', '.join(fit['features']) or '–'} "
                    f"| {fit['n_calibration']} ({fit['right']}) | {losses} "
                )
            if raw.get("n"):  # side by side on the test records that carry a raw confidence
                cells = [_arrow(raw, same, k) for k in ("ece", "brier", "area")]
                at = (raw.get("accuracy_at") or {}).get("0.5")
                cells.append(f"{_f(at)} → {_f((same.get('accuracy_at') or {}).get('0.5'))}")
                n = f"{fitted.get('n', 0)} ({raw['n']} with raw)"
            else:
                cells = [f"none → {_f(fitted.get(k))}" for k in ("ece", "brier", "area")]
                cells.append(f"none → {_acc_at(fitted)[0]}")
                n = str(fitted.get("n", 0))
            lines.append(
                f"| {dataset} | {name} | {head}| {n} | "
                + " | ".join(cells)
                + f" | {_f(fitted.get('ece'))}{_ci(fitted, 'ece')} |"
            )
    return lines


def markdown_section(analysis: Mapping[str, Mapping[str, Any]], origin: Sequence[str]) -> str:
    """The ``## Confidence`` section of the report (empty without records)."""
    if not analysis:
        return ""
    lines = [
        "",
        "## Confidence",
        "",
        "How far each protocol's confidence can be trusted. **Raw**: the confidence the record "
        "carries (the chosen option's probability for log-probability protocols, the "
        "`confidence` validator's score for debates, a record's own `confidence`); records "
        "without one are counted, never given one. ECE: expected calibration error over "
        f"{BINS} equal-width bins; Brier: mean squared error against right (1) / wrong (0); "
        "AUC acc.-coverage: the mean accuracy of the k most confident answers over k = 1..n "
        "(a confidence that ranks nothing scores the accuracy, the best ranking scores "
        "`best AUC`); acc. @c: accuracy of the most confident share c. Intervals: 95% "
        f"percentile bootstrap over answers ({RESAMPLES} resamples). Unanswered records have no "
        "confidence and are left out of these measures.",
        "",
        *_raw_table(analysis),
        "",
        "**Fitted**: per data set and protocol, fitted on the calibration split only (the "
        "MIRAGE id hash of `data set:question id`, or the record's `split`), scored on the "
        "test split. Candidates: constant (the calibration accuracy), Platt and isotonic "
        "maps of the raw confidence, and a logistic regression on the measured signals "
        "(option margin, agents' or samples' agreement, retrieval scores, support verdicts); "
        "the one with the lowest 5-fold cross-validated log-loss on the calibration split is "
        "kept (`CV log-loss`). Raw → fitted compares them on the same test records. "
        "A group with no calibration records (MIRAGE test draws) is **cross-fitted**: its "
        f"test records in {FOLDS} folds, each scored by a model chosen and fitted as above "
        "on the other folds only (the kinds chosen are listed); it measures fitting on this "
        "many questions, not one kept model.",
        "",
        *[f"- models of run {o}" for o in origin],
        "",
        *_fit_table(analysis),
        "",
    ]
    return "\n".join(lines)
