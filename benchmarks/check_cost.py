"""What the quick path's checks cost on recorded drafts, with each mode of the judge's prompt cache.

Re-runs the quick path on each recorded draft of a grounding records file (the draft is the
answerer's scripted reply, as in ``grounding_recheck.py``: retrieval, the claim check and the
relevance judge run; the answering call does not) and times it. Run it once per mode,
``DISPUTATIO_GROUNDING__JUDGE_PROMPT_CACHE=off``, ``prefix`` and ``on``: the differences of the
totals are what evaluating judge prompts afresh costs, which the records' ``check_s`` and
``wall_s`` put beside the answer's time (docs/grounding.md, "Cost of the checks")::

    DISPUTATIO_GROUNDING__JUDGE_PROMPT_CACHE=off .venv/bin/python benchmarks/check_cost.py \\
        docs/grounding/records_heldout20_run31.jsonl \\
        --questions disputatio/data/grounding/questions_heldout20.jsonl \\
        --corpus disputatio/data/grounding/corpus_theatre
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from grounding_recheck import recheck


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("records", type=Path)
    parser.add_argument("--questions", type=Path, required=True)
    parser.add_argument("--corpus", type=Path, required=True)
    parser.add_argument("--model", default="local:qwen2.5-coder-1.5b", help="the judge")
    args = parser.parse_args()

    from disputatio.retrievers.memory import InMemoryFunnel
    from disputatio.settings import get_settings

    questions = {q["id"]: q for q in map(json.loads, args.questions.read_text().splitlines())}
    funnel = InMemoryFunnel.from_paths([args.corpus])
    recs = [json.loads(x) for x in args.records.read_text().splitlines() if x.strip()]
    recs = [r for r in recs if r["system"] == "project" and r.get("draft") is not None]
    recheck(questions[recs[0]["id"]], recs[0]["draft"], funnel, args.model)  # starts the server
    took = []
    for rec in recs:
        t0 = time.perf_counter()
        recheck(questions[rec["id"]], rec["draft"], funnel, args.model)
        took.append(time.perf_counter() - t0)
    cache = get_settings().grounding.judge_prompt_cache
    wall = sum(r["wall_s"] for r in recs)
    print(
        f"judge prompt cache {cache}: {len(took)} drafts re-checked in "
        f"{sum(took):.1f} s (median {statistics.median(took):.2f} s); the records' checks "
        f"{sum(r.get('check_s', 0.0) for r in recs):.1f} s of {wall:.1f} s of answer wall time"
    )


if __name__ == "__main__":
    main()
