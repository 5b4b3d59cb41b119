"""Rules found on held-out set 46 (corpus_tennis, run 58)."""

from __future__ import annotations

from fake_judges import RecordingJudge

from disputatio.testing import FakeEmbeddings
from disputatio.validators.claims import check_answer
from disputatio.validators.groups import priced_for
from disputatio.validators.guards import guard
from disputatio.validators.pairs import split_subjects
from disputatio.validators.ranges import given_numbers
from disputatio.validators.support import JudgedSupport

JUNIOR_ROW = (
    "| Course: Junior Development | Site: Meadow Road | Day: Wednesday | Time: 4.30 pm to "
    "6.00 pm | Ages: 11 to 17 | Members, 10-week term: 90.00 GBP | Non-members, 10-week term: "
    "120.00 GBP |"
)
SUMMER_ASKS = (
    "My son is a member and does Junior Development. What will the 6-week summer term cost?"
)


def test_a_dot_clock_time_states_no_number_of_weeks() -> None:
    """au034: "6.00 pm" is no 6 that the asker's "6-week summer term" could rest on."""
    given = given_numbers(SUMMER_ASKS)
    claim = "The 6-week summer term cost for Junior Development is 90.00 GBP."
    assert "clock time" in guard(claim, JUNIOR_ROW, given=given)
    assert not guard("Junior Development ends at 6.00 pm.", JUNIOR_ROW, given=given)
    assert not guard(
        "A 10-week term of Junior Development costs 90.00 GBP for members.", JUNIOR_ROW
    )


CAMP = (
    "Children bring a packed lunch, a water bottle and sun cream; the camp gives them a drink "
    "and fruit in the afternoon."
)


def test_a_claim_giving_one_clauses_subject_what_another_says_is_not_supported() -> None:
    """au023: the camp does not provide the packed lunch; the children bring it."""
    claim = "The holiday camps provide a packed lunch, a water bottle."
    assert split_subjects(claim, CAMP)
    assert guard(claim, CAMP)
    assert split_subjects(claim, f"{CAMP}\n\nCamps are cancelled if fewer than 6 children book.")
    assert not split_subjects("The camp gives children a drink and fruit.", CAMP)
    assert not split_subjects("Children bring a packed lunch and a water bottle.", CAMP)


def test_a_clause_without_its_own_subject_is_not_split_from_the_one_before() -> None:
    """A clause pointing back ("its chair") or opening with a place has no subject to lend."""
    friends = (
        "The parents' group, the Friends of Haddleby Dance, raises money for bursaries and "
        "helps at the Summer Show; its chair is elected each September."
    )
    assert not split_subjects(
        "The chair of the Friends of Haddleby Dance is elected each September.", friends
    )
    seats = (
        "At the Harcourt Stage, children under 14 must sit next to an adult; at the Ropeworks "
        "Studio this applies to children under 16."
    )
    assert not split_subjects(
        "Children under 16 must sit next to an adult at the Ropeworks Studio.", seats
    )


LESSONS = (
    "PRIVATE LESSONS\n\nPrivate lessons are booked directly with the coach, at either site.\n\n"
    "Coach | 30 minutes | 60 minutes\nHead Coach | 22.00 GBP | 40.00 GBP\n"
    "Assistant Coach | 15.00 GBP | 28.00 GBP\n\n"
    "Prices are for members; non-members pay 5.00 GBP more per lesson. The court and balls are "
    "included."
)
NOT_A_MEMBER = "I'm not a member. What would an hour's private lesson with the Head Coach cost me?"
HOUR = "An hour's private lesson with the Head Coach costs 40.00 GBP."


def test_prices_a_note_gives_for_another_group_are_not_the_askers() -> None:
    """au017: the table's 40.00 GBP is the members' price; the asker said they are not one."""
    assert priced_for(NOT_A_MEMBER, LESSONS, HOUR) == "Prices are for members"
    assert priced_for("I'm a member. What does an hour cost?", LESSONS, HOUR) is None
    # a price worked out for the asker is not the table's, and nothing but money is priced
    assert priced_for(NOT_A_MEMBER, LESSONS, HOUR.replace("40.00", "45.00")) is None
    assert priced_for(NOT_A_MEMBER, LESSONS, "Lessons are booked with the coach.") is None
    # "Member prices are for …" defines a column, not the subsection
    column = LESSONS.replace("Prices are for members", "Member prices are for members")
    assert priced_for(NOT_A_MEMBER, column, HOUR) is None


def test_a_members_price_for_a_non_member_is_set_aside() -> None:
    checker = JudgedSupport(FakeEmbeddings().embed_documents, RecordingJudge(1.0))  # type: ignore[arg-type]
    sections = {"s": {"text": LESSONS, "title": "Coaching and juniors"}}
    report = check_answer(f"{HOUR} [s]", sections, checker=checker, question=NOT_A_MEMBER)
    assert next(c.verdict for c in report.claims if c.factual) == "supported"
    assert not [c for c in report.claims if c.verdict == "supported" and not c.dropped]
    assert any("another group" in c.reason for c in report.claims)
    member = NOT_A_MEMBER.replace("I'm not a member", "I'm a member")
    kept = check_answer(f"{HOUR} [s]", sections, checker=checker, question=member)
    assert [c for c in kept.claims if c.verdict == "supported" and not c.dropped]
