"""An evaluation run on disk: manifest, append-only results, and MedRAG-seed-shaped logs.

Layout of ``<out>/<run id>/``::

    manifest.json                      identity (the whole configuration), git, invocations
    results.jsonl                      one record per (dataset, protocol, question), fsynced
    logs/{dataset}/{corpus}/{mode}/{qid}__complete_debate.json
    logs/{dataset}/{corpus}/{mode}/summarization_logs.jsonl
    logs/{dataset}/{corpus}/{mode}/{dataset}_results.json

``results.jsonl`` is the source of truth for resumption: a line is written (and fsynced) when a
question is finished, so a run killed at any point loses at most the question in flight, and a
torn last line (killed mid-write) is cut off on the next open. Records with an ``error`` are
kept for the record but do not count as finished: they are retried on resume.
"""

from __future__ import annotations

import json
import os
import re
import threading
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from disputatio.errors import ConfigError

Key = tuple[str, str, str]  # (dataset, protocol, question id)
_UNSAFE = re.compile(r"[^A-Za-z0-9_.-]+")


def safe_name(text: str) -> str:
    """A file-name-safe form of an id (``bioasq_yesno_qa:12`` → ``bioasq_yesno_qa_12``)."""
    return _UNSAFE.sub("_", text).strip("_") or "_"


def now() -> str:
    """UTC time as ISO 8601."""
    return datetime.now(UTC).isoformat(timespec="seconds")


def key_of(record: Mapping[str, Any]) -> Key:
    """The (dataset, protocol, question id) of a record."""
    return (str(record["dataset"]), str(record["protocol"]), str(record["question_id"]))


class ResultsLog:
    """Append-only JSONL of finished records (thread-safe; every line fsynced).

    Readers (``eval report``, the LangSmith push) open it with ``writer=False``: nothing is
    created or repaired, and a last line without its newline (a run appending to the file at
    this moment, or one killed mid-write) is left out of :meth:`read`, never cut.

    Attributes:
        path: The ``results.jsonl`` file.
    """

    def __init__(self, path: Path, *, writer: bool = True) -> None:
        self.path = path
        self._lock = threading.Lock()
        if writer:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._repair()

    def _repair(self) -> None:
        """Cut a torn last line (a process killed mid-write)."""
        if not self.path.exists():
            return
        data = self.path.read_bytes()
        if data and not data.endswith(b"\n"):
            keep = data.rfind(b"\n") + 1
            with self.path.open("r+b") as fh:
                fh.truncate(keep)
                fh.flush()
                os.fsync(fh.fileno())

    def read(self) -> list[dict[str, Any]]:
        """Every complete record (a line ended by its newline), in the order written."""
        if not self.path.exists():
            return []
        data = self.path.read_bytes()
        complete = data[: data.rfind(b"\n") + 1].decode("utf-8")
        out = []
        for n, line in enumerate(complete.split("\n"), start=1):  # not splitlines: U+2028
            if not line.strip():
                continue
            try:
                out.append(json.loads(line))
            except json.JSONDecodeError as exc:
                raise ConfigError(f"{self.path}:{n} is not JSON ({exc.msg})") from exc
        return out

    def finished(self) -> dict[Key, dict[str, Any]]:
        """The first error-free record of each key (later duplicates are ignored)."""
        out: dict[Key, dict[str, Any]] = {}
        for record in self.read():
            if not record.get("error"):
                out.setdefault(key_of(record), record)
        return out

    def append(self, record: Mapping[str, Any]) -> None:
        """Write one record as one line and fsync it."""
        line = json.dumps(record, default=str, ensure_ascii=False) + "\n"
        with self._lock, self.path.open("a", encoding="utf-8") as fh:
            fh.write(line)
            fh.flush()
            os.fsync(fh.fileno())


