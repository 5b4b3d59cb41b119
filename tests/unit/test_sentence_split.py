"""The sentence splitter keeps a genus's initial in markup and a quoted question in its sentence."""

from __future__ import annotations

from disputatio.validators.claims import check_answer
from disputatio.validators.sentences import split_sentences

Q_FEVER = (
    "**PCR** on blood or serum can detect *C. burnetii* DNA early in acute illness. "
    "Culture is hazardous and rarely attempted."
)


def test_an_initial_in_markup_does_not_end_a_sentence() -> None:
    assert [s.sentence for s in split_sentences(Q_FEVER)] == [
        "**PCR** on blood or serum can detect *C. burnetii* DNA early in acute illness.",
        "Culture is hazardous and rarely attempted.",
    ]


def test_a_claim_across_the_initial_is_checked_whole() -> None:
    """Cut at "*C.", the claim's first half matched a sentence about another disease (demo)."""
    brucellosis = {"text": "Blood culture is the reference method for brucellosis serum."}
    claim = "Culture on blood or serum can detect *C. burnetii* DNA early [b]."
    report = check_answer(claim, {"b": brucellosis, "q": {"text": Q_FEVER}})
    checked = [c for c in report.claims if c.citations]
    assert [c.text.count("burnetii") for c in checked] == [1]  # one claim, not two halves
    assert checked[0].verdict != "supported"


def test_a_quoted_question_goes_on_in_lower_case() -> None:
    text = 'The question "How often are drills held?" is answered in the section. Next one.'
    assert [s.sentence for s in split_sentences(text)] == [
        'The question "How often are drills held?" is answered in the section.',
        "Next one.",
    ]


def test_a_sentence_may_open_in_lower_case_after_a_full_stop() -> None:
    text = "Fusion uses reciprocal rank fusion. pgvector is available on managed services."
    assert len(split_sentences(text)) == 2
