"""Scans of the recorded grounding answers for what a checker rule would change (no model).

Each scan reads every records file of ``docs/grounding/`` (or every question file) and prints
the claims or questions a rule of ``disputatio.validators`` reads: the measurements of sessions
57 and 58 in docs/grounding.md ("Set 24's findings, after run 36", "Twenty-fifth held-out set",
"Set 25's findings, after run 37").

    .venv/bin/python benchmarks/grounding_scans.py party      # questions giving a group size
    .venv/bin/python benchmarks/grounding_scans.py columns    # row claims set aside by the column
    .venv/bin/python benchmarks/grounding_scans.py yes-no-age # age set-asides in yes/no questions
    .venv/bin/python benchmarks/grounding_scans.py reported   # claim texts read past a lead
    .venv/bin/python benchmarks/grounding_scans.py pronoun    # pieces leaning by a pronoun subject
"""

from __future__ import annotations

import argparse
import glob
import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from grounding_replay import DATA, LATEST, RECORDS


def _questions() -> dict[tuple[str, str], dict[str, Any]]:
    """Every question, by (question file, id)."""
    out = {}
    for path in sorted(DATA.glob("questions*.jsonl")):
        for line in path.read_text().splitlines():
            q = json.loads(line)
            out[(path.name, q["id"])] = q
    return out


def _latest() -> Iterator[tuple[str, dict[str, Any]]]:
    """(question file, project record) of every set's latest records."""
    for qf, rec in LATEST.items():
        for line in (RECORDS / rec).read_text().splitlines():
            r = json.loads(line)
            if r.get("system") == "project":
                yield qf, r


def party() -> None:
    """Questions giving a group size, and their recorded supported claims' number contrast."""
    from disputatio.validators.measures import number_contrast, party_size

    qs = _questions()
    for (qf, qid), q in qs.items():
        if party_size(q["question"]) is not None:
            print("Q", qf, qid, party_size(q["question"]), q["question"][:100])
    for qf, r in _latest():
        q = qs[(qf, r["id"])]
        if party_size(q["question"]) is None:
            continue
        for c in r["claims_detail"]:
            ev = (c.get("evidence") or {}).get("sentence")
            if c["verdict"] == "supported" and ev:
                print(qf, r["id"], number_contrast(q["question"], ev), "|", c["text"][:80])


def columns() -> None:
    """Kept supported claims on a table row that the asked column would set aside."""
    from disputatio.ingest.extract import extract
    from disputatio.validators.bands import asked_column
    from disputatio.validators.sentences import split_sentences
    from disputatio.validators.tables import readings

    sets = json.loads((DATA / "sets.json").read_text())
    qs = _questions()
    rows: dict[str, dict[str, str]] = {}
    seen = changed = 0
    for qf, r in _latest():
        if qf not in rows:  # each row of the set's documents, read with its headers
            rows[qf] = {}
            for path in sorted((DATA / sets[qf]).iterdir()):
                text = extract(path).markdown
                for (start, end), read in readings(split_sentences(text)).items():
                    rows[qf][text[start:end].strip()] = read
        for c in r["claims_detail"]:
            ev = (c.get("evidence") or {}).get("sentence") or ""
            if c["verdict"] != "supported" or c["dropped"] or "|" not in ev:
                continue
            seen += 1
            reading = "\n".join(rows[qf].get(line.strip(), line) for line in ev.splitlines())
            why = asked_column(qs[(qf, r["id"])]["question"], c["text"], reading)
            if why:
                changed += 1
                print(qf, r["id"], c["text"][:80], "|", why)
    print(f"{changed} of {seen} kept row claims set aside")


def yes_no_age() -> None:
    """Claims set aside by an asker's age in a yes/no question, in every records file."""
    from disputatio.validators.asked import is_yes_no_question
    from disputatio.validators.ranges import asker_age

    by_id: dict[str, list[dict[str, Any]]] = {}
    for q in _questions().values():
        by_id.setdefault(q["id"], []).append(q)
    for name in sorted(glob.glob(str(RECORDS / "records_*.jsonl"))):
        for line in Path(name).read_text().splitlines():
            r = json.loads(line)
            for c in r.get("claims_detail") or [] if r.get("system") == "project" else []:
                if not (c.get("dropped") and "the question asks about" in c.get("reason", "")):
                    continue
                for q in by_id.get(r["id"], []):
                    sentences = re.split(r"(?<=[.?!])\s+", q["question"])
                    if any(map(is_yes_no_question, sentences)) and asker_age(q["question"]):
                        print(Path(name).name, r["id"], c["text"][:80], "|", c["reason"][:80])


def reported() -> None:
    """Distinct recorded claim texts, each with what :func:`reported` reads it as."""
    from disputatio.validators.claim_kinds import reported as read

    texts = {
        c["text"]
        for name in sorted(glob.glob(str(RECORDS / "records_*.jsonl")))
        for line in Path(name).read_text().splitlines()
        for c in json.loads(line).get("claims_detail") or []
    }
    for text in sorted(texts):
        if read(text) != text:
            print(text[:100], "->", read(text)[:100])
    print(f"{len(texts)} distinct claim texts")


#: What pointed back before session 58 (no "he", "his", "she", "her").
_POINTED_BEFORE = re.compile(r"\b(?:it|its|they|them|their|there|this|these|those|here)\b", re.I)


def pronoun() -> None:
    """Recorded claims that lean on the piece before them now and did not in session 57.

    Since session 58 a piece with a pronoun for its subject ("It includes … A4 …") leans though
    it names something, and "he", "his", "she", "her" point back. Each claim is read as not
    continuing its sentence (the records keep no split), after the last claim that named
    something.
    """
    from disputatio.validators.names import name_form, names
    from disputatio.validators.sentences import words
    from disputatio.validators.subjects import leans_on, named_subjects

    found: set[str] = set()
    for _, r in _latest():
        before = ""
        for c in r["claims_detail"]:
            text = c["text"]
            leaned = (
                bool(_POINTED_BEFORE.search(text))
                and not names(text)
                and not {name_form(w) for w in words(text)} & names(before)
            )
            if before and leans_on(text, before, continues=False) and not leaned:
                found.add(r["id"])
                print(r["id"], c["verdict"], "|", before[:60], "|", text[:90])
            before = text if named_subjects(text) else before
    print(f"{len(found)} answers: {','.join(sorted(found))}")


def main() -> None:
    scans = {
        "party": party,
        "columns": columns,
        "yes-no-age": yes_no_age,
        "reported": reported,
        "pronoun": pronoun,
    }
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scan", choices=sorted(scans))
    scans[parser.parse_args().scan]()


if __name__ == "__main__":
    main()
