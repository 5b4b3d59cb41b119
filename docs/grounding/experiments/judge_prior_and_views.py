"""Two ways to sharpen the 1.5B judge, measured on the labelled claim pairs (2026-12-02).

* **prior**: the judge's P(yes) for the claim with no passage ("Passage: N/A") is its belief
  from memory; the verdict uses logit P(yes) - alpha * logit P(yes | no passage).
* **second view**: the same question in another wording, claim first; the two views combined
  by the mean of their log-odds, or by the lower of the two.

Each variant's grey floor, judge threshold, veto and trust are re-fitted for F0.5 on the
calibration pairs (as ``benchmarks/claim_checker.py`` does) and measured on the test pairs.
The first view's P(yes) comes from ``docs/grounding/claim_checker_judged_pairs.json``; the new
calls are cached beside this file, so a re-run calls no model:

    .venv/bin/python docs/grounding/experiments/judge_prior_and_views.py
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "benchmarks"))

from claim_checker import DATA, fit_f05, metrics, windows  # noqa: E402
from langchain_core.messages import HumanMessage, SystemMessage  # noqa: E402

from disputatio.prompts.grounding import SUPPORT_JUDGE_SYSTEM  # noqa: E402
from disputatio.validators.support import decide  # noqa: E402

MODEL = "local:qwen2.5-coder-1.5b"
HERE = Path(__file__).resolve().parent
CACHE = HERE / "judge_prior_and_views.json"
NO_PASSAGE = "N/A"
VIEW = """Claim: {claim}
Text: {passage}
Is everything in the claim said by the text (a paraphrase counts)? Answer yes or no.
Answer:"""
CUTS = [x / 20 for x in range(2, 19)]


def logit(p: float) -> float:
    p = min(max(p, 1e-6), 1 - 1e-6)
    return math.log(p / (1 - p))


def sigmoid(x: float) -> float:
    return 1 / (1 + math.exp(-x))


def judge_calls(rows: list[dict], best: list[tuple]) -> dict:
    """P(yes) with no passage (per claim) and of the second view (per pair), cached."""
    cache = json.loads(CACHE.read_text()) if CACHE.exists() else {"prior": {}, "view": {}}
    judged = [k for k, b in enumerate(best) if b[1] is not None]
    todo = [k for k in judged if str(k) not in cache["view"]]
    todo_prior = {rows[k]["claim"] for k in judged} - set(cache["prior"])
    if todo or todo_prior:
        from disputatio.models.chat import get_chat_model
        from disputatio.models.embeddings import get_embeddings
        from disputatio.validators.judge import SupportJudge, judge_messages
        from disputatio.validators.support import HybridSupport

        judge = SupportJudge(get_chat_model(MODEL))
        for claim in sorted(todo_prior):
            cache["prior"][claim] = judge.p_yes(judge_messages(claim, NO_PASSAGE))
        hybrid = HybridSupport(get_embeddings("local:all-MiniLM-L6-v2").embed_documents)
        for k in todo:
            r = rows[k]
            ws = windows(r["passage"])
            scores = hybrid.score_many(r["claim"], ws, [""] * len(ws))
            w = ws[max(range(len(ws)), key=lambda j: scores[j].score)]
            prompt = VIEW.format(claim=r["claim"], passage=w)
            cache["view"][str(k)] = judge.p_yes(
                [SystemMessage(SUPPORT_JUDGE_SYSTEM), HumanMessage(prompt)]
            )
        CACHE.write_text(json.dumps(cache, indent=1, sort_keys=True) + "\n")
    return cache


def fitted(rows: list[dict], best: list[tuple], p_of: list[float | None]) -> str:
    """The rule re-fitted on calibration with ``p_of`` as the judge's P(yes); test figures."""
    cal = [i for i, r in enumerate(rows) if r["split"] == "calibration"]
    test = [i for i, r in enumerate(rows) if r["split"] == "test"]

    def pred(floor: float, cut: float, veto: float | None, trust: float | None) -> list[float]:
        return [
            1.0 if decide(s, p, 0.83, floor, cut, veto, trust=trust) else 0.0
            for (s, _, _), p in zip(best, p_of, strict=True)
        ]

    grid = [
        (f, c, v, u)
        for f in (0.4, 0.5, 0.6, 0.7)
        for c in CUTS
        for v in [None, *CUTS]
        for u in (None, 0.97)
    ]
    choice = max(grid, key=lambda g: fit_f05([pred(*g)[i] for i in cal], [rows[i] for i in cal]))
    p = pred(*choice)
    f05 = fit_f05([p[i] for i in cal], [rows[i] for i in cal])
    m = metrics([rows[i] for i in test], [p[i] for i in test], 0.5)
    return (
        f"calibration F0.5 {f05:.3f} | test precision {m['precision']:.3f} "
        f"recall {m['recall']:.3f} | floor, cut, veto, trust = {choice}"
    )


def main() -> None:
    rows = [json.loads(line) for line in DATA.read_text().splitlines() if line.strip()]
    pairs = json.loads((ROOT / "docs/grounding/claim_checker_judged_pairs.json").read_text())
    best = [(p["score"], p["p_yes"], p["coverage"]) for p in pairs["pairs"]]
    cache = judge_calls(rows, best)
    prior = [cache["prior"].get(r["claim"]) for r in rows]
    view = [cache["view"].get(str(k)) for k in range(len(rows))]
    print("prior P(yes | no passage), median by label:")
    for label in ("supported", "unsupported"):
        ps = sorted(q for q, r in zip(prior, rows, strict=True) if q is not None and r["label"] == label)
        print(f"  {label}: {ps[len(ps) // 2]:.2f} (n={len(ps)})")
    for alpha in (0.0, 0.25, 0.5, 0.75, 1.0):
        p_of = [
            None if b[1] is None else sigmoid(logit(b[1]) - alpha * logit(q or 0.5))
            for b, q in zip(best, prior, strict=True)
        ]
        print(f"prior alpha={alpha}: {fitted(rows, best, p_of)}")
    combos = {
        "second view alone": lambda p, v: v,
        "mean log-odds of both": lambda p, v: sigmoid((logit(p) + logit(v)) / 2),
        "lower of both": min,
    }
    for name, f in combos.items():
        p_of = [
            None if b[1] is None else f(b[1], v) for b, v in zip(best, view, strict=True)
        ]
        print(f"{name}: {fitted(rows, best, p_of)}")


if __name__ == "__main__":
    main()
