"""Which recorded claims a change to the claim kinds reads differently (no model call).

Every distinct claim text of every records file in ``docs/grounding/`` is read by
:mod:`disputatio.validators.claim_kinds` as it stood at ``BASE`` and as it stands now: is it a
refusal, is it a factual claim to check, how does it split, is it a short answer (a verdict
line that stands only on supported claims), does it only point at the documents. Prints each
text whose reading differs, then the count (docs/grounding.md, "The hierarchical debate on the
two-part questions").

With ``--sentences`` it reads the sentences of every recorded draft and answer instead, as the
checker splits them into claims (:func:`~disputatio.validators.compound.split_compound`):
the recorded claim texts are already split, so a change to the split shows only here.

    .venv/bin/python benchmarks/claim_kinds_diff.py d42f0fa   # the commit before the change
    .venv/bin/python benchmarks/claim_kinds_diff.py cd59e0e --sentences
"""

from __future__ import annotations

import argparse
import json
import subprocess
import types
from pathlib import Path

from disputatio.validators import claim_kinds as now
from disputatio.validators.sentences import split_sentences

ROOT = Path(__file__).resolve().parents[1]


def _source_at(rev: str, path: str) -> str | None:
    done = subprocess.run(
        ["git", "show", f"{rev}:{path}"], capture_output=True, text=True, cwd=ROOT
    )
    return done.stdout if done.returncode == 0 else None


def _module_at(rev: str) -> types.ModuleType:
    """``claim_kinds`` as it stood at ``rev``, with its claim splitter of then (``compound``)."""
    source = _source_at(rev, "disputatio/validators/claim_kinds.py")
    if source is None:
        raise SystemExit(f"no claim_kinds.py at {rev}")
    module = types.ModuleType("claim_kinds_then")
    exec(compile(source, "claim_kinds_then", "exec"), module.__dict__)
    split = _source_at(rev, "disputatio/validators/compound.py")
    if split is not None:  # split out of claim_kinds on 2026-12-04
        compound = types.ModuleType("compound_then")
        exec(compile(split, "compound_then", "exec"), compound.__dict__)
        module.split_compound = compound.split_compound
        module.lacks_subject = compound.lacks_subject
    return module


def _reading(kinds: types.ModuleType, text: str) -> tuple[object, ...]:
    refuses = getattr(kinds, "refuses", None) or (lambda t: bool(kinds.REFUSAL_RE.search(t)))
    short = getattr(kinds, "short_answer", lambda _t: False)
    pointer = getattr(kinds, "is_pointer", lambda _t: False)
    return (
        refuses(text),
        kinds.is_factual(text),
        tuple(kinds.split_compound(text)),
        short(text),
        pointer(text),
    )


def _records() -> list[tuple[str, dict[str, object]]]:
    out = []
    for path in sorted((ROOT / "docs" / "grounding").rglob("*.jsonl")):
        for line in path.read_text().splitlines():
            try:
                out.append((path.name, json.loads(line)))
            except json.JSONDecodeError:
                continue
    return out


def _claim_texts() -> dict[str, str]:
    texts: dict[str, str] = {}
    for name, rec in _records():
        for claim in rec.get("claims_detail") or []:  # type: ignore[union-attr]
            if claim.get("text"):
                texts.setdefault(claim["text"], f"{name} {rec.get('id')}")
    return texts


def _answer_sentences() -> dict[str, str]:
    texts: dict[str, str] = {}
    for name, rec in _records():
        for key in ("draft", "answer"):
            if isinstance(rec.get(key), str):
                for span in split_sentences(str(rec[key])):
                    texts.setdefault(span.sentence, f"{name} {rec.get('id')} {key}")
    return texts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base", help="the commit to compare with")
    parser.add_argument(
        "--sentences", action="store_true", help="compare the split of the answers' sentences"
    )
    args = parser.parse_args()
    then = _module_at(args.base)
    if args.sentences:
        texts = _answer_sentences()

        def reading(kinds: types.ModuleType, text: str) -> tuple[object, ...]:
            return tuple(kinds.split_compound(kinds.reported(text)))

        kind = "distinct recorded answer sentences split differently"
    else:
        texts, reading = _claim_texts(), _reading
        kind = "distinct recorded claim texts read differently"
    changed = 0
    for text, where in texts.items():
        before, after = reading(then, text), reading(now, text)
        if before != after:
            changed += 1
            print(f"{where}: {before} -> {after}\n    {text}")
    print(f"{changed} of {len(texts)} {kind}")


if __name__ == "__main__":
    main()
