"""An answer quoting the question back is read without the quotation (ah013, held-out set 33)."""

from __future__ import annotations

from disputatio.validators.claims import check_answer
from disputatio.validators.echoes import unquote_question
from disputatio.validators.support import LexicalSupport

QUESTION = (
    "I'm a Member Tenant and we're moving away in the summer. Do I get my 1 pound share back "
    "when I leave?"
)
DRAFT = (
    f'The answer to the question "{QUESTION} " is no. According to the sections, a Member '
    "Tenant's share is cancelled, not repaid, when the Member Tenant leaves."
)
SHARES = "A Member Tenant's share is cancelled, not repaid, when the Member Tenant leaves."


def test_the_quoted_question_is_taken_out_and_the_verdict_kept() -> None:
    out = unquote_question(DRAFT, QUESTION)
    assert QUESTION not in out and "Do I get" not in out
    assert out.startswith("No. According to the sections")


def test_a_quoted_sentence_of_the_documents_stays() -> None:
    draft = f'The section states: "{SHARES}"'
    assert unquote_question(draft, QUESTION) == draft
    # a quoted question of other words is not the asker's
    other = 'The question "Can I keep a dog in my flat?" is not answered.'
    assert unquote_question(other, QUESTION) == other


def test_the_answer_shows_no_piece_of_the_question() -> None:
    sections = {"rules": {"text": SHARES, "title": "Shares"}}
    report = check_answer(DRAFT, sections, checker=LexicalSupport(), question=QUESTION)
    assert "Do I get my 1 pound share back" not in report.answer
    assert "I'm a Member Tenant and" not in report.answer
    texts = [c.text for c in report.claims]
    assert not any("I'm a Member Tenant" in t for t in texts)
    assert report.answer.startswith("No.")
    assert any(c.verdict == "supported" and "cancelled" in c.text for c in report.claims)
    # without the question the quotation is read as the answerer wrote it
    raw = check_answer(DRAFT, sections, checker=LexicalSupport())
    assert any("I'm a Member Tenant" in c.text for c in raw.claims)


def test_a_bare_no_ends_its_sentence_and_a_numbers_no_does_not() -> None:
    """'No.' read as the abbreviation of a number joined the verdict to the claim after it."""
    from disputatio.validators.sentences import split_sentences

    said = [s.sentence for s in split_sentences("Is it free? No. It costs 5 GBP.")]
    assert said == ["Is it free?", "No.", "It costs 5 GBP."]
    assert len(split_sentences("Take bus No. 14 to the end.")) == 1
