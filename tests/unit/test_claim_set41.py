"""Held-out set 41's findings (run 53): days of the week, kinds of members, who, non-members."""

from __future__ import annotations

from fake_judges import ReadingJudge, RecordingJudge

from disputatio.testing import FakeEmbeddings
from disputatio.validators.amounts import kind_mismatch
from disputatio.validators.asked import unanswered
from disputatio.validators.claims import check_answer
from disputatio.validators.days import day_contrast
from disputatio.validators.groups import group_contrast, unsaid_group
from disputatio.validators.guards import guard
from disputatio.validators.parts import claim_parts
from disputatio.validators.questions import question_parts
from disputatio.validators.ranges import given_numbers
from disputatio.validators.relevance import off_question
from disputatio.validators.support import JudgedSupport
from disputatio.validators.totals import computed, without_total

BUS = (
    "The last route 7 bus from the Fernside Park gates back to the town centre leaves at"
    " 10.15 pm from Monday to Friday."
)


def test_a_claim_for_weekdays_does_not_answer_a_saturday() -> None:
    """ap020: the weekday bus for "What time is the last bus back to town on a Saturday?"."""
    question = (
        "I go to Fernside on Saturdays for Junior Club with my son. What time is the last bus"
        " back to town on a Saturday?"
    )
    assert day_contrast(question, BUS) == ("Saturday", "Monday to Friday")
    assert "Saturday" in off_question(question, BUS, BUS)
    two = "When does the last bus leave on weekdays? And is there one on a Saturday?"
    assert off_question(two, BUS, BUS) == ""  # j013, set 25: the claim answers one part
    tuesday = question.replace("on a Saturday?", "on a Tuesday?")
    assert day_contrast(tuesday, BUS) is None  # Tuesday is in Monday to Friday
    assert day_contrast(question, "The last bus leaves at 10.15 pm every day.") is None
    assert day_contrast(question, "The last bus leaves at 10.15 pm.") is None  # no day said
    # a day named in passing before the asking sentence is not asked about
    passing = "I booked on Saturday. When does the last bus leave?"
    assert day_contrast(passing, BUS) is None


def test_junior_members_are_members() -> None:
    """ap017: prices for members and Junior Members for an asker who is not a member."""
    question = (
        "I'm not a member. How much would a board at the International Master's simultaneous"
        " display cost me?"
    )
    claim = "Boards cost 12.00 GBP for members and 6.00 GBP for Junior Members."
    assert group_contrast(question, claim) == "member"
    assert group_contrast(question, f"{claim} Others pay 15.00 GBP.") is None


def test_who_is_answered_by_a_name_its_sentence_holds() -> None:
    """ap010: "The Treasurer of the Kestlebury Chess Club is elected at …" names no one."""
    question = "Who is the club's Treasurer?"
    claim = "The Treasurer of the Kestlebury Chess Club is elected at the 2025 annual meeting."
    evidence = "Treasurer: elected at the 2025 annual general meeting"
    assert "who" in unanswered(question, [claim], [evidence])
    assert unanswered(question, [claim]) == ""  # without its evidence, the claim's own names
    named = "The Treasurer is Ruth Okafor."
    assert unanswered(question, [named], ["Treasurer: Ruth Okafor"]) == ""


def test_a_claim_about_non_members_needs_a_sentence_naming_them() -> None:
    """ap002: "Non-members pay 2.00 GBP …" on the sentence about each league player."""
    claim = "Non-members pay 2.00 GBP for every home match, which goes towards the room."
    sentence = "Each league player pays a match fee of 2.00 GBP for every home match."
    assert unsaid_group(claim, sentence) == "Non-members"
    assert "Non-members" in guard(claim, sentence)
    for said in ["Non-members pay 2.00 GBP a match.", "Players who are not members pay 2.00 GBP."]:
        assert unsaid_group(claim, said) is None, said


def test_a_team_named_by_a_letter_keeps_its_own_sentence() -> None:
    """ap026: the A and B teams' 6 boards, in the window before "The C team plays in …"."""
    window = (
        "The A team plays in Division 1 and the B team in Division 2, and both play on 6 boards."
        " The C team plays in Division 3, which is for players rated under 1500."
    )
    assert "different sentences" in guard("The C team plays on 6 boards.", window)
    assert guard("The C team plays in Division 3.", window) == ""
    assert guard("The B team plays on 6 boards.", window) == ""


