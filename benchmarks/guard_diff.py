"""Which claim/window pairs of the grounding records a change of the guards lets through or stops.

Runs ``guard`` (:mod:`disputatio.validators.guards`) as the whole ``disputatio`` package stood at
``--base`` (extracted with ``git archive`` and run in a child process, so a rule living in any
module the guards call, e.g. ``opposites.negation_differs``, is the old one too) beside
today's, and compares them on

- ``--supported``: every distinct (claim, evidence sentence) pair shown as supported in
  ``docs/grounding/records_*.jsonl``: what a tightened guard would now refuse;
- ``--pairs``: every factual claim of those records against every pair of adjacent sentences
  of every grounding corpus (tags and comments stripped): what a loosened guard would now let
  through (minutes of CPU, twice);
- ``--rows``: every factual claim against every table row of every corpus, read with its
  column headers as the checker reads it (the column and cell rules).

No model call. Prints each pair whose outcome changes::

    .venv/bin/python benchmarks/guard_diff.py --base c01b0bf --supported
    .venv/bin/python benchmarks/guard_diff.py --base c01b0bf --pairs
    .venv/bin/python benchmarks/guard_diff.py --base c01b0bf --rows

``--score`` scores every pair a change newly lets through with the hybrid score (the local
embedding model, no chat model) and counts those the judge would see (from its grey floor,
0.5) and those the score alone supports (0.83): what a loosened guard lets reach the judge.
"""

from __future__ import annotations

import argparse
import glob
import itertools
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

DATA = Path("disputatio/data/grounding")


def records() -> list[dict[str, Any]]:
    """Every record of the grounding records files."""
    out = []
    for name in sorted(glob.glob("docs/grounding/records_*.jsonl")):
        lines = Path(name).read_text(encoding="utf-8").splitlines()
        out += [json.loads(line) for line in lines if line.strip()]
    return out


def adjacent_pairs() -> list[str]:
    """Every pair of adjacent sentences of every grounding corpus."""
    from disputatio.validators.sentences import split_sentences

    sets = json.loads((DATA / "sets.json").read_text())
    wins: dict[str, None] = {}
    for corpus in {"corpus", *sets.values()}:
        for path in sorted((DATA / corpus).iterdir()):
            text = re.sub(r"<!--.*?-->", " ", path.read_text(encoding="utf-8"), flags=re.S)
            text = re.sub(r"<[^>]+>", " ", re.sub(r"</(p|td|th|tr|h\d|li)>", "\n", text))
            spans = split_sentences(text)
            wins.update((f"{a.sentence} {b.sentence}", None) for a, b in itertools.pairwise(spans))
    return list(wins)


def row_readings() -> list[str]:
    """Every table row of every grounding corpus, read with its column headers (as extracted)."""
    from disputatio.ingest.extract import extract
    from disputatio.validators.sentences import split_sentences
    from disputatio.validators.tables import readings

    sets = json.loads((DATA / "sets.json").read_text())
    rows: dict[str, None] = {}
    for corpus in {"corpus", *sets.values()}:
        for path in sorted((DATA / corpus).iterdir()):
            rows.update(dict.fromkeys(readings(split_sentences(extract(path).markdown)).values()))
    return list(rows)


def outcomes(job: Path, out: Path) -> None:
    """Write ``guard``'s reason for each pair of ``job`` (as this process imports it) to ``out``.

    ``job`` holds ``{"claims": [...], "windows": [...]}`` (every claim against every window)
    or ``{"pairs": [[claim, window], ...]}``; ``out`` gets ``{index: reason}`` for the pairs
    the guard rejects, indexed in that order.
    """
    from disputatio.validators.guards import guard

    spec = json.loads(job.read_text(encoding="utf-8"))
    pairs = spec.get("pairs") or itertools.product(spec["claims"], spec["windows"])
    rejected = {i: why for i, (claim, win) in enumerate(pairs) if (why := guard(claim, win))}
    out.write_text(json.dumps(rejected), encoding="utf-8")


