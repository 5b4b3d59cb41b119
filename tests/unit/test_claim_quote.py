"""``quote_refused``: the sentence a judge refused is shown in the claim's place (z015, set 13).

A scripted judge stands in for the model; each test checks what it was asked. Only a window
the scores call supported and the judge vetoes is quoted.
"""

from __future__ import annotations

from disputatio.testing import FakeEmbeddings
from disputatio.validators.claims import NOT_FOUND_ANSWER, check_answer
from disputatio.validators.support import JudgedSupport

SECTIONS = {
    "lib": {
        "text": "Readers need a free reader's ticket. A reader's ticket is valid for three "
        "years. Up to six items can be ordered.",
        "title": "Research Library and Archive",
    },
    "fees": {
        "text": "| Item | Fee |\n|---|---|\n| Scan of an archive item | £8 |\n",
        "title": "Research Library and Archive fees",
    },
}
#: z015's draft: right, but it adds the section's name to its sentence.
FRAMED = "The reader's ticket for the Research Library and Archive is valid for three years."


def _judge(p_yes: float, *, alike: bool = False) -> tuple[JudgedSupport, list[tuple[str, str]]]:
    """A judged checker whose judge always answers ``p_yes``, and the pairs it was asked."""
    asked: list[tuple[str, str]] = []

    def judge(claim: str, window: str, context: str) -> float:
        asked.append((claim, window))
        return p_yes

    def same(texts: list[str]) -> list[list[float]]:  # cosine 1: the words decide
        return [[1.0, 0.0] for _ in texts]

    return JudgedSupport(same if alike else FakeEmbeddings().embed_documents, judge), asked


def test_the_refused_sentence_is_shown_instead_of_the_claim() -> None:
    no, asked = _judge(0.2)
    report = check_answer(FRAMED, SECTIONS, checker=no, quote_refused=True)
    assert asked == [(FRAMED, "A reader's ticket is valid for three years.")]
    quote, claim = report.claims
    assert (quote.verdict, quote.dropped, quote.attributed) == ("supported", False, True)
    assert quote.text == "A reader's ticket is valid for three years."
    assert quote.evidence is not None and quote.evidence.section_id == "lib"
    start, end = quote.evidence.start, quote.evidence.end
    assert SECTIONS["lib"]["text"][start:end] == quote.text  # the section's own words
    assert claim.dropped and "its sentence is shown instead" in claim.reason
    assert report.answer == "A reader's ticket is valid for three years [lib]."


def test_off_the_refused_claim_is_dropped_and_says_the_judge_refused_it() -> None:
    no, _ = _judge(0.2)
    report = check_answer(FRAMED, SECTIONS, checker=no)
    assert [c.verdict for c in report.claims if not c.dropped] == ["not_found"]
    assert report.answer == NOT_FOUND_ANSWER
    # a veto is told apart from a claim no shown sentence comes near
    assert "the judge finds the sentence does not state it (P=0.20)" in report.claims[0].reason
    far = check_answer("The café serves soup from noon.", SECTIONS, checker=no).claims[0]
    assert far.reason.startswith("cites nothing and no shown sentence supports it")
    assert "the judge" not in far.reason


def test_a_claim_the_judge_accepts_is_not_quoted() -> None:
    yes, asked = _judge(0.9)
    report = check_answer(FRAMED, SECTIONS, checker=yes, quote_refused=True)
    (claim,) = report.claims
    assert asked and claim.verdict == "supported" and claim.text == FRAMED


def test_a_claim_no_window_comes_near_is_not_quoted() -> None:
    no, asked = _judge(0.2)
    report = check_answer(
        "The café serves soup from noon.", SECTIONS, checker=no, quote_refused=True
    )
    assert not asked  # nothing reached the judge, so nothing was refused
    assert report.answer == NOT_FOUND_ANSWER


def test_a_table_row_is_not_quoted() -> None:
    no, asked = _judge(0.2, alike=True)
    report = check_answer(
        "A scan of an archive item costs £8.",
        SECTIONS,
        checker=no,
        quote_refused=True,
    )
    # refused on the row (read with its headers), which alone is no sentence to show
    assert [w for _, w in asked] == ["| Item: Scan of an archive item | Fee: £8 |"]
    assert report.answer == NOT_FOUND_ANSWER
