"""``disputatio worker`` with every model ``encode`` call timed (for scale_out.py).

    python benchmarks/_timed_worker.py LOG_DIR worker --concurrency 1

Runs the real CLI (``disputatio.cli.main``) in this process, with
``SentenceTransformer.encode`` wrapped as soon as the worker has loaded its model (through
``LocalEmbeddings.model``; the wrapper imports no model library itself, so the worker's
start-up is its own), and ``OnnxEncoder.encode`` for an ``onnx:`` model: each call appends
``{"start", "end", "texts"}`` (wall-clock seconds, ``time.time()``, comparable with Postgres
``now()`` on the same machine) as one JSON line to ``LOG_DIR/embed-<pid>.jsonl``. The wrapper
adds two clock reads and one short write per call; nothing else in the worker changes.

With ``BENCH_FAKE_ENCODE=1`` the wrapper does not call the model: it returns random unit
vectors of the model's dimension at once (the model is still loaded at start-up). That is the
worker with embedding made free: what ingestion costs besides the embedding model, the floor a
remote (GPU) embedding server could approach.
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time
from pathlib import Path
from typing import Any

_wrap_lock = threading.Lock()


def _install(log_dir: Path) -> None:
    """Wrap ``encode`` once the worker has loaded its model.

    sentence-transformers is not imported here: the worker imports it where it would anyway.
    """
    from disputatio.models import embeddings

    loaded = embeddings.LocalEmbeddings.model

    def model(self: Any) -> Any:
        found = loaded.fget(self)  # type: ignore[attr-defined]
        _wrap(type(found), log_dir)
        return found

    embeddings.LocalEmbeddings.model = property(model)  # type: ignore[method-assign,assignment]
    # ``onnx:`` models (models/embeddings_onnx.py imports no model library at import time)
    from disputatio.models import embeddings_onnx

    _wrap(embeddings_onnx.OnnxEncoder, log_dir)


def _wrap(cls: Any, log_dir: Path) -> None:
    """Time every ``cls.encode`` call (once per class, before any thread encodes with it)."""
    with _wrap_lock:
        if getattr(cls, "_bench_timed", False):
            return
        log = (log_dir / f"embed-{os.getpid()}.jsonl").open("a", encoding="utf-8")
        encode = cls.encode
        fake = os.environ.get("BENCH_FAKE_ENCODE") == "1"

        def instant(self: Any, sentences: Any, *args: Any, **kwargs: Any) -> Any:
            import numpy as np

            rows = 1 if isinstance(sentences, str) else len(sentences)
            dim = getattr(self, "dimension", None) or self.get_sentence_embedding_dimension()
            vectors = np.random.default_rng().standard_normal((rows, dim)).astype("float32")
            vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
            return vectors[0] if isinstance(sentences, str) else vectors

        def timed(self: Any, sentences: Any, *args: Any, **kwargs: Any) -> Any:
            start = time.time()
            out = (instant if fake else encode)(self, sentences, *args, **kwargs)
            texts = 1 if isinstance(sentences, str) else len(sentences)
            log.write(json.dumps({"start": start, "end": time.time(), "texts": texts}) + "\n")
            log.flush()
            return out

        cls.encode = timed
        cls._bench_timed = True


def main() -> None:
    """Wrap ``encode``, then run the CLI with the remaining arguments."""
    log_dir = Path(sys.argv[1])
    log_dir.mkdir(parents=True, exist_ok=True)
    _install(log_dir)
    sys.argv = ["disputatio", *sys.argv[2:]]
    from disputatio.cli import main as cli

    cli()


if __name__ == "__main__":
    main()
