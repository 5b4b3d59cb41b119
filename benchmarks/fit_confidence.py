"""Fit the answer confidence on labelled quick-path answers; measure it on held-out ones.

Reads the quick path's records of ``benchmarks/grounding.py`` (system ``project``), each
``--fit`` / ``--test`` argument a records file, optionally ``@<split>`` to take one split of
it. An answer is right when every answerable part's gold answer is in it, it is not a refusal
and (records that mark parts) every unanswerable part is said not found; for an unanswerable
question, when it refuses. The signals are those of
:func:`disputatio.validators.calibrated.features`. An L2-regularised logistic regression is
fitted on the ``--fit`` answers only (L2 penalty by leave-one-out log-loss there); on the
``--test`` answers we report the Brier score, the expected calibration error (5 equal-width
bins), the reliability table, the area under the ROC curve and accuracy at each coverage
(answers kept from the most confident down), beside the base rate of the fit answers (a
constant) and the old heuristic (``agreement × (0.5 + 0.5 × share of cited ids verified)``)
on the same answers. With ``--relevance``, the judge's P(the answer answers the question) of
``benchmarks/grounding_relevance.py`` rows (its ``--signal`` prompt) is the ``relevance``
signal, for an answer the quick path would ask about (one part, not refused, a supported
claim kept); other answers get none, as in the quick path. The command of docs/grounding.md
("Confidence that means something"):

    .venv/bin/python benchmarks/fit_confidence.py \\
        --fit docs/grounding/records_run6.jsonl@calibration docs/grounding/records_run10.jsonl \\
              docs/grounding/records_heldout_run10.jsonl ... \\
        --test docs/grounding/records_heldout9_run15.jsonl ... \\
        --relevance docs/grounding/experiments/relevance_sets1_12.jsonl \\
        --model disputatio/data/grounding/confidence.json --out docs/grounding/confidence.json \\
        --plot docs/grounding/reliability.png
"""

from __future__ import annotations

import argparse
import itertools
import json
from pathlib import Path

import numpy as np

from disputatio.validators.calibrated import FEATURES, ConfidenceModel, features


def correct(rec: dict) -> bool:
    """Whether a quick-path answer is right (see the module doc)."""
    if rec["kind"] == "unanswerable":
        return bool(rec["refused"])
    said = rec.get("parts_unanswerable_said", 0) == rec.get("parts_unanswerable", 0)
    return rec["parts_right"] == rec["parts_answerable"] and not rec["refused"] and said


def load(specs: list[str]) -> list[dict]:
    """The project's records of ``PATH[@SPLIT]`` arguments, each tagged with its source."""
    out = []
    for spec in specs:
        path, _, split = spec.partition("@")
        for line in Path(path).read_text().splitlines():
            if not line.strip():
                continue
            rec = json.loads(line)
            if rec["system"] == "project" and (not split or rec["split"] == split):
                out.append({**rec, "source": spec})
    return out


def attach_relevance(recs: list[dict], path: Path | None, signal: str) -> None:
    """Give each record the judge's P the quick path would have asked (``relevance``).

    Only an answer of one part (as the quick path reads the question), not refused, with a
    supported claim kept, is asked about; the others keep None, as they do in the quick path.
    A record made since the quick path asks (it has ``relevance``) keeps its own value.
    """
    if path is None:
        return
    from grounding_relevance import asked, load_questions

    rows = {r["id"]: r for r in map(json.loads, path.read_text().splitlines()) if r}
    questions = load_questions(bioasq=any(str(r["id"]).startswith("bioasq") for r in recs))
    for rec in recs:
        if "relevance" not in rec:
            rec["relevance"] = asked(rec, rows, questions, signal)


def signals(rec: dict) -> list[float]:
    """The confidence model's signals of one record."""
    return features(rec["claims_detail"], relevance=rec.get("relevance"))


def auc(p: np.ndarray, y: np.ndarray) -> float | None:
    """Area under the ROC curve (ties count half); None without both classes."""
    pos, neg = p[y == 1], p[y == 0]
    if not len(pos) or not len(neg):
        return None
    wins = (pos[:, None] > neg[None, :]).sum() + 0.5 * (pos[:, None] == neg[None, :]).sum()
    return float(wins / (len(pos) * len(neg)))


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
    x: np.ndarray, y: np.ndarray, grid: tuple[float, ...] = (0.01, 0.1, 1.0, 10.0, 100.0)
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
    area = auc(p, y)
    return {
        "n": len(p),
        "accuracy": round(float(y.mean()), 3),
        "auc": None if area is None else round(area, 3),
        "brier": round(float(((p - y) ** 2).mean()), 4),
        "ece": round(float(ece), 4),
        "reliability": table,
        "risk_coverage": coverage,
    }


