"""The tables of ``benchmarks/debate_local.py``: graph against sequential, and the decode floor."""

from __future__ import annotations

from typing import Any


def table(graph: dict[str, Any], seq: dict[str, Any], same: dict[str, Any] | None = None) -> str:
    """The markdown table: graph / sequential (and / sequential on the graph's server settings)."""
    spec = graph.get("speculative", "none")
    lines = [
        "| question | mode | calls | prompt tok | completion tok | wall s | graph / this |",
        "|---|---|---|---|---|---|---|",
    ]
    seqs = [(seq, f"sequential, no cache, speculative {seq.get('speculative', 'none')}")]
    if same is not None:
        seqs.append((same, f"sequential, no cache, speculative {spec}"))
    totals = [0.0] * (len(seqs) + 1)
    for i, g in enumerate(graph["runs"]):
        totals[0] += g["wall_s"]
        for j, (mode, label) in enumerate(seqs, start=1):
            s = mode["runs"][i]
            totals[j] += s["wall_s"]
            ratio = f"{g['wall_s'] / s['wall_s']:.2f}×" if s["wall_s"] else ""
            lines.append(
                f"| {g['question']} | {label} | {s['calls']} | {s['prompt_tokens']} | "
                f"{s['completion_tokens']} | {s['wall_s']} | {ratio} |"
            )
        cached = g.get("cached_tokens", 0)
        lines.append(
            f"| {g['question']} | graph: cache + slots, speculative {spec} | {g['calls']} | "
            f"{g['prompt_tokens']} ({cached} cached) | {g['completion_tokens']} | "
            f"{g['wall_s']} | |"
        )
    for j, (_, label) in enumerate(seqs, start=1):
        if totals[j]:
            lines.append(
                f"| both | graph vs {label} | | | | {totals[0]:.1f} vs {totals[j]:.1f} | "
                f"{totals[0] / totals[j]:.2f}× |"
            )
    return "\n".join([*lines, "", decode_floor(seq)])


def decode_floor(seq: dict[str, Any]) -> str:
    """How much of the naive replay no prompt cache can remove: its decoding time.

    The server's own timings split each replayed call into reading the prompt and decoding the
    completion. A graph that generates the same tokens and has every prompt token cached still
    decodes them; only decoding several sequences at once goes below this floor, and on a CPU,
    where two sequences decode barely faster together than one after the other, not by much.
    """
    lines = [
        "| question | replay s | reading prompts s | decoding s | decode floor"
        " (decoding / replay) |",
        "|---|---|---|---|---|",
    ]
    runs = [r for r in seq["runs"] if "decode_s" in r]
    for r in runs:
        floor = f"{r['decode_s'] / r['wall_s']:.2f}×" if r["wall_s"] else ""
        lines.append(
            f"| {r['question']} | {r['wall_s']} | {r['prompt_s']} | {r['decode_s']} | {floor} |"
        )
    wall, decode = sum(r["wall_s"] for r in runs), sum(r["decode_s"] for r in runs)
    if wall:
        prompt = sum(r["prompt_s"] for r in runs)
        lines.append(f"| both | {wall:.1f} | {prompt:.1f} | {decode:.1f} | {decode / wall:.2f}× |")
    return "\n".join(lines)
