r"""Flag the records of runs made before ``resumed`` was recorded, from checkpoint timestamps.

Since commit 2e74477 a debate record says ``"resumed": true`` when its question continued a
killed process's run (its ``wall_ms`` then covers only the resumed part) and the report leaves
it out of p50/p95. Records made before that have no flag. A debate's thread keeps its first
checkpoint in Postgres: when that checkpoint is older than the record's own start
(``finished_at - wall_ms``), the question was started by an earlier process. This script sets
``"resumed": true`` (and ``"resumed_from": <first checkpoint time>``) on those records, in place.

Only threads whose checkpoints are in THIS database can be checked (the records made on another
machine are reported as unchecked). Run it on runs that no process is writing to (a run being
written could lose a line while its file is replaced):

    DISPUTATIO_HOME=/tmp/dh-results .venv/bin/python benchmarks/mark_resumed.py \
        RUN_DIR... [--dry-run]
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import sys
from pathlib import Path
from typing import Any

#: A first checkpoint this much older than the record's own start means an earlier process
#: began the question (the process that finished it writes its first checkpoint at once).
SLACK_S = 60.0


def first_checkpoints(thread_ids: set[str]) -> dict[str, dt.datetime]:
    """The time of each thread's first top-level checkpoint, for threads this database holds."""
    from disputatio.settings import load_settings
    from disputatio.storage.db import connect

    with connect(load_settings()) as conn:
        rows = conn.execute(
            "SELECT thread_id, min(checkpoint->>'ts') FROM checkpoints "
            "WHERE checkpoint_ns = '' AND thread_id = ANY(%s) GROUP BY thread_id",
            (sorted(thread_ids),),
        ).fetchall()
    return {str(t): dt.datetime.fromisoformat(str(ts)) for t, ts in rows}


def resumed_from(record: dict[str, Any], first: dt.datetime) -> dt.datetime | None:
    """``first`` when it is older than the record's own start by more than SLACK_S, else None."""
    if not record.get("finished_at") or not record.get("wall_ms"):
        return None
    finished = dt.datetime.fromisoformat(str(record["finished_at"]))
    start = finished - dt.timedelta(milliseconds=float(record["wall_ms"]))
    return first if (start - first).total_seconds() > SLACK_S else None


def mark(run_dir: Path, *, dry_run: bool) -> None:
    """Flag the resumed records of one run folder; print what was found."""
    path = run_dir / "results.jsonl"
    records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    threads = {str(r["thread_id"]) for r in records if r.get("thread_id")}
    first = first_checkpoints(threads)
    checked = flagged = unchecked = 0
    for record in records:
        if record.get("thread_id") not in first:
            unchecked += bool(record.get("thread_id"))
            continue
        checked += 1
        since = resumed_from(record, first[record["thread_id"]])
        if since is not None and not record.get("resumed"):
            flagged += 1
            record["resumed"] = True
            record["resumed_from"] = since.isoformat()
            print(
                f"  {record['dataset']} {record['protocol']} {record['question_id']}: "
                f"{float(record['wall_ms']) / 1000:.0f} s timed, started {since:%Y-%m-%d %H:%M} "
                f"UTC, finished {record['finished_at']}"
            )
    print(
        f"{run_dir.name}: {checked} checked, {flagged} flagged, {unchecked} without a checkpoint "
        "here (single-call protocols keep none; or made on another machine)"
    )
    if flagged and not dry_run:
        tmp = path.with_suffix(".jsonl.tmp")
        lines = (json.dumps(r, default=str, ensure_ascii=False) + "\n" for r in records)
        tmp.write_text("".join(lines), encoding="utf-8")
        os.replace(tmp, path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="+", type=Path, help="run folders (with results.jsonl)")
    parser.add_argument("--dry-run", action="store_true", help="report only; change nothing")
    args = parser.parse_args(argv)
    for run_dir in args.runs:
        mark(run_dir, dry_run=args.dry_run)
    return 0


if __name__ == "__main__":
    sys.exit(main())
