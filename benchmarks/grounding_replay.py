"""Replay the relevance check on recorded quick-path answers (no model call).

For every project answer of a grounding records file with a supported claim, rebuilds its
claims and the sections their evidence is in, undoes the recorded relevance verdicts, runs
:func:`disputatio.validators.relevance.drop_off_question` and
:func:`disputatio.validators.repeats.restated` as the code now stands (synonyms judged in the
embedding model's space, as the quick path does) and prints the answers whose outcome it
changes and the claims it sets aside. Used to check a relevance rule against the answers of an
earlier run before a new run (docs/grounding.md).

    .venv/bin/python benchmarks/grounding_replay.py docs/grounding/records_run6.jsonl \\
        docs/grounding/records_heldout_run6.jsonl

``--sets`` replays every question set's latest records on its own corpus
(``disputatio/data/grounding/sets.json``); ``--json OUT`` writes one row per answer (claims
kept, refused, parts right in the kept claims' text), so two commits can be compared row by
row (``PYTHONPATH=<worktree of the commit>``; a tree from before
:mod:`disputatio.validators.repeats` replays the relevance check alone).
"""

from __future__ import annotations

import argparse
import inspect
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from grounding import part_found

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "disputatio" / "data" / "grounding"
RECORDS = ROOT / "docs" / "grounding"
SET_ASIDE = "supported, but"
#: Each question set's latest records (the quick path's answers) in docs/grounding/.
LATEST = {
    "questions.jsonl": "records_run10.jsonl",
    "questions_heldout.jsonl": "records_heldout_run10.jsonl",
    **{f"questions_heldout{n}.jsonl": f"records_heldout{n}_run10.jsonl" for n in (2, 3, 4, 5)},
    **{
        f"questions_heldout{n}.jsonl": f"records_heldout{n}_run{run}.jsonl"
        for n, run in zip(range(6, 20), (11, 12, 13, 15, 16, 17, *range(19, 27)), strict=True)
    },
    "questions_heldout20.jsonl": "records_heldout20_run31.jsonl",
    "questions_heldout21.jsonl": "records_heldout21_run33.jsonl",
    "questions_heldout22.jsonl": "records_heldout22_run34.jsonl",
    "questions_heldout23.jsonl": "records_heldout23_run35.jsonl",
    "questions_heldout24.jsonl": "records_heldout24_run36.jsonl",
    "questions_heldout25.jsonl": "records_heldout25_run37.jsonl",
    "questions_heldout26.jsonl": "records_heldout26_run38.jsonl",
    "questions_heldout27.jsonl": "records_heldout27_run39.jsonl",
    "questions_heldout28.jsonl": "records_heldout28_run40.jsonl",
    "questions_heldout29.jsonl": "records_heldout29_run41.jsonl",
    "questions_heldout30.jsonl": "records_heldout30_run42.jsonl",
    "questions_heldout31.jsonl": "records_heldout31_run43.jsonl",
    "questions_heldout32.jsonl": "records_heldout32_run44.jsonl",
    "questions_heldout33.jsonl": "records_heldout33_run45.jsonl",
    "questions_heldout34.jsonl": "records_heldout34_run46.jsonl",
    "questions_heldout35.jsonl": "records_heldout35_run47.jsonl",
    "questions_heldout36.jsonl": "records_heldout36_run48.jsonl",
    "questions_heldout37.jsonl": "records_heldout37_run49.jsonl",
    "questions_heldout38.jsonl": "records_heldout38_run50.jsonl",
    "questions_heldout39.jsonl": "records_heldout39_run51.jsonl",
    "questions_heldout40.jsonl": "records_heldout40_run52.jsonl",
    "questions_heldout41.jsonl": "records_heldout41_run53.jsonl",
    "questions_heldout42.jsonl": "records_heldout42_run54.jsonl",
    "questions_heldout43.jsonl": "records_heldout43_run55.jsonl",
    "questions_heldout44.jsonl": "records_heldout44_run56.jsonl",
    "questions_heldout45.jsonl": "records_heldout45_run57.jsonl",
    "questions_heldout46.jsonl": "records_heldout46_run58.jsonl",
    "questions_heldout47.jsonl": "records_heldout47_run59.jsonl",
    "questions_heldout48.jsonl": "records_heldout48_run60.jsonl",
    "questions_heldout49.jsonl": "records_heldout49_run61.jsonl",
}


def _jobs(args: argparse.Namespace) -> list[tuple[Path, Path]]:
    """(records, corpus) pairs to replay."""
    if not args.sets:
        return [(path, args.corpus) for path in args.records]
    sets = json.loads((DATA / "sets.json").read_text())
    # a set with no run yet has no records to replay
    return [(RECORDS / LATEST[q], DATA / corpus) for q, corpus in sets.items() if q in LATEST]


