"""``disputatio eval report`` and ``eval calibrate-confidence``: reports of finished runs.

::

    disputatio eval report ~/.local/share/disputatio/eval/runs/<run id> [<run id>...] -o DIR
    disputatio eval calibrate-confidence <run id>   # writes <run>/confidence_model.json
"""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Any

import typer
from rich.console import Console

from disputatio.cli.eval_run import default_out
from disputatio.eval.confidence_fit import MIN_FIT

console = Console(emoji=False)


def report(
    runs: list[str] = typer.Argument(..., help="Run folders (or run ids under --runs)."),
    out: Path | None = typer.Option(None, "--out", "-o", help="Report folder (<run>/report)."),
    runs_root: Path | None = typer.Option(None, "--runs", help="Runs folder (<home>/eval/runs)."),
    seed: int = typer.Option(0, "--seed", help="Bootstrap seed."),
) -> None:
    """Write the Markdown report (tables, paired tests) and PNG plots of finished runs."""
    from disputatio.eval.render import write_report

    dirs = [_run_dir(r, runs_root) for r in runs]
    target = out or dirs[0] / "report"
    paths = write_report(dirs, target, seed=seed)
    for name, path in paths.items():
        console.print(f"{name}: {path}", highlight=False)


class Pool(StrEnum):
    """What one confidence model is fitted on."""

    dataset = "dataset"
    protocol = "protocol"


def calibrate_confidence(
    run: str = typer.Argument(..., help="Run folder (or run id under --runs)."),
    runs_root: Path | None = typer.Option(None, "--runs", help="Runs folder (<home>/eval/runs)."),
    by: Pool = typer.Option(
        Pool.dataset, "--by", help="One model per data set and protocol, or per protocol."
    ),
    min_records: int = typer.Option(
        MIN_FIT, "--min-records", min=2, help="Fewest answered calibration records to fit."
    ),
    seed: int = typer.Option(0, "--seed", help="Seed of the cross-validation folds."),
    calibration_runs: list[str] = typer.Option(
        [],
        "--calibration-run",
        help="Another run (same model and corpus) whose calibration records "
        "(mirage:<set>@calibration) fit the models too; repeatable.",
    ),
) -> None:
    """Fit each protocol's confidence on the run's calibration records; write it by them.

    The model (constant, Platt, isotonic or logistic on the measured signals, chosen by
    cross-validated log-loss) goes to ``<run>/confidence_model.json``; ``eval report`` reads
    it and scores the test records with it. A MIRAGE run draws test questions only: its
    calibration records come from a run of ``mirage:<set>@calibration`` (``--calibration-run``),
    which must use the same model and corpus; a different answering code is said, not refused.
    """
    from disputatio.eval.confidence import usable
    from disputatio.eval.confidence_fit import fit_models, write_models
    from disputatio.eval.render import load_runs

    run_dir = _run_dir(run, runs_root)
    manifests, records = load_runs([run_dir])
    for other in calibration_runs:
        (theirs,), more = load_runs([_run_dir(other, runs_root)])
        records += _calibration_records(manifests[0], theirs, more)
    models = fit_models(usable(records), by=by.value, seed=seed, min_records=min_records)
    models["calibration_runs"] = [str(c) for c in calibration_runs]
    path = write_models(run_dir, models)
    _print_models(models)
    console.print(f"models: {path}", highlight=False)


def _run_dir(run: str, runs_root: Path | None) -> Path:
    """A run folder given as a path, or as a run id under ``runs_root`` (<home>/eval/runs)."""
    if Path(run).is_dir():
        return Path(run)
    from disputatio.settings import get_settings

    return (runs_root or default_out(get_settings())) / run


def _calibration_records(
    ours: dict[str, Any], theirs: dict[str, Any], records: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """The calibration records of another run, if it ran the same model on the same corpus.

    Raises:
        ConfigError: If the other run used another model or corpus.
    """
    from disputatio.errors import ConfigError
    from disputatio.eval.confidence import split_of_record

    mine, other = ours.get("identity") or {}, theirs.get("identity") or {}
    for key in ("model", "corpus"):
        if mine.get(key) != other.get(key):
            raise ConfigError(
                f"--calibration-run {theirs['run_id']} used {key} {other.get(key)!r}, "
                f"this run {mine.get(key)!r}: a confidence fitted there does not carry over"
            )
    code = (mine.get("code") or {}).get("fingerprint"), (other.get("code") or {}).get("fingerprint")
    if code[0] != code[1]:
        console.print(
            f"note: {theirs['run_id']} ran other answering code ({code[1]} against {code[0]})",
            highlight=False,
        )
    return [r for r in records if split_of_record(r) == "calibration"]


def _print_models(models: dict[str, Any]) -> None:
    for m in models["models"]:
        where = f"{m['dataset']}/{m['protocol']}"
        if m["fitted"]:
            losses = ", ".join(f"{k} {v:.3f}" for k, v in m["cv_log_loss"].items())
            console.print(
                f"{where}: {m['kind']} on {m['n_calibration']} calibration records "
                f"({m['right']} right); CV log-loss {losses}",
                highlight=False,
                soft_wrap=True,
            )
        else:
            console.print(f"{where}: not fitted ({m['reason']})", highlight=False, soft_wrap=True)
