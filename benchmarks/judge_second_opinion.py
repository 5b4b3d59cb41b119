"""Does a second opinion of the 1.5B judge help on borderline claim/passage pairs?

The judge's P(yes) sits near 0.5 for many plain paraphrases (docs/grounding.md, "Which
checker"). This asks the judge twice more about every labelled pair whose recorded P(yes)
(``docs/grounding/claim_checker_judged_pairs.json``) lies in a band around 0.5: the same prompt
again (how far a verdict moves between runs) and the prompt with claim and passage swapped;
then scores each way of combining them, with the checker's own rule
(:func:`disputatio.validators.support.decide`), on the calibration and test pairs. A variant is
worth adopting only if it raises the calibration pairs' F0.5 (the split the checker's settings
are chosen on).

    .venv/bin/python benchmarks/judge_second_opinion.py --out /tmp/second_opinion.json
    .venv/bin/python benchmarks/judge_second_opinion.py --read /tmp/second_opinion.json
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from claim_checker import DATA, fit_f05, metrics, windows
from langchain_core.messages import HumanMessage, SystemMessage

from disputatio.validators.support import JudgedSupport, decide

JUDGED = Path(__file__).resolve().parents[1] / "docs/grounding/claim_checker_judged_pairs.json"
#: The judge's question with claim and passage in the other order (an experiment's prompt).
SWAPPED = """Claim: {claim}
Passage: {passage}
Is the claim stated in the passage? Answer yes or no.
Answer:"""


def ask(rows: list[dict], pairs: list[dict], band: tuple[float, float], model: str) -> list:
    """Each borderline pair's P(yes) asked again and with the swapped prompt (None elsewhere)."""
    from disputatio.models.chat import get_chat_model
    from disputatio.models.embeddings import get_embeddings
    from disputatio.prompts.grounding import SUPPORT_JUDGE_SYSTEM
    from disputatio.validators.judge import SupportJudge
    from disputatio.validators.support import HybridSupport

    embeddings = get_embeddings("local:all-MiniLM-L6-v2")
    hybrid = HybridSupport(lambda texts: embeddings.embed_documents(list(texts)))
    judge = SupportJudge(get_chat_model(model))
    out: list = []
    for row, pair in zip(rows, pairs, strict=True):
        p = pair["p_yes"]
        if p is None or not band[0] <= p <= band[1]:
            out.append(None)
            continue
        ws = windows(row["passage"])
        scores = hybrid.score_many(row["claim"], ws, [""] * len(ws))
        best = ws[max(range(len(ws)), key=lambda j: scores[j].score)]
        swapped = SWAPPED.format(claim=row["claim"], passage=best)
        out.append(
            {
                "p": p,
                "again": judge(row["claim"], best, ""),
                "swap": judge.p_yes([SystemMessage(SUPPORT_JUDGE_SYSTEM), HumanMessage(swapped)]),
            }
        )
    return out


def combine(pair: dict, opinion: dict | None, mode: str, band: tuple[float, float]) -> float | None:
    """The P(yes) a variant decides on (the recorded one outside ``band``)."""
    p = pair["p_yes"]
    if opinion is None or p is None or not band[0] <= p <= band[1] or mode == "recorded":
        return p
    return {
        "again": opinion["again"],
        "swapped": opinion["swap"],
        "mean": (p + opinion["swap"]) / 2,
        "min": min(p, opinion["swap"]),
    }[mode]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, help="ask the judge; keep its answers here")
    parser.add_argument("--read", type=Path, help="score the answers kept by an earlier --out")
    parser.add_argument("--judge", default="local:qwen2.5-coder-1.5b")
    parser.add_argument("--band", type=float, nargs=2, default=(0.3, 0.7))
    args = parser.parse_args()
    rows = [json.loads(line) for line in DATA.read_text().splitlines() if line.strip()]
    pairs = json.loads(JUDGED.read_text())["pairs"]
    if args.read:
        opinions = json.loads(args.read.read_text())
    else:
        t0 = time.perf_counter()
        opinions = ask(rows, pairs, tuple(args.band), args.judge)
        print(f"{sum(o is not None for o in opinions)} pairs, {time.perf_counter() - t0:.0f} s")
        if args.out:
            args.out.write_text(json.dumps(opinions) + "\n")
    asked = [o for o in opinions if o]
    moved = [abs(o["p"] - o["again"]) for o in asked]
    crossed = sum((o["p"] >= 0.5) != (o["again"] >= 0.5) for o in asked)
    print(
        f"asked again: mean |dP| {sum(moved) / len(moved):.3f}, max {max(moved):.3f}, "
        f"{crossed} of {len(asked)} crossed 0.5"
    )
    cal = [i for i, r in enumerate(rows) if r["split"] == "calibration"]
    test = [i for i, r in enumerate(rows) if r["split"] == "test"]
    shipped = JudgedSupport(lambda texts: [], lambda *args: 0.0)  # the checker's own rule
    rule = (shipped.threshold, shipped.grey, shipped.judge_threshold, shipped.veto)
    for mode in ("recorded", "again", "swapped", "mean", "min"):
        for band in ((0.3, 0.7), (0.4, 0.6)):
            pred = [
                1.0
                if decide(pair["score"], combine(pair, o, mode, band), *rule, trust=shipped.trust)
                else 0.0
                for pair, o in zip(pairs, opinions, strict=True)
            ]
            f05 = fit_f05([pred[i] for i in cal], [rows[i] for i in cal])
            m = metrics([rows[i] for i in test], [pred[i] for i in test], 0.5)
            print(
                f"{mode:8s} band {band[0]}-{band[1]}  calibration F0.5 {f05:.3f}  "
                f"test P {m['precision']:.3f} R {m['recall']:.3f}"
            )


if __name__ == "__main__":
    main()