def write_manifest(
    run_dir: Path, identity: Mapping[str, Any], invocation: Mapping[str, Any]
) -> None:
    """Create or extend ``manifest.json``; refuse a run folder of another identity.

    Raises:
        ConfigError: If the folder's manifest holds a different identity.
    """
    from disputatio.eval.config import git_revision

    path = run_dir / "manifest.json"
    run_dir.mkdir(parents=True, exist_ok=True)
    if path.exists():
        manifest = json.loads(path.read_text(encoding="utf-8"))
        if manifest.get("identity") != json.loads(json.dumps(identity, default=str)):
            raise ConfigError(f"{run_dir} holds a run of another configuration; use a new --out")
    else:
        manifest = {"run_id": run_dir.name, "identity": identity, "created": now(), "runs": []}
    manifest["runs"].append({"at": now(), "git": git_revision(), **invocation})
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(manifest, indent=2, default=str), encoding="utf-8")
    tmp.replace(path)


def read_manifest(run_dir: Path) -> dict[str, Any]:
    """The manifest of a run folder.

    Raises:
        ConfigError: If the folder is not a run folder.
    """
    path = run_dir / "manifest.json"
    if not path.is_file():
        raise ConfigError(f"{run_dir} is not an eval run folder (no manifest.json)")
    return dict(json.loads(path.read_text(encoding="utf-8")))


def mode_dir(run_dir: Path, record: Mapping[str, Any], corpus: str) -> Path:
    """``logs/{dataset}/{corpus}/{mode}`` of a record (mode = protocol)."""
    return run_dir / "logs" / record["dataset"] / corpus / record["protocol"]


def write_question_log(run_dir: Path, record: Mapping[str, Any], corpus: str) -> Path:
    """Write ``{qid}__complete_debate.json`` and append the summaries; return the JSON path."""
    folder = mode_dir(run_dir, record, corpus)
    folder.mkdir(parents=True, exist_ok=True)
    log = dict(record.get("log") or {})
    doc = {
        "question_id": record["question_id"],
        "question": record.get("question"),
        "options": record.get("options"),
        "correct_answer": record.get("gold"),
        "mode": record["protocol"],
        "protocol": record["protocol"],
        "dataset": record["dataset"],
        "corpus": corpus,
        **log,  # a debate's own seed-shaped log (its ``mode``, ``history``...) wins
        "final_answer": {  # the debate's own seed-named values win
            "answer_choice": record.get("answer"),
            "consensus_type": record.get("consensus_type"),
            **(log.get("final_answer") or {}),
            "is_correct": record.get("correct"),
        },
        "error": record.get("error"),
    }
    path = folder / f"{safe_name(str(record['question_id']))}__complete_debate.json"
    path.write_text(json.dumps(doc, indent=2, default=str, ensure_ascii=False), encoding="utf-8")
    summaries = log.get("summaries") or []
    if summaries:
        with (folder / "summarization_logs.jsonl").open("a", encoding="utf-8") as fh:
            for entry in summaries:
                line = {"question_id": record["question_id"], **entry}
                fh.write(json.dumps(line, default=str, ensure_ascii=False) + "\n")
    return path


def write_dataset_results(
    run_dir: Path, records: Iterable[Mapping[str, Any]], corpus: str
) -> list[Path]:
    """Write ``{dataset}_results.json`` (per question and accuracy) in every mode folder."""
    groups: dict[tuple[str, str], list[Mapping[str, Any]]] = {}
    for record in records:
        groups.setdefault((record["dataset"], record["protocol"]), []).append(record)
    paths = []
    for (dataset, _protocol), rows in sorted(groups.items()):
        folder = mode_dir(run_dir, rows[0], corpus)
        folder.mkdir(parents=True, exist_ok=True)
        correct = sum(bool(r.get("correct")) for r in rows)
        doc = {
            "dataset": dataset,
            "mode": rows[0]["protocol"],
            "corpus": corpus,
            "total": len(rows),
            "correct": correct,
            "accuracy": correct / len(rows) if rows else None,
            "results": [
                {
                    "question_id": r["question_id"],
                    "predicted_answer": r.get("answer"),
                    "correct_answer": r.get("gold"),
                    "is_correct": r.get("correct"),
                    "consensus_type": r.get("consensus_type"),
                    "wall_ms": r.get("wall_ms"),
                }
                for r in rows
            ],
        }
        path = folder / f"{dataset}_results.json"
        path.write_text(json.dumps(doc, indent=2, default=str), encoding="utf-8")
        paths.append(path)
    return paths
