"""Where an ingestion's wall time goes: ``disputatio ingest`` in-process, its steps timed.

Wraps the ingestion graph's nodes (``load``, ``entities``, ``embed``, ``index``) and what they
call (spaCy's load and NER, the embedding model, the batch write, chunking) with wall-clock
timers, runs ``disputatio ingest FOLDER --tenant TENANT`` in this process, and prints each
step's seconds and calls as JSON. The nodes run in LangGraph's worker threads, where cProfile
does not look; timers do. Run it with ``PYTHONPATH`` set to another source tree to time that
code on the same home (docs/benchmarks_ingest.md, "One BM25 statement per batch").

    DISPUTATIO_HOME=/tmp/dh-x .venv/bin/python benchmarks/ingest_stages.py FOLDER TENANT
"""

from __future__ import annotations

import functools
import json
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from typing import Any

SECONDS: defaultdict[str, float] = defaultdict(float)
CALLS: Counter[str] = Counter()


def timed(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn``, its wall time added to ``SECONDS[name]``."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        try:
            return fn(*args, **kwargs)
        finally:
            SECONDS[name] += time.perf_counter() - start
            CALLS[name] += 1

    return wrapper


def wrap(owner: Any, names: tuple[str, ...], prefix: str = "") -> None:
    """Replace ``owner.<name>`` by its timed version, for each name it has."""
    for name in names:
        if hasattr(owner, name):
            setattr(owner, name, timed(prefix + name, getattr(owner, name)))


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        raise SystemExit("usage: ingest_stages.py FOLDER TENANT")
    # before the graph module imports the nodes by name
    import disputatio.nodes.ingest.batch as batch
    import disputatio.nodes.ingest.pipeline as pipeline
    from disputatio.ingest.spacy_entities import SpacyEntityExtractor
    from disputatio.models.embeddings_onnx import OnnxEmbeddings

    wrap(pipeline, ("load", "entities", "embed", "index"))
    wrap(batch, ("discover", "screen"))
    wrap(pipeline, ("extract", "chunk_document", "write_new_documents", "finish_jobs"), "call.")
    wrap(SpacyEntityExtractor, ("_load", "extract_batch"), "spacy.")
    wrap(OnnxEmbeddings, ("embed_documents",), "onnx.")
    from disputatio.cli import main as cli

    start = time.perf_counter()
    try:
        cli(["ingest", argv[0], "--tenant", argv[1]])
    except SystemExit as exc:
        if exc.code:
            raise
    steps = {k: {"s": round(v, 2), "calls": CALLS[k]} for k, v in SECONDS.items()}
    total = round(time.perf_counter() - start, 2)
    print(json.dumps({"total_s": total, "steps": steps}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
