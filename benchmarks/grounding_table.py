"""The table of a grounding records file (``benchmarks/grounding.py --report``).

One row per split and system: parts right, claims supported, fabricated citations, refusals of
unanswerable and answerable questions, answers wrong, citations on gold evidence, per-part "not
found", wall time and the checks' share of it. Records of runs before a measure was recorded
are given it from their answer and claims; ``rescore`` reads every per-part measure again.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from grounding import DATA, SPLITS, parts_said_not_found


def _with_part_measures(recs: list[dict[str, Any]], rescore: bool = False) -> list[dict[str, Any]]:
    """Records of runs before the per-part measures, given them from their answer and claims.

    With ``rescore``, every record's per-part measures are read again from its answer and
    claims by the current :func:`parts_said_not_found` (the recorded ones otherwise).
    """
    questions = {
        q["id"]: q
        for f in sorted(DATA.glob("questions*.jsonl"))
        for q in map(json.loads, f.read_text().splitlines())
    }
    for rec in recs:
        q = questions.get(rec["id"])
        if ("parts_unanswerable" in rec and not rescore) or q is None or "claims_detail" not in rec:
            continue
        said = parts_said_not_found(q, rec["answer"], rec["claims_detail"])
        parts = q["parts"]
        rec["parts_unanswerable"] = sum(p["answer"] is None for p in parts) if len(parts) > 1 else 0
        rec["parts_unanswerable_said"] = sum(parts[i]["answer"] is None for i in said)
        rec["parts_answerable_said"] = sum(parts[i]["answer"] is not None for i in said)
    return recs


def _parts_cells(rs: list[dict[str, Any]]) -> str:
    """``unanswerable parts said not found | answerable parts said not found`` of two-part ones."""
    two = [r for r in rs if r["kind"] == "multipart" and "parts_unanswerable" in r]
    if not two:
        return "– | –"
    gold = sum(r["parts_unanswerable"] for r in two)
    answerable = sum(r["parts_answerable"] for r in two)
    return (
        f"{sum(r['parts_unanswerable_said'] for r in two)}/{gold} | "
        f"{sum(r['parts_answerable_said'] for r in two)}/{answerable}"
    )


def _answered_wrongly(rec: dict[str, Any]) -> bool:
    """A one-part answerable question answered (not refused) with no part right."""
    return rec["kind"] == "answerable" and not rec["refused"] and rec["parts_right"] == 0


def table(path: Path, rescore: bool = False) -> str:
    """The Markdown table of the records in ``path`` (``rescore``: per-part measures read again)."""
    lines = path.read_text().splitlines()
    recs = _with_part_measures([json.loads(line) for line in lines if line.strip()], rescore)
    rows = []
    for split in (*SPLITS, "all"):
        for system in ("plain", "project", "hier"):
            rs = [r for r in recs if r["system"] == system and split in (r["split"], "all")]
            if not rs:
                continue
            un = [r for r in rs if r["kind"] == "unanswerable"]
            ans = [r for r in rs if r["kind"] != "unanswerable"]
            parts = sum(r["parts_answerable"] for r in ans)
            claims = sum(r["claims"] for r in rs)
            cited = sum(r["cited"] for r in rs)
            checks = [r["check_s"] / r["wall_s"] for r in rs if r.get("check_s") and r["wall_s"]]
            rows.append(
                f"| {split} | {system} | {len(rs)} | "
                f"{sum(r['parts_right'] for r in ans)}/{parts} | "
                f"{sum(r['claims_supported'] for r in rs)}/{claims} | "
                f"{sum(r['fabricated'] > 0 for r in rs)}/{len(rs)} | "
                f"{sum(r['refused'] for r in un)}/{len(un)} | "
                f"{sum(r['refused'] for r in ans if r['kind'] == 'answerable')}/"
                f"{sum(r['kind'] == 'answerable' for r in ans)} | "
                f"{sum(_answered_wrongly(r) for r in ans)}/"
                f"{sum(r['kind'] == 'answerable' for r in ans)} | "
                f"{sum(r['cited_gold'] for r in ans)}/{sum(r['cited'] for r in ans)} | "
                f"{_parts_cells(rs)} | "
                f"{sorted(r['wall_s'] for r in rs)[len(rs) // 2]:.1f} | "
                + (f"{100 * sum(checks) / len(checks):.1f}%" if checks else "–")
                + " |"
            )
            del cited
    head = (
        "| split | system | questions | answerable parts right | claims supported | "
        "answers with a fabricated citation | unanswerable refused | answerable wrongly "
        "refused | answerable answered wrongly | citations on gold evidence | unanswerable parts "
        "said not found | answerable parts said not found | p50 wall s | check / wall |\n"
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
    )
    return head + "\n" + "\n".join(rows)
