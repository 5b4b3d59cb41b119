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


@pytest.mark.parametrize(
    ("number", "prefix", "corpus"),
    [
        (33, "ah", "corpus_coop"),
        (34, "ai", "corpus_dance"),
        (35, "aj", "corpus_radio"),
        (36, "ak", "corpus_maker"),
        (37, "al", "corpus_choir"),
        (38, "am", "corpus_cinema"),
        (39, "an", "corpus_beekeeping"),
        (40, "ao", "corpus_astronomy"),
        (41, "ap", "corpus_chess"),
        (42, "aq", "corpus_photo"),
        (43, "ar", "corpus_railway"),
        (44, "as", "corpus_angling"),
        (45, "at", "corpus_bellringing"),
        (46, "au", "corpus_tennis"),
        (47, "av", "corpus_diving"),
        (48, "aw", "corpus_archery"),
        (49, "ax", "corpus_dogtraining"),
    ],
)
def test_a_late_heldout_set_has_its_counts_and_its_own_corpus(
    number: int, prefix: str, corpus: str
) -> None:
    """Sets 33 to 49: the shape the README gives for each, in the style of set 32."""
    name = f"questions_heldout{number}.jsonl"
    assert CORPUS[name] == corpus
    questions = [json.loads(x) for x in (DATA / name).read_text().splitlines() if x.strip()]
    assert [q["id"] for q in questions] == [f"{prefix}{i:03d}" for i in range(1, 45)]
    assert {q["split"] for q in questions} == {f"heldout{number}"}
    kinds = [q["kind"] for q in questions]
    counts = [kinds.count(k) for k in ("answerable", "unanswerable", "multipart")]
    assert counts == [20, 14, 10]
    # Interleaved: no kind runs for more than three questions in a row.
    assert all(len(set(kinds[i : i + 4])) > 1 for i in range(len(kinds) - 3))
    parts = [p for q in questions for p in q["parts"]]
    answered = [p for p in parts if p["answer"] is not None]
    assert (len(parts), len(answered)) == (54, 35)
    for q in questions:
        if q["kind"] == "answerable":
            assert len(q["parts"]) == 1 and q["parts"][0]["answer"] is not None, q["id"]
        elif q["kind"] == "unanswerable":
            assert len(q["parts"]) == 1, q["id"]
        else:
            assert len(q["parts"]) == 2, q["id"]
        for p in q["parts"]:
            if p["answer"] is None:
                assert (p["aliases"], p["evidence"], p["document"]) == ([], [], None), q["id"]
    unanswerable = [q for q in questions if q["kind"] == "unanswerable"]
    assert all(q["parts"][0]["answer"] is None for q in unanswerable)
    half_null = [
        q
        for q in questions
        if q["kind"] == "multipart" and any(p["answer"] is None for p in q["parts"])
    ]
    assert len(half_null) == 5
    files = sorted(p.name for p in (DATA / corpus).iterdir())
    assert len(files) == 6
    assert sorted({p["document"] for p in answered}) == files
