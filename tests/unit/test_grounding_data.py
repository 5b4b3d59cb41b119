"""The shipped grounding question sets are well formed: ids, kinds, verbatim evidence."""

from __future__ import annotations

import html
import json
from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parents[2] / "disputatio" / "data" / "grounding"
#: Each question file's corpus: the data set's own manifest (benchmarks read it too).
CORPUS: dict[str, str] = json.loads((DATA / "sets.json").read_text())


def test_every_question_file_is_listed() -> None:
    assert sorted(p.name for p in DATA.glob("questions*.jsonl")) == sorted(CORPUS)


@pytest.mark.parametrize("name", sorted(CORPUS))
def test_questions_are_well_formed_and_their_evidence_is_verbatim(name: str) -> None:
    questions = [json.loads(x) for x in (DATA / name).read_text().splitlines() if x.strip()]
    ids = [q["id"] for q in questions]
    assert len(ids) == len(set(ids)), "duplicate ids"
    corpus = DATA / CORPUS[name]
    for q in questions:
        assert q["kind"] in ("answerable", "unanswerable", "multipart"), q["id"]
        parts = q.get("parts") or []
        if q["kind"] == "multipart":
            assert len(parts) >= 2, q["id"]
        for part in parts:
            if part.get("answer") is None:
                continue
            text = html.unescape((corpus / part["document"]).read_text())
            for sentence in part["evidence"]:
                assert sentence in text, (q["id"], sentence)
            names = [part["answer"], *part.get("aliases", [])]
            joined = " ".join(part["evidence"]).casefold()
            assert any(n.casefold() in joined for n in names), (q["id"], names)
