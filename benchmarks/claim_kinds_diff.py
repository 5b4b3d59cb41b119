"""Which recorded claims a change to the claim kinds reads differently (no model call).

Every distinct claim text of every records file in ``docs/grounding/`` is read by
:mod:`disputatio.validators.claim_kinds` as it stood at ``BASE`` and as it stands now: is it a
refusal, is it a factual claim to check, how does it split, is it a short answer (a verdict
line that stands only on supported claims). Prints each text whose reading differs, then the
count (docs/grounding.md, "The hierarchical debate on the two-part questions").

    .venv/bin/python benchmarks/claim_kinds_diff.py d42f0fa   # the commit before the change
"""

from __future__ import annotations

import argparse
import json
import subprocess
import types
from pathlib import Path

from disputatio.validators import claim_kinds as now

ROOT = Path(__file__).resolve().parents[1]


def _module_at(rev: str) -> types.ModuleType:
    source = subprocess.run(
        ["git", "show", f"{rev}:disputatio/validators/claim_kinds.py"],
        capture_output=True, text=True, check=True, cwd=ROOT,
    ).stdout  # fmt: skip
    module = types.ModuleType("claim_kinds_then")
    exec(compile(source, "claim_kinds_then", "exec"), module.__dict__)
    return module


def _reading(kinds: types.ModuleType, text: str) -> tuple[object, ...]:
    refuses = getattr(kinds, "refuses", None) or (lambda t: bool(kinds.REFUSAL_RE.search(t)))
    short = getattr(kinds, "short_answer", lambda _t: False)
    return refuses(text), kinds.is_factual(text), tuple(kinds.split_compound(text)), short(text)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base", help="the commit to compare with")
    then = _module_at(parser.parse_args().base)
    texts: dict[str, str] = {}
    for path in sorted((ROOT / "docs" / "grounding").rglob("*.jsonl")):
        for line in path.read_text().splitlines():
            try:
                rec = json.loads(line)
            except json.JSONDecodeError:
                continue
            for claim in rec.get("claims_detail") or []:
                if claim.get("text"):
                    texts.setdefault(claim["text"], f"{path.name} {rec.get('id')}")
    changed = 0
    for text, where in texts.items():
        before, after = _reading(then, text), _reading(now, text)
        if before != after:
            changed += 1
            print(f"{where}: (refusal, factual, parts, short) {before} -> {after}\n    {text}")
    print(f"{changed} of {len(texts)} distinct recorded claim texts read differently")


if __name__ == "__main__":
    main()
