"""Held-out set 36's findings.

An amount given a rate its sentence does not give it (ak008), a subject-less clause lending its
predicate (ak029), a subsection's subject kept for another group (ak024).
"""

from __future__ import annotations

from fake_judges import RecordingJudge

from disputatio.state.claims import Evidence
from disputatio.testing import FakeEmbeddings
from disputatio.validators.claims import check_answer
from disputatio.validators.groups import barred
from disputatio.validators.guards import guard
from disputatio.validators.periods import rate_unstated
from disputatio.validators.support import JudgedSupport
from disputatio.validators.windows import Windows

INDUCTIONS = (
    "Induction: workshop, length, price, places per session, day and time\n"
    "Laser cutter: Printworks, 2 hours, 20.00 GBP, 4 places, Wednesdays at 6:30 pm\n"
    "CNC router: Canal Basin, 3 hours, 35.00 GBP, 3 places, Saturdays at 10 am"
)


def test_an_amount_per_hour_needs_a_rate_per_hour() -> None:
    """ak008: the router's induction price is not its price per hour."""
    claim = "The CNC router at the Basin costs 35.00 GBP per hour."
    assert "per hour" in guard(claim, INDUCTIONS, "Machines and inductions")
    assert guard("The CNC router induction costs 35.00 GBP.", INDUCTIONS) == ""
    # the rate stated with the amount, in a header, or in the section's title, supports it
    for sentence, title in [
        ("CNC router (Canal Basin): 1 machine, 35.00 GBP an hour, induction needed", ""),
        ("Machine: CNC router | Price per hour: 35.00 GBP", ""),
        ("CNC router: Canal Basin, 3 hours at least, 35.00 GBP", "Hourly rates of the machines"),
    ]:
        assert rate_unstated(claim, sentence, title) == "", sentence


def test_an_amount_per_another_period_is_not_the_claim_s() -> None:
    claim = "The Maker Membership costs 20.00 GBP a month."
    assert "per year" in rate_unstated(claim, "The Maker Membership costs 20.00 GBP a year.")
    assert rate_unstated(claim, "Maker Membership, monthly: 20.00 GBP") == ""
    assert rate_unstated("The Maker Membership costs 20.00 GBP.", "20.00 GBP a year") == ""


def test_an_amount_with_no_period_and_no_length_is_left_alone() -> None:
    """i009 (set 24): a document may say once, above its table, that prices are per month."""
    assert (
        rate_unstated("The Fixed Desk costs 295 GBP per month.", "| Fixed Desk | 295 GBP |") == ""
    )
    # nor a table row beside a length: its headers may name the rate (ae030, set 30)
    strimmer = "| Petrol strimmer | 30.00 GBP | 8.00 GBP | 12.00 GBP | 2 days |"
    assert rate_unstated("The Plot Member rate is 8.00 GBP per day.", strimmer) == ""
    # a length of one period is no length of several
    row = "Overlocker: Printworks, 1 hour, 8.00 GBP, 3 places"
    assert rate_unstated("The overlocker costs 8.00 GBP per hour.", row) == ""


VOLUNTEERS = (
    "Members who pay for 12 months in advance get 2 months free. Volunteers who give at least 8"
    " hours a month to the makerspace, for example at Fix-It Saturday, get 5.00 GBP off their"
    " monthly fee. A full day in The Loft, booked by a member, costs 480 GBP, and a half day"
    " costs 260 GBP."
)


def test_a_clause_opening_with_its_verb_is_read_with_its_subject() -> None:
    """ak029: "get 5.00 GBP off their monthly fee" alone lends the volunteers' discount."""
    windows = Windows({"fees": {"text": VOLUNTEERS}})
    read = {text for _, _, text in windows.items["fees"]}
    assert "get 5.00 GBP off their monthly fee." not in read
    assert not any(text.startswith("get ") for text in read)
    # a middle clause opening with its verb is read from the sentence's start
    assert "A full day in The Loft, booked by a member, costs 480 GBP" in read
    assert "costs 480 GBP" not in read
    # a clause with its own subject stays a window
    assert "and a half day costs 260 GBP." in read


STORAGE = (
    "## Storage\n\nStorage is only for Maker Members.\n\nAt Printworks a small locker costs"
    " 3.00 GBP a month and a large locker costs 6.00 GBP a month.\n\n## Hire\n\nThe laser"
    " cutter is only for Maker Members. Tools can be hired by any member for 2.00 GBP a day."
)
EVENING = (
    "I'm an Evening Member and I'd like somewhere to keep my sewing projects. Can I rent a"
    " small locker at Printworks?"
)


def test_a_subject_kept_for_another_group_is_no_yes_for_the_asker() -> None:
    """ak024: the locker prices under "Storage is only for Maker Members." for an Evening Member."""
    about = "Storage At Printworks a small locker costs 3.00 GBP a month."
    assert barred(EVENING, STORAGE, about) == "Storage is only for Maker Members"
    assert barred(EVENING.replace("Evening", "Maker"), STORAGE, about) is None
    assert barred("I'm not a member. Can I rent a locker?", STORAGE, about)
    # what the restriction keeps must be what the evidence or its heading is about
    hire = "Hire Tools can be hired by any member for 2.00 GBP a day."
    assert barred("I'm an Evening Member. Can I hire a drill?", STORAGE, hire) is None


def test_a_yes_under_a_restriction_for_another_group_is_set_aside() -> None:
    checker = JudgedSupport(FakeEmbeddings().embed_documents, RecordingJudge(1.0))  # type: ignore[arg-type]
    sections = {"s": {"text": STORAGE, "title": "Materials, storage and hire"}}
    answer = "The answer is yes, you can rent a small locker at Printworks [s]."
    report = check_answer(answer, sections, checker=checker, question=EVENING)
    kept = [c for c in report.claims if c.verdict == "supported" and not c.dropped]
    assert not kept
    assert any("another group" in c.reason for c in report.claims)
    one = "Can I rent a small locker at Printworks if I'm an Evening Member?"  # one sentence
    alone = check_answer(answer, sections, checker=checker, question=one)
    assert not [c for c in alone.claims if c.verdict == "supported" and not c.dropped]
    member = check_answer(
        answer, sections, checker=checker, question=EVENING.replace("Evening", "Maker")
    )
    assert any(c.verdict == "supported" and not c.dropped for c in member.claims)
    windows = Windows(sections)
    lockers = STORAGE.index("At Printworks")
    text, heads = windows.under(
        Evidence(section_id="s", sentence="", start=lockers, end=lockers, score=1.0)
    )
    assert "Storage is only" in text and "laser" not in text and "Storage" in heads
