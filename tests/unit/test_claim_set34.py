"""Held-out set 34's wrong answers shown as supported, and its right answers lost.

Each rule is tested alone and through :func:`check_answer` with a judge that says yes to
everything, so that only the rule stands between the claim and a "supported".
"""

from __future__ import annotations

import pytest
from fake_judges import RecordingJudge

from disputatio.state.claims import Claim, Evidence
from disputatio.testing import FakeEmbeddings
from disputatio.validators.asked import unanswered
from disputatio.validators.claims import check_answer
from disputatio.validators.dated import other_date_label
from disputatio.validators.listed import other_listed_amount
from disputatio.validators.relevance import drop_off_question, shares_topic
from disputatio.validators.restated import number_missing
from disputatio.validators.subjects import lent_subjects
from disputatio.validators.support import JudgedSupport

FEES = (
    "The exam fee is 42.00 GBP for Primary and Grade 1, 48.00 GBP for Grades 2 and 3, 56.00 GBP"
    " for Grades 4 and 5, and 64.00 GBP for Grade 6 and above."
)
TERM = (
    "Spring term: Monday 5 January 2026 to Saturday 4 April 2026, with half-term from Monday 16"
    " February to Sunday 22 February 2026."
)
SCHOOL = (
    "Summer School runs at Weavers Yard from Monday 27 July to Friday 31 July 2026, from 10:00 am"
    " to 3:00 pm each day, for ages 7 to 14."
)


def _yes_checker() -> JudgedSupport:
    return JudgedSupport(FakeEmbeddings().embed_documents, RecordingJudge(1.0))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("claim", "wrong"),
    [
        ("The exam fee for Grade 3 Tap is 56.00 GBP.", True),  # ai005: 48.00 GBP's grade
        ("The exam fee for Grade 6 is 56.00 GBP.", True),
        ("The exam fee for Grade 3 Tap is 48.00 GBP.", False),
        ("The exam fee for Grade 5 is 56.00 GBP.", False),
        ("The exam fee is 56.00 GBP.", False),  # no label: the number guard's case, not this
    ],
)
def test_a_listed_amount_stays_with_its_labels(claim: str, wrong: bool) -> None:
    assert bool(other_listed_amount(claim, FEES)) is wrong


def test_a_list_whose_labels_stand_apart_from_their_amounts_is_not_read() -> None:
    """Which amount "for Grade 2" belongs to is not known: nothing is refused."""
    listed = "For Grade 1, 42 GBP; for Grade 2, 48 GBP."
    assert other_listed_amount("The fee for Grade 2 is 42 GBP.", listed) == ""


@pytest.mark.parametrize(
    ("claim", "wrong"),
    [
        ("The spring half-term closure begins on Monday 5 January 2026.", True),  # ai041
        ("Spring half-term ends on 4 April.", True),
        ("The spring half-term begins on Monday 16 February 2026.", False),
        ("Half-term ends on 22 February.", False),  # a span's end has its start's label
        ("The spring term starts on Monday 5 January 2026.", False),
        ("The spring term ends on 4 April.", False),
    ],
)
def test_a_date_keeps_the_words_said_before_it(claim: str, wrong: bool) -> None:
    assert bool(other_date_label(claim, TERM)) is wrong


def test_a_dated_claim_is_refused_on_a_clause_of_the_sentence_too() -> None:
    """The clause "Monday 5 January 2026 to Saturday 4 April 2026" is read in its sentence."""
    sections = {"terms": {"text": TERM, "title": "Term dates"}}
    wrong = check_answer(
        "The spring half-term closure begins on Monday 5 January 2026 [terms].",
        sections,
        checker=_yes_checker(),
    )
    assert wrong.claims[0].verdict != "supported"
    right = check_answer(
        "The spring half-term begins on Monday 16 February 2026 [terms].",
        sections,
        checker=_yes_checker(),
    )
    assert right.claims[0].verdict == "supported"


def test_a_clock_time_is_no_count_of_days() -> None:
    """ai026: "three days" is not the 3 of "3:00 pm"."""
    claim = "The three days of Summer School cost 135.00 GBP."
    window = f"{SCHOOL} Summer School costs 135.00 GBP for the whole week."
    assert "clock time" in number_missing(claim, window)
    assert number_missing("Summer School costs 135.00 GBP for the whole week.", window) == ""
    assert number_missing("It runs for 3 days.", "It runs 3 days a week, from 10:00 to 3:00.") == ""


def test_a_day_is_no_subject_a_piece_leans_on() -> None:
    """ai029: "…, and the grandmother needs to give …" is not about Thursday."""
    before = "The office should be informed by the end of the class on Thursday"
    piece = "the grandmother needs to give the teacher the collection password"
    assert lent_subjects(piece, before, continues=True) == []
    assert lent_subjects("members pay 15 GBP per hour", "The Heron Room seats 4", continues=True)


def test_another_day_is_no_synonym_of_the_asked_day() -> None:
    """ai036: a sentence of Monday to Friday shares no topic with a question about a Saturday."""

    def similar(a: str, b: str) -> float:  # days are near in an embedding space
        return 0.9 if {a, b} <= {"saturday", "friday", "monday"} else 0.0

    assert not shares_topic("a rehearsal on a Saturday", "from Monday to Friday", similar)
    assert shares_topic("a rehearsal on a Saturday", "open on Saturday", similar)


def _claim(text: str) -> Claim:
    evidence = Evidence(section_id="s", sentence=text, start=0, end=len(text), score=1.0)
    return Claim(text=text, citations=["s"], verdict="supported", evidence=evidence)


def test_a_sentence_sharing_two_of_the_question_names_answers_a_yes_no_question() -> None:
    """ai024: "Drop-In Dancers cannot dance in the show" shares more than a name."""
    question = (
        "I'm 35 and just come to the open classes as a Drop-In Dancer. Can I be in the Summer Show?"
    )
    answer = _claim("Drop-In Dancers cannot dance in the show.")
    tickets = _claim("Drop-In Dancers are welcome to buy tickets.")
    assert drop_off_question(question, [answer, tickets], {}) == 1
    assert not answer.dropped
    assert tickets.dropped and "name" in tickets.reason


def test_a_heading_year_is_no_year_of_a_sentence_dating_its_own() -> None:
    """ai025: "SCHOOL YEAR 2025 TO 2026" does not make the autumn term 2025's "2026"."""
    autumn = "Autumn term: Monday 8 September 2025 to Saturday 6 December 2025."
    heading = "SCHOOL YEAR 2025 TO 2026"
    claim = "The autumn term 2026 starts on Monday 8 September 2025."
    assert "2025" in number_missing(claim, autumn, heading)
    assert (
        number_missing("The autumn term starts on Monday 8 September 2025.", autumn, heading) == ""
    )


def test_who_is_asked_by_the_last_sentence_and_a_month_names_no_one() -> None:
    """ai031: "… Who is their chair at the moment?" is not answered by "elected each September"."""
    question = "I'd like to volunteer with the Friends of Haddleby Dance. Who is their chair?"
    elected = "The Friends of Haddleby Dance chair is elected each September."
    assert "who" in unanswered(question, [elected])
    assert unanswered(question, ["Their chair is Moira Penhallow."]) == ""


def test_a_date_is_labelled_by_the_words_nearest_it() -> None:
    """The last five content words before a date label it, in the sentence's order."""
    long = (
        "Autumn term: 8 September to 6 December, and the zebra yak wombat aardvark badger"
        " half-term from 20 October."
    )
    assert other_date_label("The half-term begins on 8 September.", long)
    assert other_date_label("The zebra term begins on 8 September.", long) == ""
