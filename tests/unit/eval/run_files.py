"""Run folders of the report tests: a record, one run of records on disk, its Markdown report."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from disputatio.eval.render import write_report
from disputatio.eval.results import ResultsLog, write_manifest


def record(protocol: str, qid: str, answer: str | None, gold: str, **extra: Any) -> dict[str, Any]:
    """A finished ``results.jsonl`` record of the toy data set (``extra`` adds or replaces keys)."""
    return {
        "dataset": "toy",
        "protocol": protocol,
        "question_id": qid,
        "answer": answer,
        "gold": gold,
        "correct": answer == gold,
        "error": None,
        "wall_ms": 1000.0,
        "usage": {},
        **extra,
    }


def write_run(tmp_path: Path, records: list[dict[str, Any]]) -> Path:
    """A run folder (model ``m``, corpus ``kb``) under ``tmp_path`` holding ``records``."""
    run = tmp_path / "run"
    write_manifest(run, {"model": "m", "corpus": "kb"}, {})
    log = ResultsLog(run / "results.jsonl")
    for record in records:
        log.append(record)
    return run


def report_of(tmp_path: Path, records: list[dict[str, Any]]) -> str:
    """The Markdown report of one run (corpus kb) holding ``records``."""
    return write_report([write_run(tmp_path, records)], tmp_path / "report")["markdown"].read_text()
