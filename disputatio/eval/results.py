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
kept for the record but do not count as finished: they are retried on resume. The log files are
written after a record's line; on resume :func:`heal_question_logs` restores what a kill left
out (a question's JSON file, its summary lines), never duplicating a line already there.
"""

from __future__ import annotations

import json
import os
import re
import threading
from collections import Counter
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


#: Keys every record has: its place in the run (see :func:`key_of`).
REQUIRED_KEYS = ("dataset", "protocol", "question_id")


def check_record(value: Any, where: str) -> dict[str, Any]:
    """``value`` if it is a record (a JSON object with :data:`REQUIRED_KEYS`).

    Args:
        value: One parsed line of ``results.jsonl``.
        where: ``<file>:<line>`` for the message.

    Raises:
        ConfigError: If it is not an object, or lacks (or has a non-scalar) required key.
    """
    if not isinstance(value, dict):
        kind = {list: "an array", str: "a string", bool: "a boolean", type(None): "null"}.get(
            type(value), "a number"
        )
        raise ConfigError(f"{where}: not a record (JSON {kind}, not an object); fix or remove it")
    missing = [k for k in REQUIRED_KEYS if not isinstance(value.get(k), str | int)]
    if missing:
        raise ConfigError(
            f"{where}: record without {', '.join(missing)} (a record names its dataset, "
            "protocol and question_id); fix or remove the line"
        )
    return value


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
        """Every complete record (a line ended by its newline), in the order written.

        Raises:
            ConfigError: Naming the file and line of one that is not JSON or not a record.
        """
        return [record for _n, record in self.numbered()]

    def numbered(self) -> list[tuple[int, dict[str, Any]]]:
        """``(line number, record)`` of every complete record (see :meth:`read`)."""
        if not self.path.exists():
            return []
        data = self.path.read_bytes()
        complete = data[: data.rfind(b"\n") + 1].decode("utf-8")
        out = []
        for n, line in enumerate(complete.split("\n"), start=1):  # not splitlines: U+2028
            if not line.strip():
                continue
            try:
                value = json.loads(line)
            except json.JSONDecodeError as exc:
                raise ConfigError(f"{self.path}:{n} is not JSON ({exc.msg})") from exc
            out.append((n, check_record(value, f"{self.path}:{n}")))
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


#: The seed's per-mode log of the debates' summaries (one line per summary, appended).
SUMMARY_LOG = "summarization_logs.jsonl"


def question_log_name(record: Mapping[str, Any]) -> str:
    """``{qid}__complete_debate.json`` of a record."""
    return f"{safe_name(str(record['question_id']))}__complete_debate.json"


def summary_lines(record: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The ``summarization_logs.jsonl`` lines of a record (its debate's summaries)."""
    log = record.get("log") or {}
    return [{"question_id": record["question_id"], **entry} for entry in log.get("summaries") or []]


def _debate_doc(record: Mapping[str, Any], corpus: str) -> dict[str, Any]:
    log = dict(record.get("log") or {})
    return {
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


def _append_lines(path: Path, lines: Iterable[Mapping[str, Any]]) -> None:
    with path.open("a", encoding="utf-8") as fh:
        for line in lines:
            fh.write(json.dumps(line, default=str, ensure_ascii=False) + "\n")


def write_question_log(run_dir: Path, record: Mapping[str, Any], corpus: str) -> Path:
    """Write ``{qid}__complete_debate.json`` and append the summaries; return the JSON path."""
    folder = mode_dir(run_dir, record, corpus)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / question_log_name(record)
    doc = _debate_doc(record, corpus)
    path.write_text(json.dumps(doc, indent=2, default=str, ensure_ascii=False), encoding="utf-8")
    lines = summary_lines(record)
    if lines:
        _append_lines(folder / SUMMARY_LOG, lines)
    return path


def _canonical(line: Any) -> str:
    return json.dumps(line, sort_keys=True, default=str, ensure_ascii=False)


def _logged_summaries(path: Path) -> Counter[str]:
    """The summary lines ``path`` holds (canonical JSON, counted); a torn last line is cut."""
    if not path.exists():
        return Counter()
    data = path.read_bytes()
    if data and not data.endswith(b"\n"):  # killed mid-append: that line is rewritten
        keep = data.rfind(b"\n") + 1
        with path.open("r+b") as fh:
            fh.truncate(keep)
        data = data[:keep]
    present: Counter[str] = Counter()
    for line in data.decode("utf-8").split("\n"):  # not splitlines: U+2028
        if not line.strip():
            continue
        try:
            present[_canonical(json.loads(line))] += 1
        except json.JSONDecodeError:
            continue  # not a summary: it matches nothing, the summary is written again
    return present


def heal_question_logs(
    run_dir: Path, records: Iterable[Mapping[str, Any]], corpus: str
) -> dict[str, int]:
    """Redo the log files of finished records that a kill left without them.

    A question's log files are written after its ``results.jsonl`` line: first
    ``{qid}__complete_debate.json``, then its summaries appended to ``summarization_logs.jsonl``.
    A kill in between leaves either or both missing (or a torn last summary line, cut here).
    Each record gets its JSON file back if it has none, and exactly the summary lines the log
    lacks (compared as parsed JSON, counted per line), so lines already there are never
    duplicated and a run repaired twice is unchanged.

    Returns:
        ``{"debates": JSON files written, "summaries": summary lines appended}``.
    """
    healed = {"debates": 0, "summaries": 0}
    by_folder: dict[Path, list[Mapping[str, Any]]] = {}
    for record in records:
        by_folder.setdefault(mode_dir(run_dir, record, corpus), []).append(record)
    for folder, rows in by_folder.items():
        present = _logged_summaries(folder / SUMMARY_LOG)
        missing: list[dict[str, Any]] = []
        for record in rows:
            path = folder / question_log_name(record)
            if not path.exists():
                folder.mkdir(parents=True, exist_ok=True)
                doc = _debate_doc(record, corpus)
                text = json.dumps(doc, indent=2, default=str, ensure_ascii=False)
                path.write_text(text, encoding="utf-8")
                healed["debates"] += 1
            for line in summary_lines(record):
                key = _canonical(json.loads(_canonical(line)))  # as it reads back from the file
                if present[key]:
                    present[key] -= 1
                else:
                    missing.append(line)
        if missing:
            folder.mkdir(parents=True, exist_ok=True)
            _append_lines(folder / SUMMARY_LOG, missing)
            healed["summaries"] += len(missing)
    return healed


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