def fit_model(recs: list[dict], specs: list[str]) -> tuple[np.ndarray, dict]:
    """Fit on ``recs``; a feature constant there (agreement of one writer) keeps coefficient 0."""
    x = np.array([signals(r) for r in recs])
    y = np.array([float(correct(r)) for r in recs])
    varies = np.array([np.ptp(x[:, k]) > 0 for k in range(x.shape[1])])
    l2 = choose_l2(x[:, varies], y)
    w_free = fit(x[:, varies], y, l2=l2)
    w = np.zeros(x.shape[1] + 1)
    w[0] = w_free[0]
    w[1:][varies] = w_free[1:]
    seen = 1 / (1 + np.exp(-(w[0] + x @ w[1:])))
    model = {
        "features": list(FEATURES),
        "coef": [round(float(c), 6) for c in w[1:]],
        "intercept": round(float(w[0]), 6),
        "base_rate": round(float(y.mean()), 4),
        "low": round(float(seen.min()), 4),
        "high": round(float(seen.max()), 4),
        "l2": l2,
        "not_fitted": [f for f, v in zip(FEATURES, varies, strict=True) if not v],
        "fitted_on": f"{len(recs)} quick-path answers of "
        f"{recs[0]['model'] if recs else '?'} ({', '.join(Path(s).name for s in specs)})",
    }
    return w, model


def leave_one_file_out(recs: list[dict]) -> float:
    """AUC of the fit answers, each scored by a model fitted on the other ``--fit`` files."""
    p, y = [], []
    for source in dict.fromkeys(r["source"] for r in recs):
        w, _ = fit_model([r for r in recs if r["source"] != source], [])
        for r in (r for r in recs if r["source"] == source):
            p.append(1 / (1 + np.exp(-(w[0] + np.array(signals(r)) @ w[1:]))))
            y.append(float(correct(r)))
    return auc(np.array(p), np.array(y)) or float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fit", nargs="+", required=True, help="PATH[@SPLIT] to fit on")
    parser.add_argument("--test", nargs="+", required=True, help="PATH[@SPLIT] to measure on")
    parser.add_argument("--model", type=Path, required=True, help="write the fitted model here")
    parser.add_argument("--out", type=Path, help="write the measurements here")
    parser.add_argument("--plot", type=Path, help="write a reliability plot (PNG) here")
    parser.add_argument("--relevance", type=Path, help="grounding_relevance.py rows (JSONL)")
    parser.add_argument("--signal", default="strict", help="its prompt to read (a column)")
    parser.add_argument(
        "--loo", action="store_true", help="only print the leave-one-file-out AUC of the fit"
    )
    args = parser.parse_args()
    fit_recs, test_recs = load(args.fit), load(args.test)
    attach_relevance(fit_recs + test_recs, args.relevance, args.signal)
    if args.loo:
        print(f"leave-one-file-out AUC on the fit answers: {leave_one_file_out(fit_recs):.3f}")
        return
    shared = {r["id"] for r in fit_recs} & {r["id"] for r in test_recs}
    if shared:
        parser.error(f"{len(shared)} questions are in both --fit and --test, e.g. {min(shared)}")
    _, model = fit_model(fit_recs, args.fit)
    if args.relevance:
        model["fitted_on"] += f"; relevance: the {args.signal} prompt ({args.relevance.name})"
    args.model.write_text(json.dumps(model, indent=2) + "\n")
    yt = np.array([float(correct(r)) for r in test_recs])
    shipped = ConfidenceModel.from_json(model)
    fitted = np.array(
        [shipped.confidence(r["claims_detail"], relevance=r.get("relevance")) for r in test_recs]
    )
    base = float(np.mean([correct(r) for r in fit_recs]))
    old = np.array([heuristic(r) for r in test_recs])
    result = {
        "model": model,
        "fit_accuracy": round(base, 3),
        "test_fitted": calibration_report(fitted, yt),
        "test_base_rate": calibration_report(np.full(len(yt), base), yt),
        "test_heuristic": calibration_report(old, yt),
        "test_fitted_by_file": {
            spec: calibration_report(fitted[mask], yt[mask])
            for spec in args.test
            if (mask := np.array([r["source"] == spec for r in test_recs])).any()
        },
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
            ("base rate", result["test_base_rate"]),
            ("heuristic", result["test_heuristic"]),
        ):
            pts = rep["reliability"]
            ax.plot([b["confidence"] for b in pts], [b["accuracy"] for b in pts], "o-",
                    label=f"{name} (ECE {rep['ece']:.2f}, Brier {rep['brier']:.2f})")  # fmt: skip
        ax.set_xlabel("confidence")
        ax.set_ylabel("share right")
        ax.set_title(f"Quick path, held-out grounding answers (n={len(yt)})")
        ax.legend(loc="upper left", fontsize=8)
        fig.tight_layout()
        fig.savefig(args.plot, dpi=110)


if __name__ == "__main__":
    main()
