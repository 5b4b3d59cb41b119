"""The windows the judge reads after refusing a claim's best one (validators/looks.py)."""

from __future__ import annotations

from fake_judges import ReadingJudge

from disputatio.testing import FakeEmbeddings
from disputatio.validators.claims import check_answer
from disputatio.validators.looks import second_looks
from disputatio.validators.support import JudgedSupport

TENANCY = (
    "From the end of the first 12 months, at least 75% of the plot must be cultivated. "
    "Paths between plots must be kept clear."
)
#: ae029's claim said "for a year", which the checker now reads in the sentence's terms ("for 12
#: months"), so the whole sentence is its best window from the start; "for a while" is not.
CLAIM = "Once you've had your plot for a while, you must cultivate at least 75% of the plot."


def test_a_refused_clause_is_read_again_as_its_whole_sentence() -> None:
    """ae029 (held-out set 30): the clause dropped the sentence's "first 12 months"."""
    judge = ReadingJudge("12 months", in_window=True)
    checker = JudgedSupport(FakeEmbeddings().embed_documents, judge, grey=0.0)  # type: ignore[arg-type]
    report = check_answer(
        CLAIM[:-1] + " [t].", {"t": {"text": TENANCY, "title": "Tenancy"}}, checker=checker
    )
    (claim,) = [c for c in report.claims if c.factual]
    assert claim.verdict == "supported"
    assert claim.evidence is not None and "12 months" in claim.evidence.sentence
    (_, first, _), (_, then, _) = judge.asked[:2]
    assert "12 months" not in first and then.startswith("From the end of the first 12 months")


def test_a_whole_sentence_has_no_sentence_around_it() -> None:
    sentence = (0.7, "t", (0, 82, TENANCY[:82]))
    clause = (0.6, "t", (36, 82, TENANCY[36:82]))
    checker = JudgedSupport(FakeEmbeddings().embed_documents, lambda *_: 0.0, grey=0.5)  # type: ignore[arg-type]
    whole = {"t": {(0, 82)}}
    assert second_looks(sentence, [sentence, clause], checker, whole) == []
    assert second_looks(clause, [sentence, clause], checker, whole) == [sentence]
    # under the grey floor the sentence is not read
    low = (0.4, "t", (0, 82, TENANCY[:82]))
    assert second_looks(clause, [low, clause], checker, whole) == []
