"""The plots of the evaluation report (matplotlib, Agg backend).

* ``accuracy.png``: accuracy per protocol and data set with 95% Wilson intervals; each bar is
  labelled with its number of questions and carries its own majority-class line (the baseline
  on the questions THAT bar was run on: protocols of one run may answer the first 20 or the
  first 50 of the same draw); a dotted line per data set marks chance;
* ``accuracy_vs_tokens.png``: accuracy against tokens per question, one panel per data set;
  each point's own majority baseline is a dash of its colour at the same x;
* ``reliability.png`` and ``risk_coverage.png``: the confidence section's reliability diagram
  and accuracy-coverage curves, raw and fitted (:func:`confidence_plots`).
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

    datasets = list(analysis)
    protocols = sorted({p for d in analysis.values() for p in d["protocols"]}, key=protocol_order)
    if not datasets or not protocols:
        return []
    return [
        _accuracy_bars(plt, analysis, datasets, protocols, out / "accuracy.png"),
        _accuracy_vs_tokens(plt, analysis, datasets, protocols, out / "accuracy_vs_tokens.png"),
    ]


def _accuracy_bars(
    plt: Any, analysis: Mapping[str, Any], datasets: list[str], protocols: list[str], path: Path
) -> Path:
    """Accuracy bars with intervals, each bar's own majority line and each set's chance."""
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
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def _accuracy_vs_tokens(
    plt: Any, analysis: Mapping[str, Any], datasets: list[str], protocols: list[str], path: Path
) -> Path:
    """Accuracy against tokens per question: a panel per data set, a colour per protocol."""
    from matplotlib.lines import Line2D
    from matplotlib.ticker import FuncFormatter, SymmetricalLogLocator

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
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def _panels(plt: Any, count: int) -> tuple[Any, Any]:
    return plt.subplots(1, count, figsize=(1.5 + 4.2 * count, 4.2), sharey=True, squeeze=False)


def confidence_plots(confidence: Mapping[str, Mapping[str, Any]], out: Path) -> list[Path]:
    """``reliability.png`` and ``risk_coverage.png`` of the report's confidence section.

    One panel per data set, one colour per protocol: the raw confidence (solid, circles; all
    answered records carrying one) and the fitted one (dashed, squares; the test split). The
    reliability points are the non-empty equal-width bins (mean confidence, accuracy), sized
    by the bin's answers; the risk-coverage curves give the accuracy of the most confident
    share of answers. Nothing is drawn (and no path returned) without a confidence.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D

    def curves(kind: str) -> dict[str, dict[str, tuple[str, Mapping[str, Any]]]]:
        found: dict[str, dict[str, tuple[str, Mapping[str, Any]]]] = {}
        for dataset, protocols in confidence.items():
            for name, g in protocols.items():
                raw, fitted = g["raw"], (g.get("test") or {}).get("fitted") or {}
                for label, s in (("raw", raw), ("fitted", fitted)):
                    if s.get("n") and s.get(kind):
                        found.setdefault(dataset, {})[f"{name} {label}"] = (name, s)
        return found

    names = sorted({p for d in confidence.values() for p in d}, key=protocol_order)
    colour = {name: f"C{j % 10}" for j, name in enumerate(names)}
    paths: list[Path] = []
    for kind, file in (("reliability", "reliability.png"), ("curve", "risk_coverage.png")):
        found = curves(kind)
        if not found:
            continue
        fig, axes = _panels(plt, len(found))
        for ax, (dataset, lines) in zip(axes[0], found.items(), strict=True):
            for label, (name, s) in lines.items():
                fitted = label.endswith(" fitted")
                style = {"color": colour[name], "linestyle": "--" if fitted else "-"}
                if kind == "reliability":
                    rows = s["reliability"]
                    xs, ys = [r["confidence"] for r in rows], [r["accuracy"] for r in rows]
                    ax.plot(xs, ys, marker="s" if fitted else "o", markersize=3, **style)
                    ax.scatter(xs, ys, s=[8 + 4 * r["n"] ** 0.5 for r in rows], c=colour[name])
                else:
                    curve = s["curve"]
                    xs = [(k + 1) / len(curve) for k in range(len(curve))]
                    ax.plot(xs, curve, **style)
            if kind == "reliability":
                ax.plot([0, 1], [0, 1], color="grey", linestyle="dotted", linewidth=1)
                ax.set_xlabel("confidence (bin mean; 10 equal-width bins)", fontsize=8)
            else:
                ax.set_xlabel("coverage (share of answers, most confident first)", fontsize=8)
            ax.set_title(f"{dataset} (solid: raw; dashed: fitted, test split)", fontsize=9)
            ax.set_xlim(0, 1.02)
            ax.set_ylim(-0.02, 1.05)
            ax.grid(True, alpha=0.3)
        axes[0][0].set_ylabel("accuracy" if kind == "reliability" else "accuracy of those kept")
        shown = [n for n in names if any(n == v[0] for d in found.values() for v in d.values())]
        handles = [Line2D([], [], color=colour[n], label=n) for n in shown]
        axes[0][-1].legend(handles=handles, fontsize=7, loc="upper left", bbox_to_anchor=(1.02, 1))
        fig.tight_layout()
        path = out / file
        fig.savefig(path, dpi=120)
        plt.close(fig)
        paths.append(path)
    return paths