def at_base(rev: str, job: Path, out: Path) -> dict[int, str]:
    """:func:`outcomes` with the ``disputatio`` package of git revision ``rev``."""
    tree = Path(tempfile.mkdtemp(prefix="guard_diff_"))
    archive = subprocess.run(["git", "archive", rev, "disputatio"], check=True, capture_output=True)
    subprocess.run(["tar", "-x", "-C", str(tree)], input=archive.stdout, check=True)
    env = {**os.environ, "PYTHONPATH": str(tree)}
    cmd = [sys.executable, __file__, "--outcomes", str(job), str(out)]
    subprocess.run(cmd, check=True, env=env)
    return {int(i): why for i, why in json.loads(out.read_text(encoding="utf-8")).items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", help="the git revision to compare with")
    parser.add_argument("--supported", action="store_true")
    parser.add_argument("--pairs", action="store_true")
    parser.add_argument("--rows", action="store_true")
    parser.add_argument("--score", action="store_true", help="score newly passed pairs")
    parser.add_argument("--outcomes", nargs=2, type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.outcomes:
        outcomes(*args.outcomes)
        return
    if not args.base:
        parser.error("--base is required")
    recs = records()
    work = Path(tempfile.mkdtemp(prefix="guard_diff_job_"))
    changed = 0
    passed: list[tuple[str, str]] = []  # pairs the change newly lets through
    jobs: list[tuple[str, dict[str, Any], list[tuple[str, str]]]] = []
    if args.supported:
        pairs = sorted(
            {
                (c["text"], ev["sentence"])
                for r in recs
                for c in r.get("claims_detail") or []
                if c.get("verdict") == "supported" and c.get("evidence")
                for ev in [c["evidence"], *(c.get("more_evidence") or [])]
            }
        )
        print(f"{len(pairs)} distinct supported pairs")
        jobs.append(("SENTENCE", {"pairs": pairs}, pairs))
    claims = sorted(
        {c["text"] for r in recs for c in r.get("claims_detail") or [] if c.get("factual")}
    )
    if args.pairs:
        wins = adjacent_pairs()
        print(f"{len(claims)} claims x {len(wins)} adjacent pairs")
        jobs.append(("WINDOW", {"claims": claims, "windows": wins}, []))
    if args.rows:
        rows = row_readings()
        print(f"{len(claims)} claims x {len(rows)} table rows read with their headers")
        jobs.append(("ROW", {"claims": claims, "windows": rows}, []))
    for label, spec, listed in jobs:
        job = work / f"{label}.json"
        job.write_text(json.dumps(spec), encoding="utf-8")
        before = at_base(args.base, job, work / f"{label}.base.json")
        outcomes(job, work / f"{label}.now.json")
        now = {int(i): w for i, w in json.loads((work / f"{label}.now.json").read_text()).items()}
        for i in sorted(set(before) ^ set(now)):
            changed += 1
            if listed:
                claim, win = listed[i]
            else:  # every claim against every window, in that order
                row, col = divmod(i, len(spec["windows"]))
                claim, win = spec["claims"][row], spec["windows"][col]
            was, is_ = before.get(i, ""), now.get(i, "")
            print(f"CLAIM {claim}\n  {label} {win[:300]}\n  {was!r} -> {is_!r}")
            if was and not is_:
                passed.append((claim, win))
    print(f"{changed} changed")
    if args.score and passed:
        _score(passed)


def _score(passed: list[tuple[str, str]]) -> None:
    """Print the hybrid score of each newly passed pair the judge would see, and the counts."""
    from disputatio.models.embeddings import get_embeddings
    from disputatio.validators.support import HybridSupport

    hybrid = HybridSupport(get_embeddings().embed_documents)
    judged = supported = 0
    for claim, win in passed:
        (score,) = hybrid.score_many(claim, [win], [""])
        if score.score >= 0.5:
            judged += 1
            supported += score.score >= hybrid.threshold
            print(f"SCORE {score.score:.2f} {claim[:90]} | {win[:120]}")
    print(f"{len(passed)} newly passed: {judged} reach the judge (>= 0.5), {supported} >= 0.83")


if __name__ == "__main__":
    main()
