"""Fit the answer confidence on the grounding calibration split; measure it on the test split.

Reads the quick path's records of ``benchmarks/grounding.py`` (system ``project``). An answer
is right when every answerable part's gold answer is in it and it is not a refusal, or, for an
unanswerable question, when it refuses. The signals are those of
:func:`disputatio.validators.calibrated.features`. An L2-regularised logistic regression is
fitted on the ``calibration`` questions only (L2 penalty by leave-one-out log-loss there);
on the ``test`` questions we report the Brier score, the expected calibration error (5
equal-width bins), the reliability table and accuracy at each coverage (answers kept from
the most confident down), beside the old heuristic (``agreement × (0.5 + 0.5 × share of
cited ids verified)``) on the same answers.

    .venv/bin/python benchmarks/fit_confidence.py docs/grounding/records.jsonl \\
        --model disputatio/data/grounding/confidence.json --out docs/grounding/confidence.json \\
        --plot docs/grounding/reliability.png
"""

from __future__ import annotations

import argparse
import itertools
import json
from pathlib import Path

import numpy as np

from disputatio.validators.calibrated import FEATURES, features


def correct(rec: dict) -> bool:
    if rec["kind"] == "unanswerable":
        return bool(rec["refused"])
    return rec["parts_right"] == rec["parts_answerable"] and not rec["refused"]


def heuristic(rec: dict) -> float:
    """The old confidence: agreement (1, one writer) × (0.5 + 0.5 × share of cited ids verified)."""
    return 1.0 * (0.5 + 0.5 * (1.0 if rec["cited"] else 0.0))


def fit(x: np.ndarray, y: np.ndarray, l2: float = 1.0, steps: int = 100) -> np.ndarray:
    """Newton's method for L2-regularised logistic regression (intercept not penalised)."""
    xb = np.hstack([np.ones((len(x), 1)), x])
    w = np.zeros(xb.shape[1])
    pen = np.eye(xb.shape[1]) * l2
    pen[0, 0] = 0.0
    for _ in range(steps):
        p = 1 / (1 + np.exp(-xb @ w))
        grad = xb.T @ (p - y) + pen @ w
        hess = xb.T @ (xb * (p * (1 - p))[:, None]) + pen
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return w


def choose_l2(
    x: np.ndarray, y: np.ndarray, grid: tuple[float, ...] = (0.01, 0.1, 1.0, 10.0)
) -> float:
    """The L2 penalty with the best leave-one-out log-loss on the calibration answers."""
    best = (float("inf"), grid[0])
    for l2 in grid:
        loss = 0.0
        for i in range(len(x)):
            keep = np.arange(len(x)) != i
            w = fit(x[keep], y[keep], l2=l2)
            p = 1 / (1 + np.exp(-(w[0] + x[i] @ w[1:])))
            p = min(max(p, 1e-6), 1 - 1e-6)
            loss -= y[i] * np.log(p) + (1 - y[i]) * np.log(1 - p)
        best = min(best, (loss, l2))
    return best[1]


def calibration_report(p: np.ndarray, y: np.ndarray, bins: int = 5) -> dict:
    edges = np.linspace(0, 1, bins + 1)
    table, ece = [], 0.0
    for lo, hi in itertools.pairwise(edges):
        mask = (p >= lo) & ((p < hi) if hi < 1 else (p <= hi))
        if mask.any():
            conf, acc = float(p[mask].mean()), float(y[mask].mean())
            ece += mask.mean() * abs(conf - acc)
            table.append({"bin": f"{lo:.1f}-{hi:.1f}", "n": int(mask.sum()),
                          "confidence": round(conf, 3), "accuracy": round(acc, 3)})  # fmt: skip
    order = np.argsort(-p, kind="stable")
    coverage = []
    for share in (0.2, 0.4, 0.6, 0.8, 1.0):
        k = max(1, round(share * len(p)))
        coverage.append(
            {"coverage": share, "n": k, "accuracy": round(float(y[order[:k]].mean()), 3)}
        )
    return {
        "n": len(p),
        "accuracy": round(float(y.mean()), 3),
        "brier": round(float(((p - y) ** 2).mean()), 4),
        "ece": round(float(ece), 4),
        "reliability": table,
        "risk_coverage": coverage,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("records", type=Path)
    parser.add_argument("--model", type=Path, required=True, help="write the fitted model here")
    parser.add_argument("--out", type=Path, help="write the measurements here")
    parser.add_argument("--plot", type=Path, help="write a reliability plot (PNG) here")
    args = parser.parse_args()
    recs = [json.loads(x) for x in args.records.read_text().splitlines() if x.strip()]
    recs = [r for r in recs if r["system"] == "project"]
    split = {s: [r for r in recs if r["split"] == s] for s in ("calibration", "test")}
    xy = {
        s: (np.array([features(r["claims_detail"]) for r in rs]),
            np.array([float(correct(r)) for r in rs]))
        for s, rs in split.items()
    }  # fmt: skip
    xc, yc = xy["calibration"]
    l2 = choose_l2(xc, yc)
    w = fit(xc, yc, l2=l2)
    model = {
        "features": list(FEATURES),
        "coef": [round(float(c), 6) for c in w[1:]],
        "intercept": round(float(w[0]), 6),
        "l2": l2,
        "fitted_on": f"grounding calibration split, {len(split['calibration'])} quick-path "
        f"answers of {recs[0]['model'] if recs else '?'} ({args.records.name})",
    }
    args.model.write_text(json.dumps(model, indent=2) + "\n")
    xt, yt = xy["test"]
    fitted = 1 / (1 + np.exp(-(w[0] + xt @ w[1:])))
    old = np.array([heuristic(r) for r in split["test"]])
    result = {
        "model": model,
        "test_fitted": calibration_report(fitted, yt),
        "test_heuristic": calibration_report(old, yt),
    }
    print(json.dumps(result, indent=2))
    if args.out:
        args.out.write_text(json.dumps(result, indent=2) + "\n")
    if args.plot:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        fig, ax = plt.subplots(figsize=(4.5, 4.5))
        ax.plot([0, 1], [0, 1], "k:", label="perfect")
        for name, rep in (
            ("fitted", result["test_fitted"]),
            ("heuristic", result["test_heuristic"]),
        ):
            pts = rep["reliability"]
            ax.plot([b["confidence"] for b in pts], [b["accuracy"] for b in pts], "o-",
                    label=f"{name} (ECE {rep['ece']:.2f}, Brier {rep['brier']:.2f})")  # fmt: skip
        ax.set_xlabel("confidence")
        ax.set_ylabel("share right")
        ax.set_title(f"Quick path, grounding test split (n={len(yt)})")
        ax.legend(loc="upper left", fontsize=8)
        fig.tight_layout()
        fig.savefig(args.plot, dpi=110)


if __name__ == "__main__":
    main()