def _read(windows: Any) -> dict[str, Any]:
    """What ``drop_off_question`` reads of the windows, where the tree replayed reads it.

    The rows read with their headers (``read``), the sentence around a clause (``around``),
    the text under a heading (``under``), the paragraph (``block``) and the whole section
    (``section``), as the quick path passes them (``claims._drop_off_question``).
    """
    found = {k: getattr(windows, m) for k, m in _WINDOW_READERS if hasattr(windows, m)}
    try:
        from disputatio.validators.siblings import paragraph
    except ImportError:  # a tree from before the rule (PYTHONPATH=<worktree>)
        return found
    from disputatio.validators.relevance import drop_off_question

    texts = windows.texts
    found["block"] = lambda e: paragraph(texts.get(e.section_id, ""), e.start, e.end)
    if "section" in inspect.signature(drop_off_question).parameters:  # since session 70
        found["section"] = lambda e: texts.get(e.section_id, "")
    return found


#: ``drop_off_question``'s keyword and the ``Windows`` method that gives it.
_WINDOW_READERS = (("read", "reading"), ("around", "around"), ("under", "under"))


def replay(rec: dict[str, Any], q: dict[str, Any], funnel: Any, similar: Any) -> dict[str, Any]:
    """The answer's claims checked again for relevance; its row for ``--json``."""
    from disputatio.settings import get_settings
    from disputatio.state.claims import Claim
    from disputatio.validators.relevance import drop_off_question
    from disputatio.validators.windows import Windows

    restated: Callable[[list[Any]], int] | None
    try:
        from disputatio.validators.repeats import restated
    except ImportError:  # a tree from before the rule (PYTHONPATH=<worktree>)
        restated = None

    claims = [Claim.model_validate(c) for c in rec["claims_detail"]]
    ids = {e.section_id for c in claims for e in [c.evidence, *c.more_evidence] if e}
    off = 0
    if ids and any(c.verdict == "supported" for c in claims):
        shown = funnel.backend.sections(sorted(ids))
        windows = Windows({i: s.model_dump() for i, s in shown.items()})
        for c in claims:
            if c.reason.startswith(SET_ASIDE):
                c.dropped, c.reason = False, "(set aside when recorded)"
        words = get_settings().grounding.on_question_words  # as the quick path checks
        off = drop_off_question(
            q["question"], claims, windows.titles, similar=similar, words=words, **_read(windows)
        )
        off += restated(claims) if restated is not None else 0
    kept = [c for c in claims if c.factual and c.verdict == "supported" and not c.dropped]
    refused = not kept if ids else bool(rec["refused"])
    text = " ".join(c.text for c in kept)
    answerable = [p for p in q["parts"] if p.get("answer")]
    aside = ("supported, but", "another claim")
    return {
        "id": rec["id"],
        "kind": q["kind"],
        "refused": refused,
        "recorded_refused": bool(rec["refused"]),
        "parts_right": 0 if refused else sum(part_found(p, text) for p in answerable),
        "kept": [c.text for c in kept],
        "set_aside": [(c.text, c.reason) for c in claims if off and c.reason.startswith(aside)],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("records", type=Path, nargs="*")
    parser.add_argument(
        "--corpus", type=Path, default=DATA / "corpus", help="the records' corpus (corpus_lab)"
    )
    parser.add_argument("--sets", action="store_true", help="every set's latest records")
    parser.add_argument("--json", type=Path, help="write one row per answer here")
    args = parser.parse_args()

    from disputatio.retrievers.memory import InMemoryFunnel
    from disputatio.validators.support import cosine

    questions = {
        q["id"]: q
        for path in sorted(DATA.glob("questions*.jsonl"))
        for q in map(json.loads, path.read_text().splitlines())
    }
    rows = []
    for path, corpus in _jobs(args):
        funnel = InMemoryFunnel.from_paths([corpus])

        def similar(a: str, b: str, funnel: Any = funnel) -> float:
            return float(cosine(*funnel.embeddings.embed_documents([a, b])))

        print("==", path)
        for line in path.read_text().splitlines():
            rec = json.loads(line)
            if rec["system"] != "project":
                continue
            row = replay(rec, questions[rec["id"]], funnel, similar)
            rows.append({"records": path.name, **row})
            if not row["set_aside"] and row["refused"] == row["recorded_refused"]:
                continue
            was = "refused" if rec["refused"] else "answered"
            after = "refused" if row["refused"] else f"{len(row['kept'])} claims kept"
            print(f"{rec['id']} {row['kind']} right {rec['parts_right']}/{rec['parts_answerable']}"
                  f" {was} -> {after} | {questions[rec['id']]['question']}")  # fmt: skip
            for text, why in row["set_aside"]:
                print(f"    {text[:70]} | {why}")
    if args.json:
        args.json.write_text("".join(json.dumps(r) + "\n" for r in rows))


if __name__ == "__main__":
    main()
