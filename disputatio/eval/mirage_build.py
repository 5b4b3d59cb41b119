"""Build ``disputatio/data/mirage/*.jsonl.gz`` from MIRAGE's raw test sets.

::

    python -m disputatio.eval.mirage_build /path/to/mirage/rawdata [--out DIR]

The raw folder is MIRAGE's ``rawdata/`` (Teddy-XiongGZ/MIRAGE). Each set is read exactly as
MIRAGE's ``rawdata/build.py`` reads it, so ids, question texts and answers are MIRAGE's:

==========  ==================================================  ============================
set         ids                                                 answer
==========  ==================================================  ============================
mmlu        ``<subject>-<row, 3 digits>`` (six subjects)        letter A-D (CSV column 6)
medqa       line number of the 4-option US test file, 4 digits  ``answer_idx`` (A-D)
medmcqa     the dev set's ``id``                                ``cop`` 1-4 → A-D
pubmedqa    the PMID (key of ``test_set.json``)                 ``final_decision``
bioasq      the BioASQ ``id`` (yes/no questions of batches      ``exact_answer`` (lowercased)
            11, 10, 9, 8, 7, in that order)
==========  ==================================================  ============================

MIRAGE writes the yes/no sets as options ``{"A": "yes", "B": "no"(, "C": "maybe")}`` with the
letter as answer; here they keep the harness's convention, the labels themselves
(``["yes", "no"(, "maybe")]``, answer ``"yes"``): the same mapping, A = yes, B = no,
C = maybe. One JSON object a line: ``{"id", "question", "options", "answer", "context",
"pmids"}``; ``context`` holds PubMedQA's ``CONTEXTS`` (the abstract without its conclusion)
and BioASQ's gold snippet texts (5,449), empty for the exam sets; ``pmids`` the PubMed ids
MIRAGE keeps (PubMedQA, BioASQ). MedMCQA's explanation (``exp``) is never copied.

MMLU rows are read with :mod:`csv` (MIRAGE uses pandas, which turns cells such as ``None`` or
``NA`` into NaN); the text of such cells is kept. Files are written deterministically (sorted
keys, gzip without a time stamp): the same raw folder always gives the same bytes.
"""

from __future__ import annotations

import argparse
import csv
import gzip
import io
import json
import shutil
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from disputatio.eval.mmlu import MMLU_MED_SUBJECTS

#: Where the built files go (the package's data folder).
DATA_DIR = Path(__file__).resolve().parents[1] / "data" / "mirage"
#: MIRAGE's six medical MMLU subjects (the ones ``mmlu_med`` reads).
MMLU_SUBJECTS = MMLU_MED_SUBJECTS
#: Questions per set, as MIRAGE counts them.
EXPECTED = {"mmlu": 1089, "medqa": 1273, "medmcqa": 4183, "pubmedqa": 500, "bioasq": 618}
#: Licence files of the raw folder → their name next to the built files.
LICENCES = {
    "medqa/LICENSE": "LICENSE.medqa",
    "medmcqa/LICENSE.md": "LICENSE.medmcqa",
    "pubmedqa/LICENSE": "LICENSE.pubmedqa",
}
LETTERS = ("A", "B", "C", "D")
Row = dict[str, Any]


def _row(
    qid: str,
    question: str,
    options: dict[str, str] | list[str],
    answer: str,
    context: Sequence[str] = (),
    pmids: Sequence[int] = (),
) -> Row:
    return {
        "id": qid,
        "question": question,
        "options": options,
        "answer": answer,
        "context": list(context),
        "pmids": list(pmids),
    }


def _json_lines(path: Path) -> list[Any]:
    with path.open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def mmlu_rows(raw: Path) -> list[Row]:
    """MMLU-Med: six subjects' test CSVs (no header: question, A, B, C, D, answer)."""
    rows = []
    for subject in MMLU_SUBJECTS:
        with (raw / "mmlu" / "data" / "test" / f"{subject}_test.csv").open(
            encoding="utf-8", newline=""
        ) as fh:
            for i, cells in enumerate(csv.reader(fh)):
                question, *options, answer = cells
                rows.append(
                    _row(
                        f"{subject}-{i:03d}",
                        question,
                        dict(zip(LETTERS, options, strict=True)),
                        answer,
                    )
                )
    return rows


def medqa_rows(raw: Path) -> list[Row]:
    """MedQA-US, 4 options: the test file's lines, ids their 4-digit line numbers."""
    path = raw / "medqa" / "data_clean" / "questions" / "US" / "4_options"
    items = _json_lines(path / "phrases_no_exclude_test.jsonl")
    return [
        _row(f"{i:04d}", item["question"], dict(item["options"]), item["answer_idx"])
        for i, item in enumerate(items)
    ]


