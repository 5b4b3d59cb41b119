"""Sweep the public path's trim on one split of BioASQ: what each ``trim_alpha`` keeps and costs.

The public call, ``search(q, k=32)`` of the default funnel, reranks its candidates, refuses
below the refusal threshold and keeps the sections scoring at least ``trim_alpha · s_max``
(uncalibrated; a ``disputatio calibrate`` run replaces that with its conformal threshold).
The trim is a cut on scores the search already computed, so each question is searched once,
untrimmed (``trim_alpha`` 0, no calibrated threshold, ``rerank_candidates`` at least ``k``),
and every ``trim_alpha`` is applied to its trace's reranked scores here, exactly as
``run_funnel`` applies it (refusal first, then the cut, then the first ``k``). Beside them, the
exact-cosine peer on the same questions (the "dense search alone" the public path must match).

Tune on the calibration split, then report the chosen value on the test split with
``disputatio eval retrieval --split test`` (the public row runs the real call)::

    DISPUTATIO_HOME=/tmp/dh-h24 python benchmarks/retrieval_trim_sweep.py --limit-docs 2000 \\
        --split calibration --alphas 0,0.1,0.2,0.3,0.4,0.5

Needs a home where ``disputatio eval retrieval --limit-docs N`` ingested the snippets, and
the bench extras (``make bench-deps``).
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
from typing import cast

from disputatio.eval import retrieval_data as data
from disputatio.eval.retrieval import EvalOptions, RetrievalEvaluation
from disputatio.eval.retrieval_baselines import PlainPeers
from disputatio.eval.retrieval_ingest import collections_for
from disputatio.eval.retrieval_metrics import dedupe, quality
from disputatio.eval.retrieval_public import PUBLIC_K, precision, public_search
from disputatio.retrievers.base import RetrievalFilters
from disputatio.retrievers.fusion import alpha_trim, trimmed
from disputatio.retrievers.postgres import PostgresFunnel
from disputatio.settings import get_settings


def main(argv: list[str] | None = None) -> None:
    """Print one row per ``trim_alpha`` and the cosine peer's row, on the chosen split."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit-docs", type=int, default=None)
    parser.add_argument("--split", default="calibration", choices=("calibration", "test", "all"))
    parser.add_argument("--alphas", default="0,0.1,0.2,0.3,0.4,0.5")
    parser.add_argument(
        "--demote",
        default="",
        help="comma list of demotion cuts: each alpha's kept list with the sections "
        "below demote · s_max put after the others (the funnel's list for trim_alpha D, "
        "deep_trim_alpha A, at a depth past k_final)",
    )
    parser.add_argument("--k", type=int, default=PUBLIC_K)
    parser.add_argument("--tenant", default="bioasq")
    args = parser.parse_args(argv)
    alphas = [float(a) for a in args.alphas.split(",")]
    demotes: list[float | None] = [None] + [float(d) for d in args.demote.split(",") if d]

    settings = get_settings()
    labelled = data.bioasq_set(args.limit_docs)
    chosen = data.select(labelled.queries, cast(data.Split, args.split))
    filters = RetrievalFilters(
        tenant=args.tenant, collections=collections_for(len(labelled.documents)) or None
    )
    ev = RetrievalEvaluation(settings, filters, EvalOptions(baselines=False))
    relevant = [q.relevant & set(ev.texts) for q in chosen]
    funnel = PostgresFunnel(settings, default_filters=filters, embeddings=ev.embeddings)
    shipped = funnel.config
    funnel.config = dataclasses.replace(
        shipped,
        trim_alpha=0.0,
        calibrated_threshold=None,
        rerank_candidates=max(shipped.rerank_candidates, args.k),
    )
    searched = []
    for q in chosen:
        result = public_search(funnel, q.query, args.k)
        pairs = list(result.trace.rerank_scores.items())  # the reranked list, final order
        found = ev.labels_of_sections([i for i, _ in pairs])
        searched.append((result.best_score, [(found.get(i, ""), s) for i, s in pairs]))

    print(
        f"{args.split} split: {len(chosen)} questions; refusal threshold {shipped.threshold};"
        f" shipped trim_alpha {shipped.trim_alpha}, calibrated threshold"
        f" {shipped.calibrated_threshold}, rerank_candidates {shipped.rerank_candidates}"
    )
    print(
        "| trim_alpha | demote_alpha | nDCG@10 | recall@32 | precision | sections mean/min/max "
        "| refused |"
    )
    print("|---|---|---|---|---|---|---|")
    for alpha in alphas:
        for demote in demotes:
            rankings, counts, refused = [], [], 0
            for best, scored in searched:
                if best < shipped.threshold:
                    refused += 1
                    rankings.append([])
                    counts.append(0)
                    continue
                scores = [s for _, s in scored]
                # "demote D" is the funnel's deep trim: trim_alpha D, then down to this alpha
                cut = alpha_trim(scores, alpha if demote is None else max(demote, alpha))
                low = None if demote is None else alpha_trim(scores, alpha)
                labels = [scored[i][0] for i in trimmed(scores, cut, low)][: args.k]
                counts.append(len(labels))
                rankings.append(dedupe(label for label in labels if label))
            row = quality(rankings, relevant)
            print(
                f"| {alpha} | {demote if demote is not None else '–'} | {row['ndcg@10']:.3f} |"
                f" {row['recall@32']:.3f} | {precision(rankings, relevant):.3f} |"
                f" {sum(counts) / len(counts):.1f}/{min(counts)}/{max(counts)} | {refused} |"
            )
    ids = list(ev.texts)
    name = "bioasq" + (f"-{args.limit_docs}" if args.limit_docs else "")
    spec = hashlib.sha1(settings.models.embeddings.encode()).hexdigest()[:8]
    cache = settings.home / "eval" / name / f"peer-vectors-{spec}.npz"  # the eval's own cache
    peers = PlainPeers(ids, [ev.texts[i] for i in ids], ev.embeddings, cache=cache, depth=100)
    cosine = quality([peers.cosine_search(q.query)[0] for q in chosen], relevant)
    print(f"| cosine peer | {cosine['ndcg@10']:.3f} | {cosine['recall@32']:.3f} | — | 100 | — |")


if __name__ == "__main__":
    main()
