"""The plots of the evaluation report (matplotlib, Agg backend).

* ``accuracy.png``: accuracy per protocol and data set with 95% Wilson intervals; each bar is
  labelled with its number of questions and carries its own majority-class line (the baseline
  on the questions THAT bar was run on: protocols of one run may answer the first 20 or the
  first 50 of the same draw); a dotted line per data set marks chance;
* ``accuracy_vs_tokens.png``: accuracy against tokens per question, one panel per data set;
  each point's own majority baseline is a dash of its colour at the same x.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from disputatio.eval.analysis import protocol_order


def _chance(data: Mapping[str, Any]) -> float | None:
    value = (data.get("reference") or {}).get("chance")
    return float(value) if value is not None else None


def plot(analysis: Mapping[str, Any], out: Path) -> list[Path]:
    """``accuracy.png`` and ``accuracy_vs_tokens.png``; return their paths."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D
    from matplotlib.ticker import FuncFormatter, SymmetricalLogLocator

    datasets = list(analysis)
    protocols = sorted({p for d in analysis.values() for p in d["protocols"]}, key=protocol_order)
    if not datasets or not protocols:
        return []
    fig, ax = plt.subplots(figsize=(max(6, 1.2 * len(datasets) * len(protocols) / 2), 4))
    width = 0.8 / len(protocols)
    for j, name in enumerate(protocols):
        xs, ys, lo, hi, ns, bases = [], [], [], [], [], []
        for i, dataset in enumerate(datasets):
            s = analysis[dataset]["protocols"].get(name)
            if s is None or s["accuracy"] is None:
                continue
            xs.append(i + (j - (len(protocols) - 1) / 2) * width)
            ys.append(s["accuracy"])
            ns.append(s["n"])
            bases.append(s.get("majority"))
            lo.append(max(0.0, s["accuracy"] - s["ci_low"]))  # Wilson at 0 or 1: float dust
            hi.append(max(0.0, s["ci_high"] - s["accuracy"]))
        ax.bar(xs, ys, width, yerr=[lo, hi], capsize=3, label=name, color=f"C{j % 10}")
        for x, n, base in zip(xs, ns, bases, strict=True):  # runs mix 50- and 20-question bars
            ax.text(x, 0.01, f"n={n}", rotation=90, ha="center", va="bottom", fontsize=6)
            if base is not None:  # this bar's own questions' majority baseline
                ax.hlines(base, x - width / 2, x + width / 2, colors="black", linestyles="dashed")
    for i, dataset in enumerate(datasets):
        chance = _chance(analysis[dataset])
        if chance is not None:
            ax.hlines(chance, i - 0.4, i + 0.4, colors="grey", linestyles="dotted")
    ax.set_xticks(range(len(datasets)), datasets)
    ax.set_ylim(0, 1.02)
    ax.set_ylabel(
        "accuracy (95% Wilson CI)\ndashed: each bar's majority class; dotted: chance", fontsize=8
    )
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    fig.tight_layout()
    acc_path = out / "accuracy.png"
    fig.savefig(acc_path, dpi=120)
    plt.close(fig)
    # accuracy vs tokens: one panel per data set, one colour per protocol (as in the bars);
    # points are labelled where few enough not to overlap, the legend names them all
    colour = {name: f"C{j % 10}" for j, name in enumerate(protocols)}
    fig, axes = plt.subplots(
        1, len(datasets), figsize=(1.5 + 4.2 * len(datasets), 4.2), sharey=True, squeeze=False
    )
    for ax, dataset in zip(axes[0], datasets, strict=True):
        points = analysis[dataset]["protocols"]
        for name, s in points.items():
            if s["accuracy"] is None:
                continue
            tokens = (s["input_tokens_per_q"] or 0) + (s["output_tokens_per_q"] or 0)
            ax.scatter(tokens, s["accuracy"], c=colour[name], s=30, zorder=3)
            if s.get("majority") is not None:
                ax.scatter(tokens, s["majority"], c=colour[name], marker="_", s=120, zorder=2)
            if len(points) <= 5:
                ax.annotate(
                    name,
                    (tokens, s["accuracy"]),
                    xytext=(5, 3),
                    textcoords="offset points",
                    fontsize=7,
                )
        ax.set_xscale("symlog", linthresh=10)
        ax.xaxis.set_major_locator(SymmetricalLogLocator(base=10, linthresh=10, subs=(1, 2, 5)))
        ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _pos: f"{v:,.0f}"))
        ax.tick_params(axis="x", labelsize=7)
        ax.margins(x=0.12)  # room for the labels of the rightmost points
        chance = _chance(analysis[dataset])
        if chance is not None:
            ax.axhline(chance, color="grey", linestyle="dotted", linewidth=1)
        ax.set_title(f"{dataset} (dash: own majority class; dotted: chance)", fontsize=9)
        ax.set_xlabel("tokens per question (in + out, log)", fontsize=8)
        ax.set_ylim(-0.02, 1.05)
        ax.grid(True, alpha=0.3)
    axes[0][0].set_ylabel("accuracy")
    handles = [
        Line2D([], [], color=colour[n], marker="o", linestyle="", label=n) for n in protocols
    ]
    axes[0][-1].legend(handles=handles, fontsize=7, loc="upper left", bbox_to_anchor=(1.02, 1.0))
    fig.tight_layout()
    tok_path = out / "accuracy_vs_tokens.png"
    fig.savefig(tok_path, dpi=120)
    plt.close(fig)
    return [acc_path, tok_path]