def medmcqa_rows(raw: Path) -> list[Row]:
    """MedMCQA dev set: options ``opa``..``opd``, gold ``cop`` 1-4."""
    return [
        _row(
            item["id"],
            item["question"],
            {letter: item[f"op{letter.lower()}"] for letter in LETTERS},
            LETTERS[int(item["cop"]) - 1],
        )
        for item in _json_lines(raw / "medmcqa" / "data" / "dev.json")
    ]


def pubmedqa_rows(raw: Path) -> list[Row]:
    """PubMedQA*: the 500 expert-labelled test questions, keyed by PMID."""
    data = json.loads((raw / "pubmedqa" / "data" / "test_set.json").read_text(encoding="utf-8"))
    return [
        _row(
            pmid,
            item["QUESTION"],
            ["yes", "no", "maybe"],
            item["final_decision"],
            item.get("CONTEXTS") or [],
            [int(pmid)],
        )
        for pmid, item in data.items()
    ]


def bioasq_rows(raw: Path) -> list[Row]:
    """BioASQ-Y/N: yes/no questions of Task 11B, 10B, 9B, 8B, 7B (batches in order)."""
    items: list[dict[str, Any]] = []
    for task in (11, 10, 9, 8, 7):
        folder = raw / "bioasq" / f"Task{task}BGoldenEnriched"
        batches = len([f for f in folder.iterdir() if f.suffix == ".json"])
        for batch in range(1, batches + 1):
            data = json.loads((folder / f"{task}B{batch}_golden.json").read_text(encoding="utf-8"))
            items += [q for q in data["questions"] if q["type"] == "yesno"]
    rows: dict[str, Row] = {}  # as MIRAGE's dict: a repeated id keeps its place, last value
    for item in items:
        rows[item["id"]] = _row(
            item["id"],
            item["body"],
            ["yes", "no"],
            str(item["exact_answer"]).lower(),
            [s["text"] for s in item.get("snippets") or []],
            [int(url.rsplit("/", 1)[-1]) for url in item.get("documents") or []],
        )
    return list(rows.values())


READERS = {
    "mmlu": mmlu_rows,
    "medqa": medqa_rows,
    "medmcqa": medmcqa_rows,
    "pubmedqa": pubmedqa_rows,
    "bioasq": bioasq_rows,
}


def check(name: str, rows: Sequence[Row]) -> None:
    """Refuse a set whose count, ids or answers are not MIRAGE's.

    Raises:
        ValueError: Wrong count, a repeated id, or an answer that is not one of the options.
    """
    if len(rows) != EXPECTED[name]:
        raise ValueError(f"{name}: {len(rows)} questions, MIRAGE has {EXPECTED[name]}")
    if len({r["id"] for r in rows}) != len(rows):
        raise ValueError(f"{name}: repeated ids")
    for r in rows:
        if r["answer"] not in r["options"]:
            raise ValueError(f"{name} {r['id']}: answer {r['answer']!r} not among the options")


def write_gz(rows: Iterable[Row], path: Path) -> None:
    """Write JSON lines, gzip-compressed with no time stamp (same rows → same bytes)."""
    buffer = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buffer, compresslevel=9, mtime=0) as gz:
        for row in rows:
            gz.write((json.dumps(row, ensure_ascii=False, sort_keys=True) + "\n").encode("utf-8"))
    path.write_bytes(buffer.getvalue())


def build(raw: Path, out: Path = DATA_DIR) -> dict[str, int]:
    """Write ``<set>.jsonl.gz`` for every set and copy the licence files; return the counts.

    Raises:
        ValueError: If a set does not have MIRAGE's count (see :func:`check`).
        FileNotFoundError: If a raw file is missing.
    """
    out.mkdir(parents=True, exist_ok=True)
    counts = {}
    for name, read in READERS.items():
        rows = read(raw)
        check(name, rows)
        write_gz(rows, out / f"{name}.jsonl.gz")
        counts[name] = len(rows)
    for source, target in LICENCES.items():
        shutil.copyfile(raw / source, out / target)
    return counts


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: build into ``--out`` (default the package's data folder)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("raw", type=Path, help="MIRAGE's rawdata folder")
    parser.add_argument("--out", type=Path, default=DATA_DIR, help="output folder")
    args = parser.parse_args(argv)
    counts = build(args.raw, args.out)
    for name, n in counts.items():
        size = (args.out / f"{name}.jsonl.gz").stat().st_size
        print(f"{name}: {n} questions, {size / 1e6:.2f} MB")
    print(f"total: {sum(counts.values())} questions")
    return 0


if __name__ == "__main__":
    sys.exit(main())
