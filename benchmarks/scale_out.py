"""Ingestion throughput of the task queue with 1 and 2 workers, and its overhead per task.

    python benchmarks/scale_out.py --files 500 --out /tmp/scale-out.json

What it does, in its own DISPUTATIO_HOME under /tmp (its own embedded Postgres; ``--home``):

1. Writes ``--files`` small distinct ``.txt`` notes (one or two sentences each).
2. For 1 and then 2 workers: starts that many ``disputatio worker`` processes (real models,
   default settings; ``--concurrency`` each), waits until each has registered with the queue
   (model loading is not timed here), enqueues one ingestion job per file exactly as ``POST
   /ingest`` does (``store.create_job``: the job row and its queue task in one transaction,
   for a fresh tenant), and times from the first enqueue to the last task finished. Files/s =
   files ÷ that time. Then checks every file was ingested once (one document per hash).
3. Queue overhead per task: with one worker up and idle, ``--pings`` times in sequence, enqueue
   a task that does nothing (``disputatio.ping``) and poll (every 2 ms) until it is
   ``succeeded``: the median and p90 of enqueue-to-done.

Results print as JSON (and go to ``--out``); docs/scale_out.md records them with the command.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import psycopg


def _last_worker(url: str) -> int:
    with psycopg.connect(url) as conn:
        row = conn.execute("SELECT coalesce(max(id), 0) FROM procrastinate_workers").fetchone()
    return int(row[0]) if row else 0


def _workers_alive(url: str, queue_start: int) -> int:
    with psycopg.connect(url) as conn:
        row = conn.execute(
            "SELECT count(*) FROM procrastinate_workers WHERE id > %s", (queue_start,)
        ).fetchone()
    return int(row[0]) if row else 0


def _start_workers(n: int, env: dict[str, str], url: str, concurrency: int) -> list[Any]:
    since = _last_worker(url)
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "disputatio", "worker", "--concurrency", str(concurrency)],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        for _ in range(n)
    ]
    deadline = time.monotonic() + 300
    while _workers_alive(url, since) < n:
        if time.monotonic() > deadline or any(p.poll() is not None for p in procs):
            raise SystemExit("workers did not start")
        time.sleep(0.2)
    return procs


def _stop(procs: list[Any]) -> None:
    for proc in procs:
        os.killpg(proc.pid, signal.SIGTERM)
    for proc in procs:
        proc.wait(timeout=60)


def _ingest_arm(settings: Any, url: str, files: list[Path], workers: int, env: dict[str, str],
                concurrency: int) -> dict[str, Any]:  # fmt: skip
    from disputatio.api import store
    from disputatio.storage import queue

    tenant = f"bench-{uuid.uuid4().hex[:8]}"
    procs = _start_workers(workers, env, url, concurrency)
    try:
        before = queue.queue_counts(settings)["succeeded"]
        t0 = time.perf_counter()
        for path in files:
            data = path.read_bytes()
            job = {
                "id": str(uuid.uuid4()),
                "tenant": tenant,
                "collection": "bench",
                "file_name": path.name,
                "path": str(path),
                "sha256": hashlib.sha256(data).hexdigest(),
                "request": {"file_name": path.name},
            }
            store.create_job(settings, job)
        enqueued = time.perf_counter() - t0
        while True:
            counts = queue.queue_counts(settings)
            if counts["succeeded"] - before + counts["failed"] >= len(files):
                break
            time.sleep(0.1)
        seconds = time.perf_counter() - t0
    finally:
        _stop(procs)
    with psycopg.connect(url) as conn:
        row = conn.execute(
            "SELECT count(*), count(DISTINCT sha256) FROM documents WHERE tenant = %s", (tenant,)
        ).fetchone()
    assert row is not None and row[0] == row[1] == len(files), row
    return {
        "workers": workers,
        "concurrency": concurrency,
        "files": len(files),
        "seconds": round(seconds, 2),
        "enqueue_seconds": round(enqueued, 2),
        "files_per_s": round(len(files) / seconds, 1),
        "failed": counts["failed"],
    }


def _pings(settings: Any, url: str, n: int, env: dict[str, str]) -> dict[str, Any]:
    from disputatio.storage import queue

    procs = _start_workers(1, env, url, 1)
    times: list[float] = []
    try:
        with psycopg.connect(url, autocommit=True) as conn:
            for _ in range(n):
                t0 = time.perf_counter()
                with conn.transaction():
                    job_id = queue.defer(conn, settings, queue.TASK_PING, {"tenant": "bench"})
                while True:
                    row = conn.execute(
                        "SELECT status::text FROM procrastinate_jobs WHERE id = %s", (job_id,)
                    ).fetchone()
                    if row and row[0] == "succeeded":
                        break
                    time.sleep(0.002)
                times.append(time.perf_counter() - t0)
    finally:
        _stop(procs)
    times.sort()
    return {
        "tasks": n,
        "median_ms": round(statistics.median(times) * 1000, 1),
        "p90_ms": round(times[int(0.9 * (n - 1))] * 1000, 1),
    }


def main() -> None:
    """Run the benchmark; print (and write) its JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=500)
    parser.add_argument("--pings", type=int, default=50)
    parser.add_argument("--concurrency", type=int, default=1, help="Tasks per worker.")
    parser.add_argument("--home", type=Path, default=None)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    home = args.home or Path(tempfile.mkdtemp(prefix="disputatio-scale-"))
    os.environ["DISPUTATIO_HOME"] = str(home)
    os.environ["DISPUTATIO_SERVER__QUEUE_NAME"] = f"bench-{uuid.uuid4().hex[:8]}"
    from disputatio.settings import get_settings
    from disputatio.storage import queue
    from disputatio.storage.db import database_url

    settings = get_settings()
    url = database_url(settings)
    queue.ensure_schema(settings)
    env = {**os.environ, "DATABASE_URL": url}
    notes = home / "notes"
    notes.mkdir(exist_ok=True)
    run = uuid.uuid4().hex[:8]
    files = []
    for i in range(args.files):
        path = notes / f"note-{run}-{i:05d}.txt"
        path.write_text(
            f"Note {run}-{i}: brucellosis case {i} was confirmed by serology. It was treated "
            f"with doxycycline and rifampicin for {6 + i % 4} weeks.\n"
        )
        files.append(path)
    half = len(files) // 2
    arms = [
        _ingest_arm(settings, url, files[:half], 1, env, args.concurrency),
        _ingest_arm(settings, url, files[half:], 2, env, args.concurrency),
    ]
    result = {
        "machine": f"{platform.node()} {os.cpu_count()} CPUs, {platform.platform()}",
        "ingestion": arms,
        "speedup_2_workers": round(arms[1]["files_per_s"] / arms[0]["files_per_s"], 2),
        "queue_overhead": _pings(settings, url, args.pings, env),
    }
    text = json.dumps(result, indent=2)
    print(text)
    if args.out:
        args.out.write_text(text + "\n")


if __name__ == "__main__":
    main()
