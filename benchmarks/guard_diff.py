"""Which claim/window pairs of the grounding records a change of the guards lets through or stops.

Loads ``disputatio/validators/guards.py`` as it stood at ``--base`` (its imports resolve to the
working tree: only the guards module itself is the old one) beside today's, and compares
``guard`` on

- ``--supported``: every distinct (claim, evidence sentence) pair shown as supported in
  ``docs/grounding/records_*.jsonl``: what a tightened guard would now refuse;
- ``--pairs``: every factual claim of those records against every pair of adjacent sentences
  of every grounding corpus (tags and comments stripped): what a loosened guard would now let
  through (minutes of CPU).

No model call. Prints each pair whose outcome changes::

    .venv/bin/python benchmarks/guard_diff.py --base c01b0bf --supported
    .venv/bin/python benchmarks/guard_diff.py --base c01b0bf --pairs
"""

from __future__ import annotations

import argparse
import glob
import importlib.util
import itertools
import json
import re
import subprocess
import tempfile
from pathlib import Path
from types import ModuleType

from disputatio.validators import guards
from disputatio.validators.sentences import split_sentences

DATA = Path("disputatio/data/grounding")


def old_guards(rev: str) -> ModuleType:
    """The guards module at git revision ``rev``."""
    src = subprocess.run(
        ["git", "show", f"{rev}:disputatio/validators/guards.py"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    path = Path(tempfile.mkdtemp()) / "guards_base.py"
    path.write_text(src)
    spec = importlib.util.spec_from_file_location("guards_base", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def records() -> list[dict]:
    """Every record of the grounding records files."""
    out = []
    for name in sorted(glob.glob("docs/grounding/records_*.jsonl")):
        lines = Path(name).read_text(encoding="utf-8").splitlines()
        out += [json.loads(line) for line in lines if line.strip()]
    return out


def adjacent_pairs() -> list[str]:
    """Every pair of adjacent sentences of every grounding corpus."""
    sets = json.loads((DATA / "sets.json").read_text())
    wins: dict[str, None] = {}
    for corpus in {"corpus", *sets.values()}:
        for path in sorted((DATA / corpus).iterdir()):
            text = re.sub(r"<!--.*?-->", " ", path.read_text(encoding="utf-8"), flags=re.S)
            text = re.sub(r"<[^>]+>", " ", re.sub(r"</(p|td|th|tr|h\d|li)>", "\n", text))
            spans = split_sentences(text)
            wins.update((f"{a.sentence} {b.sentence}", None) for a, b in itertools.pairwise(spans))
    return list(wins)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", required=True, help="the git revision to compare with")
    parser.add_argument("--supported", action="store_true")
    parser.add_argument("--pairs", action="store_true")
    args = parser.parse_args()
    old = old_guards(args.base)
    recs = records()
    changed = 0
    if args.supported:
        pairs = {
            (c["text"], ev["sentence"])
            for r in recs
            for c in r.get("claims_detail") or []
            if c.get("verdict") == "supported" and c.get("evidence")
            for ev in [c["evidence"], *(c.get("more_evidence") or [])]
        }
        print(f"{len(pairs)} distinct supported pairs")
        for claim, sentence in sorted(pairs):
            before, now = old.guard(claim, sentence), guards.guard(claim, sentence)
            if bool(before) != bool(now):
                changed += 1
                print(f"CLAIM {claim}\n  SENTENCE {sentence[:300]}\n  {before!r} -> {now!r}")
    if args.pairs:
        claims = sorted(
            {c["text"] for r in recs for c in r.get("claims_detail") or [] if c.get("factual")}
        )
        wins = adjacent_pairs()
        print(f"{len(claims)} claims x {len(wins)} adjacent pairs")
        for claim, win in itertools.product(claims, wins):
            before, now = old.guard(claim, win), guards.guard(claim, win)
            if bool(before) != bool(now):
                changed += 1
                print(f"CLAIM {claim}\n  WINDOW {win[:300]}\n  {before!r} -> {now!r}")
    print(f"{changed} changed")


if __name__ == "__main__":
    main()