def test_am_i_old_enough_needs_a_claim_stating_an_age() -> None:
    """ap037: two true sentences about congress helpers for "Am I old enough?"."""
    checker = JudgedSupport(FakeEmbeddings().embed_documents, RecordingJudge(1.0))  # type: ignore[arg-type]
    text = (
        "Congress helpers are asked to give at least one half-day, and each helper gets a free"
        " lunch voucher for the Drill Hall cafe.\n\n"
        "Volunteers must be at least 16 to help at Junior Club and at least 14 to help at the"
        " congress."
    )
    sections = {"s": {"text": text, "title": "Volunteers"}}
    question = "I'm 14 and would like to help out at the congress in November. Am I old enough?"
    helpers = "Congress helpers are asked to give at least one half-day [s]."
    report = check_answer(helpers, sections, checker=checker, question=question)
    assert not [c for c in report.claims if c.verdict == "supported" and not c.dropped]
    assert any("age" in c.reason for c in report.claims)
    ages = "Yes. Volunteers must be at least 14 to help at the congress [s]."
    kept = check_answer(ages, sections, checker=checker, question=question)
    assert any(c.verdict == "supported" and not c.dropped for c in kept.claims)


LESSONS = (
    "Lesson | Length | Junior Members | Others\nOne-to-one | 45 minutes | 15.00 GBP | 22.00 GBP"
)
THREE = "My son is a Junior Member. How much will three 45-minute one-to-one lessons come to?"
SUM = (
    "The cost of three 45-minute one-to-one lessons for Junior Members is 15.00 GBP each,"
    " totaling 45.00 GBP."
)


def test_a_total_is_the_askers_count_times_the_sentences_amount() -> None:
    """ap024: "15.00 GBP each, totaling 45.00 GBP" for three lessons priced 15.00 GBP each."""
    row = "Lesson: One-to-one | Length: 45 minutes | Junior Members: 15.00 GBP | Others: 22.00 GBP"
    given = given_numbers(THREE)
    assert computed(SUM, row, given) == {"45": "3 × 15 GBP", "3": "3 × 15 GBP"}
    assert guard(SUM, row, "", given) == ""
    assert "3" in guard(SUM, row)  # without the question, its count is no number of the row
    assert guard("Three lessons cost 50.00 GBP.", row, "", given)  # no count times an amount
    # the judge reads the claim without its total; a total alone, as its sum (aq022, set 42)
    assert without_total(SUM, row, given) == SUM.replace(", totaling 45.00 GBP", "")
    alone = "Three lessons come to 45.00 GBP in total."
    assert without_total(alone, row, given) == "Three lessons come to 3 × 15 GBP in total."


def test_a_computed_total_is_kept_and_the_judge_is_asked_without_it() -> None:
    """ap024 through the checker: supported, the judge asked about "15.00 GBP each"."""
    judge = ReadingJudge("15.00 GBP")
    checker = JudgedSupport(FakeEmbeddings().embed_documents, judge)  # type: ignore[arg-type]
    sections = {"s": {"text": LESSONS, "title": "Coaching"}}
    report = check_answer(f"{SUM[:-1]} [s].", sections, checker=checker, question=THREE)
    kept = [c for c in report.claims if c.verdict == "supported" and not c.dropped]
    assert [c.text for c in kept] == [SUM]
    assert all("totaling" not in claim for claim, _, _ in judge.asked)


def test_a_count_of_weekly_sessions_answers_how_many_sessions() -> None:
    """ap025: "8 weekly sessions" counts sessions; "weekly" is no unit of the count."""
    question = "When does the Improvers' Course start, and how many sessions are there?"
    parts = question_parts(question)
    assert 1 in claim_parts("It has 8 weekly sessions.", parts)
    assert kind_mismatch(parts[1], "It has 8 weekly sessions.") == ""
    # a measure alone still does not count sessions
    assert "sessions" in kind_mismatch(parts[1], "The course runs for 8 weeks.")
    assert "sessions" in kind_mismatch(parts[1], "Each session lasts 2 hours.")
