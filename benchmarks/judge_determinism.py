"""Does the claim judge give the same P(yes) to the same prompt, alone and beside another?

The judge reads P(yes) from log-probabilities of the local llama.cpp server, which caches
prompt prefixes and decodes parallel requests in one batch; either could move a verdict that
sits near the 0.5 line. This asks one borderline pair (set 20's t004: a table row read with its
headers) after three kinds of prompt (``--rounds`` times each), then ``--beside`` times while
another judge request runs at once, with the prompt cache on and off, and prints every P and
the time a call takes::

    DISPUTATIO_HOME=/tmp/dh-replay .venv/bin/python benchmarks/judge_determinism.py
"""

from __future__ import annotations

import argparse
import threading
import time
from typing import Any

CLAIM = "There are 4 wheelchair spaces at the Ropeworks Studio."
PASSAGE = (
    "| Facility: Wheelchair spaces | Harcourt Stage: 6, in row M of the stalls | "
    "Ropeworks Studio: 4, in the front row |"
)
CONTEXT = "Access and facilities"
#: A claim judged on the same passage, and a passage the same claim is judged on, just before.
SAME_PASSAGE = "There are 6 wheelchair spaces at the Harcourt Stage."
SAME_CLAIM = "Every Ropeworks Studio production has one relaxed performance."


def _other(i: int) -> tuple[str, str, str]:
    """Another claim/passage pair, to be judged at the same time."""
    return (
        f"The box office opens at {9 + i}:00 on Saturdays.",
        f"The box office is open from 10:00 to 18:00 on weekdays and from 10:00 to {17 + i}:00 "
        "on Saturdays, and on Sundays only from 2 hours before a performance.",
        "Box office",
    )


def _orders(judge: Any, target: Any, rounds: int) -> list[tuple[float, float, float]]:
    """P(yes) of ``target`` after an unrelated prompt, one on its passage, one with its claim."""
    from disputatio.validators.judge import judge_messages

    out = []
    for i in range(rounds):
        judge.p_yes(judge_messages(*_other(i)))
        after_other = judge.p_yes(target)
        judge.p_yes(judge_messages(SAME_PASSAGE, PASSAGE, CONTEXT))
        after_passage = judge.p_yes(target)
        judge.p_yes(judge_messages(CLAIM, SAME_CLAIM, "Access"))
        after_claim = judge.p_yes(target)
        out.append((round(after_other, 4), round(after_passage, 4), round(after_claim, 4)))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--beside", type=int, default=4)
    args = parser.parse_args()

    from disputatio.nodes.rag.context import RagContext
    from disputatio.validators.judge import SupportJudge, judge_messages

    model = RagContext().support_checker().judge.model
    target = judge_messages(CLAIM, PASSAGE, CONTEXT)
    for cache in ("on", "prefix", "off"):
        judge = SupportJudge(model, prompt_cache=cache)
        t0 = time.perf_counter()
        orders = _orders(judge, target, args.rounds)
        per_call = (time.perf_counter() - t0) / (6 * args.rounds)
        beside = []
        for i in range(args.beside):
            ask = judge.p_yes
            other = threading.Thread(target=lambda i=i, ask=ask: ask(judge_messages(*_other(i))))
            other.start()
            time.sleep(0.05 * i)  # the target joins the other request at a different point
            beside.append(round(judge.p_yes(target), 4))
            other.join()
        print(
            f"prompt cache {cache}: {per_call:.2f} s a call; P(yes) after "
            f"an unrelated prompt / one on its passage / one with its claim: {orders}; beside "
            f"another request: {beside}",
            flush=True,
        )


if __name__ == "__main__":
    main()
