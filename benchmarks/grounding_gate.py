"""The retrieval gate on every grounding question: best score against its own and a foreign corpus.

For each question file of ``disputatio/data/grounding`` (with its corpus), the in-memory funnel
(no model call) searches the question in its own corpus and in another one (the corpus three
places on in the sorted list, as a stand-in for a question about something else: it may still
share a topic). Prints, per threshold, the answerable questions (and answerable parts of
two-part ones) the gate would refuse, the near misses it would refuse, and the foreign
searches it would let through; ``--out`` keeps every score. The settings are the process's
(``DISPUTATIO_*``); ``benchmarks/child_size.py``, whose search this is, compares chunkings.

    .venv/bin/python benchmarks/grounding_gate.py --out /tmp/gate.jsonl
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from child_size import CORPUS, gate_table, grounding


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, help="write every question's scores here (JSONL)")
    args = parser.parse_args()
    from disputatio.models import get_embeddings
    from disputatio.settings import get_settings

    settings = get_settings()
    result = grounding(settings, get_embeddings(settings=settings), list(CORPUS))
    if args.out:
        args.out.write_text("".join(json.dumps(r) + "\n" for r in result["rows"]))
    print(gate_table(result))


if __name__ == "__main__":
    main()
