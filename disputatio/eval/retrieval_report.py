"""Render a retrieval evaluation's results: rows for a table, Markdown, and the output files."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from disputatio.eval.retrieval_public import AFTER, BEFORE
from disputatio.retrievers.funnel import FunnelConfig

#: Columns of the results table: (key in a row, header).
COLUMNS = (
    ("recall@10", "recall@10"),
    ("recall@32", "recall@32"),
    ("ndcg@10", "nDCG@10"),
    ("mrr", "MRR"),
    ("p50_ms", "p50 ms"),
    ("p95_ms", "p95 ms"),
)


def rows(result: Mapping[str, Any]) -> list[tuple[str, list[str]]]:
    """``(label, cells)`` per funnel stage, then the public path, then per plain peer."""
    out = []
    groups = {
        "funnel: ": result.get("stages", {}),
        "public: ": result.get("public", {}).get("rows", {}),
        "peer: ": result.get("peers", {}),
    }
    for prefix, group in groups.items():
        for name, row in group.items():
            cells = [_fmt(row.get(key), key) for key, _ in COLUMNS]
            label = prefix + name + (f" ({row['failed']} failed)" if row.get("failed") else "")
            out.append((label, cells))
    return out


def refusal_lines(result: Mapping[str, Any]) -> list[str]:
    """One line per refusal measurement, then the public path's trim and refusals."""
    refusal = result.get("refusal", {})
    lines: list[str] = []
    for key, what in (("on_topic", "labelled (on-topic)"), ("off_topic", "off-topic (GSM8K)")):
        got = refusal.get(key)
        if got:
            lines.append(
                f"{what} questions refused: {got['refused']}/{got['n']} ({got['rate']:.1%}),"
                f" mean best rerank score {got['mean_best_score']:.3f}"
            )
    if lines:
        lines.insert(
            0, f"refusal threshold {refusal['threshold']} on reranker `{refusal['reranker']}`:"
        )
    return lines + trim_lines(result)


def trim_lines(result: Mapping[str, Any]) -> list[str]:
    """What the public path's trim keeps, costs and gains (none without a public row)."""
    public = result.get("public") or {}
    if not public:
        return []
    trim, after, before = public["trim"], public["rows"][AFTER], public["rows"][BEFORE]
    back, ranked = trim["returned"], trim["reranked"]
    n = after["n"]
    return [
        f"public `{public['call']}`: {back['mean']:.1f} sections returned per question"
        f" (min {back['min']}, max {back['max']}) of {ranked['mean']:.1f} reranked;"
        f" refused {trim['refused']}/{n}",
        f"trim: recall@32 {before['recall@32']:.3f} → {after['recall@32']:.3f},"
        f" nDCG@10 {before['ndcg@10']:.3f} → {after['ndcg@10']:.3f},"
        f" precision {before['precision']:.3f} → {after['precision']:.3f}",
    ]


def to_markdown(result: Mapping[str, Any]) -> str:
    """The results as a Markdown section (command, scope, table, refusals)."""
    head = [
        f"### {result.get('dataset', 'labelled set')}, split `{result.get('split', 'all')}`",
        "",
        f"Command: `{result.get('command', '')}`",
        "",
        f"Run {result['date']} on {result['machine']}, load average (1 min) {result['load'][0]}"
        f" at start, {result['load'][1]} at end. Tenant `{result['tenant']}`"
        + (f", {len(result['collections'])} collections" if result["collections"] else "")
        + f": {result['documents']} documents; {result['questions']} questions"
        f" ({result['relevant_per_question']:.1f} relevant each). Embeddings"
        f" `{result['embeddings']}`, reranker `{result['refusal']['reranker']}`; channels"
        f" {channel_knobs(result['config'])}, RRF k {result['config']['rrf_k']}.",
        "",
        "| ranking | " + " | ".join(h for _, h in COLUMNS) + " |",
        "|---" * (len(COLUMNS) + 1) + "|",
    ]
    body = [f"| {label} | " + " | ".join(cells) + " |" for label, cells in rows(result)]
    lines = refusal_lines(result)
    tail = ["", *(f"- {line}" for line in lines)] if lines else []
    return "\n".join(head + body + tail) + "\n"


def config_row(cfg: FunnelConfig) -> dict[str, Any]:
    """The funnel's knobs as the results record them: each channel as ``{k, weight}``."""
    row = {f.name: getattr(cfg, f.name) for f in dataclasses.fields(cfg) if f.name != "channels"}
    row["channels"] = {n: {"k": s.k, "weight": s.weight} for n, s in cfg.channels.items()}
    return row


def channel_knobs(config: Mapping[str, Any]) -> str:
    """Each channel's depth and weight, as ``name (k K, weight W)``, from a results' config."""
    return ", ".join(
        f"{name} (k {knobs['k']}, weight {knobs['weight']:g})"
        for name, knobs in config.get("channels", {}).items()
    )


def write_outputs(result: Mapping[str, Any], out: Path) -> tuple[Path, Path]:
    """Write ``out`` as JSON and the same name with ``.md`` as Markdown; return both paths."""
    out.parent.mkdir(parents=True, exist_ok=True)
    json_path = out if out.suffix == ".json" else out.with_suffix(".json")
    md_path = json_path.with_suffix(".md")
    json_path.write_text(json.dumps(result, indent=2, default=str) + "\n", encoding="utf-8")
    md_path.write_text(to_markdown(result), encoding="utf-8")
    return json_path, md_path


def _fmt(value: Any, key: str) -> str:
    if value is None:
        return "—"
    if key.endswith("_ms"):
        return f"{value:.1f}"
    return f"{value:.3f}"
