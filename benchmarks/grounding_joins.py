"""Which kept supported claims stand on a window of two joined sentences, and in what answers.

Reads the latest project records of every grounding question set (``docs/grounding/``) and
counts the kept supported claims whose evidence spans more than one sentence (a join of two
sentences, or of a heading and its sentence), by whether the answer was right or answered a
near miss; ``-v`` lists them. With ``--anaphora``, it lists instead the distinct supported
claim/sentence pairs of every records file that a narrower number guard would reject: a
sentence naming nothing may lend its number only to names of an *earlier* sentence of the
window (an anaphor points back), not of a later one. The reading is in docs/grounding.md
("Not done yet", joined windows):

    .venv/bin/python benchmarks/grounding_joins.py -v
    .venv/bin/python benchmarks/grounding_joins.py --anaphora
"""

from __future__ import annotations

import argparse
import collections
import json
import re
from pathlib import Path

RECORDS = Path(__file__).resolve().parents[1] / "docs" / "grounding"
_END_RE = re.compile(r"[.!?](?:\s|$)")


def latest_records() -> list[Path]:
    """The newest run's records of each question set (the first file, then held-out 1..n)."""
    newest: dict[str, tuple[int, Path]] = {}
    for path in RECORDS.glob("records_*run*.jsonl"):
        name = re.sub(r"_run\d+\.jsonl$", "", path.name)
        if name == "records" or name.startswith("records_heldout"):
            run = int(re.findall(r"run(\d+)", path.name)[-1])
            if name not in newest or run > newest[name][0]:
                newest[name] = (run, path)
    return [path for _, path in sorted(newest.values(), key=lambda item: item[1].name)]


def is_join(sentence: str) -> bool:
    """Whether an evidence window spans a line break or more than one sentence."""
    return "\n" in sentence or len(_END_RE.findall(sentence.strip())) > 1


def anaphora_rejects(claim: str, window: str) -> bool:
    """Whether the narrower guard rejects ``window`` for ``claim`` where today's does not."""
    from disputatio.validators import guards
    from disputatio.validators.names import names
    from disputatio.validators.sentences import split_sentences, stated_numbers

    spans = split_sentences(window)
    if len(spans) < 2 or guards._unbound_numbers(claim, window):
        return False
    claim_names = names(claim)
    present = {n for n in claim_names if n in window.casefold()}

    def lends(i: int) -> bool:
        if not guards._binds(spans[i].sentence, present, claim_names):
            return False
        held = {n for n in present if n in spans[i].sentence.casefold()}
        before = " ".join(s.sentence for s in spans[:i]).casefold()
        return bool(held) or not present or all(n in before for n in present)

    for number, _ in stated_numbers(claim):
        holders = [
            i for i, s in enumerate(spans) if number in {n for n, _ in stated_numbers(s.sentence)}
        ]
        if holders and not any(lends(i) for i in holders):
            return True
    return False


def anaphora() -> None:
    """Print the recorded supported claims the narrower guard would reject."""
    seen: set[tuple[str, str]] = set()
    for path in sorted(RECORDS.glob("records*.jsonl")):
        for line in path.read_text().splitlines():
            rec = json.loads(line)
            if rec.get("system") != "project":
                continue
            for claim in rec.get("claims_detail", []):
                ev = claim.get("evidence")
                if claim.get("verdict") != "supported" or not ev:
                    continue
                key = (claim["text"], ev["sentence"])
                if key in seen:
                    continue
                seen.add(key)
                if anaphora_rejects(*key):
                    print(f"{path.name} {rec['id']} {rec['kind']}: {claim['text'][:80]!r}")
    print(f"{len(seen)} distinct supported claim/sentence pairs read")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-v", action="store_true", help="list the claims on joined windows")
    parser.add_argument("--anaphora", action="store_true", help="the narrower guard's rejects")
    args = parser.parse_args()
    if args.anaphora:
        anaphora()
        return
    counts: collections.Counter[tuple[str, str]] = collections.Counter()
    for path in latest_records():
        for line in path.read_text().splitlines():
            rec = json.loads(line)
            if rec["system"] != "project":
                continue
            right = (
                rec["kind"] != "unanswerable"
                and not rec["refused"]
                and rec["parts_right"] == rec["parts_answerable"]
            )
            kind = "right answer" if right else "near miss"
            if not right and rec["kind"] != "unanswerable":
                kind = "other"
            for claim in rec["claims_detail"]:
                ev = claim.get("evidence")
                if claim.get("verdict") != "supported" or claim.get("dropped") or not ev:
                    continue
                window = "join" if is_join(ev["sentence"]) else "one sentence"
                counts[(window, kind)] += 1
                if args.v and window == "join":
                    text = " / ".join(ev["sentence"].split("\n"))
                    print(
                        f"{path.name} {rec['id']} {kind}: {claim['text'][:80]!r} <= {text[:140]!r}"
                    )
    for (window, kind), n in sorted(counts.items()):
        print(f"{window:12s} {kind:12s} {n}")


if __name__ == "__main__":
    main()
