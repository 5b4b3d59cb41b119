"""What the relevance judge costs: one call per one-part answer, beside the answer's wall time.

Asks the judge (:meth:`~disputatio.validators.judge.SupportJudge.answers`) about the kept
supported claims of the first N answered questions of a grounding records file, timing each
call, and prints the median beside the records' median wall time of the quick path (docs/
grounding.md, "Cost of the checks"):

    .venv/bin/python benchmarks/relevance_cost.py docs/grounding/records_heldout12_run19.jsonl
"""

from __future__ import annotations

import argparse
import itertools
import json
import statistics
import time
from pathlib import Path

from grounding_relevance import kept_answers, load_questions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("records", type=Path)
    parser.add_argument("--model", default="local:qwen2.5-coder-1.5b")
    parser.add_argument("-n", type=int, default=20, help="answers to time")
    args = parser.parse_args()

    from disputatio.models import get_chat_model
    from disputatio.validators.judge import SupportJudge

    questions = load_questions()
    recs = [json.loads(x) for x in args.records.read_text().splitlines() if x.strip()]
    recs = [r for r in recs if r["system"] == "project" and not r["refused"]]
    judge = SupportJudge(get_chat_model(args.model, temperature=0.0))
    judge.answers("Is the server up?", ["It is."])  # the first call starts the server
    took = []
    for r, kept in itertools.islice(kept_answers([args.records], set()), args.n):
        t0 = time.perf_counter()
        judge.answers(questions[r["id"]]["question"], [c["text"] for c in kept])
        took.append(time.perf_counter() - t0)
    wall = statistics.median(r["wall_s"] for r in recs)
    call = statistics.median(took)
    print(f"{len(took)} judge calls: median {call:.2f} s; the records' median wall {wall:.1f} s "
          f"(+{call / wall:.0%})")  # fmt: skip


if __name__ == "__main__":
    main()
