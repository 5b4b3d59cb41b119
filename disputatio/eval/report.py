"""Benchmark results as files: one JSON document per run and a markdown table."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

COLUMNS = (
    "dataset",
    "protocol",
    "ablations",
    "n",
    "accuracy",
    "unanswered",
    "c→w",
    "w→c",
    "agreed",
    "rounds to agree",
    "calls/q",
    "in tok/q",
    "out tok/q",
    "wall p50 s",
    "wall p95 s",
)


def _fmt(value: Any, spec: str = "") -> str:
    if value is None:
        return "–"
    return format(value, spec) if spec else str(value)


def table_row(result: Mapping[str, Any]) -> list[str]:
    """One markdown table row for a benchmark result."""
    exp, m = result["experiment"], result["metrics"]
    change = m.get("change_of_answer", {}).get("total", {})
    conv = m.get("convergence", {})
    cost = m.get("cost", {})
    wall = cost.get("wall_ms", {})
    ablations = ", ".join(f"{k}={v}" for k, v in sorted(exp.get("ablations", {}).items())) or "–"
    debate = bool(conv.get("debates"))
    return [
        str(exp["dataset"]),
        str(exp["protocol"]),
        ablations,
        str(m["n"]),
        _fmt(m.get("accuracy"), ".3f"),
        str(m.get("unanswered", 0)),
        _fmt(change.get("correct_to_wrong") if debate else None),
        _fmt(change.get("wrong_to_correct") if debate else None),
        f"{conv['agreed']}/{conv['debates']}" if debate else "–",
        _fmt(conv.get("mean_rounds_to_agreement"), ".2f"),
        _fmt(cost.get("mean_calls"), ".1f"),
        _fmt(cost.get("mean_input_tokens"), ".0f"),
        _fmt(cost.get("mean_output_tokens"), ".0f"),
        _fmt(wall.get("p50", 0) / 1000 if wall else None, ".2f"),
        _fmt(wall.get("p95", 0) / 1000 if wall else None, ".2f"),
    ]


def markdown_table(results: Sequence[Mapping[str, Any]]) -> str:
    """A markdown table with one row per benchmark result."""
    lines = [
        "| " + " | ".join(COLUMNS) + " |",
        "|" + "|".join("---" for _ in COLUMNS) + "|",
    ]
    lines += ["| " + " | ".join(table_row(r)) + " |" for r in results]
    return "\n".join(lines) + "\n"


def write_results(result: Mapping[str, Any], out_dir: Path) -> tuple[Path, Path]:
    """Write ``<name>.json`` and ``<name>.md`` into ``out_dir``; return both paths."""
    out_dir.mkdir(parents=True, exist_ok=True)
    name = result["experiment"]["name"]
    json_path = out_dir / f"{name}.json"
    md_path = out_dir / f"{name}.md"
    json_path.write_text(json.dumps(result, indent=2, default=str), encoding="utf-8")
    exp = result["experiment"]
    corpus = exp.get("corpus")
    if corpus == "gold":
        corpus = "gold (ORACLE: the drawn questions' own gold snippets, an upper bound)"
    header = (
        f"# {name}\n\nmodel: `{exp.get('model')}`, seed {exp['seed']}, "
        f"corpus: {corpus}, config hash `{exp.get('config_hash')}`\n\n"
    )
    md_path.write_text(header + markdown_table([result]), encoding="utf-8")
    return json_path, md_path
