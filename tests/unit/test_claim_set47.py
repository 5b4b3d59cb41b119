"""Rules found on held-out set 47 (corpus_diving, run 59)."""

from __future__ import annotations

import pytest
from fake_judges import RecordingJudge

from disputatio.testing import FakeEmbeddings
from disputatio.validators.asked import states_stretch, unanswered
from disputatio.validators.claims import check_answer
from disputatio.validators.compound import split_compound
from disputatio.validators.durations import converted
from disputatio.validators.groups import row_for
from disputatio.validators.guards import guard
from disputatio.validators.ranges import holds
from disputatio.validators.support import JudgedSupport, LexicalSupport
from disputatio.validators.tables import mixed_cells
from disputatio.validators.things import addressed

PARKING_ROW = (
    "| Facility: Parking | Fallowgate Pool: The leisure centre's pay-and-display car park. | "
    "Stannerdale Quarry: A gravel car park with 40 spaces, free for members and visiting "
    "divers. |"
)
MIXED = "The leisure centre's pay-and-display car park is free for members and visiting divers."


def test_a_claim_joining_two_cells_of_columns_of_one_kind_is_not_supported() -> None:
    """av002: the pool's car park given the quarry's "free for members and visiting divers"."""
    why = mixed_cells(MIXED, PARKING_ROW)
    assert "'Fallowgate Pool'" in why and "'Stannerdale Quarry'" in why
    assert guard(MIXED, PARKING_ROW) == why


def test_a_claim_from_one_cell_or_comparing_both_passes() -> None:
    quarry = (
        "The quarry has a gravel car park with 40 spaces, free for members and visiting divers."
    )
    assert not mixed_cells(quarry, PARKING_ROW)
    both = (
        "At the pool you use the leisure centre's pay-and-display car park; at the quarry "
        "parking is free for members and visiting divers."
    )
    assert not mixed_cells(both, PARKING_ROW)  # it names both columns: a comparison


def test_cells_of_a_records_attributes_may_be_joined() -> None:
    """Two one-word labels are one record's attributes, not two of a kind."""
    row = (
        "| Course: Night diving | Venue: Stannerdale Quarry at dusk | Kit: main torch and backup "
        "torch |"
    )
    claim = "Night diving at Stannerdale Quarry at dusk needs a main torch and backup torch."
    assert not mixed_cells(claim, row)


CANCEL = (
    "Anyone who cancels 14 days or more before a course starts is refunded, less an admin fee "
    "of 20.00 GBP."
)
CANCEL_Q = (
    "If I cancel my place on the course three weeks before it starts, how much do you keep as "
    "an admin fee?"
)


@pytest.mark.parametrize(("number", "unit", "held"), [("3", "week", True), ("1", "week", False)])
def test_a_range_of_days_holds_a_number_of_weeks_it_spans(
    number: str, unit: str, held: bool
) -> None:
    """av025: the asker's "three weeks" is 21 days, which "14 days or more" holds."""
    assert holds(CANCEL, number, unit) is held


def test_weeks_are_not_converted_into_months() -> None:
    assert converted(2.0, "week", "day") == 14.0
    assert converted(1.0, "week", "month") is None
    assert converted(90.0, "minute", "hour") is None  # l042: never into a coarser unit
    assert not holds("cancelled less than 12 hours before it starts", "90", "minute")
    assert not holds("for puppies aged 3 to 5 months", "16", "week")


def test_the_askers_weeks_restated_against_a_range_of_days_are_supported() -> None:
    checker = LexicalSupport().for_question(CANCEL_Q)
    claim = "The admin fee for cancelling three weeks before the course starts is 20.00 GBP."
    (score,) = checker.score_many(claim, [CANCEL], ["Courses"])
    assert score.score == 1.0, score.reason
    assert "cancelling 14 days or more before" in checker.in_terms(claim, CANCEL)
    early = "The admin fee for cancelling one week before the course starts is 20.00 GBP."
    (score,) = checker.score_many(early, [CANCEL], ["Courses"])
    assert score.score == 0.0


def test_a_concluding_therefore_is_no_word_the_sentence_must_hold() -> None:
    """av008: "Therefore, the air fills will cost £15.00." is the total the draft worked out."""
    fills = "A fill of a 15-litre cylinder costs 5.00 GBP for members."
    checker = LexicalSupport().for_question("How much will three fills come to?")
    (plain,) = checker.score_many("The fills will cost £15.00.", [fills], [""])
    (concluded,) = checker.score_many("Therefore, the fills will cost £15.00.", [fills], [""])
    assert plain.score == 1.0 and concluded.score == plain.score


TRIPS = """## Night dives

Night dives at the quarry are held on Wednesday evenings in October and November.

They are open to Club Divers and above who have logged at least 10 dives.

## Trips

| Trip | Dates | Who can go |
|---|---|---|
| Corrieness Wrecks Weekend | 6 to 7 June | Sport Divers and above |
| Autumn Reef Weekend | 3 to 4 October | Club Divers and above |
"""
CLUB_DIVER = "I'm a Club Diver with 12 logged dives. Can I go on the Corrieness Wrecks Weekend?"


def _kept(answer: str, question: str) -> list[str]:
    """The supported claims ``answer`` keeps for ``question`` (a judge saying yes to all)."""
    checker = JudgedSupport(FakeEmbeddings().embed_documents, RecordingJudge(1.0))  # type: ignore[arg-type]
    sections = {"s": {"text": TRIPS, "title": "Club dives and trips"}}
    report = check_answer(answer, sections, checker=checker, question=question)
    return [c.text for c in report.claims if c.verdict == "supported" and not c.dropped]


def test_a_row_for_another_kind_of_the_askers_group_answers_no_yes() -> None:
    """av044: "Sport Divers and above" does not say a Club Diver may go."""
    row = TRIPS.splitlines()[-2]
    assert row_for(CLUB_DIVER, row) == "Sport Divers and above"
    assert row_for(CLUB_DIVER, TRIPS.splitlines()[-1]) is None  # the asker's own kind
    assert row_for("Can I go on the Corrieness Wrecks Weekend?", row) is None
    go = "You can go on the Corrieness Wrecks Weekend from 6 to 7 June [s]."
    assert not _kept(go, CLUB_DIVER)
    autumn = "You can go on the Autumn Reef Weekend from 3 to 4 October [s]."
    assert _kept(autumn, CLUB_DIVER.replace("Corrieness Wrecks", "Autumn Reef"))


def test_a_pronouns_sentence_about_another_thing_does_not_answer() -> None:
    """av044: "They" are the night dives, not the weekend the question names."""
    open_to = "The trip is open to Club Divers and above who have logged at least 10 dives [s]."
    assert not _kept(open_to, CLUB_DIVER)
    night = "I'm a Club Diver. Can I join the Night dives at the quarry?"
    assert _kept(open_to.replace("The trip", "Night dives"), night)


SNORKEL = "## Snorkel mornings\n\nThe snorkel morning starts at 9.00 am at Fallowgate Pool.\n"


def test_two_predicates_of_one_subject_are_two_claims() -> None:
    """av016: the true start and an invented length, joined by a bare "and", judged apart."""
    assert split_compound("The snorkel morning starts at 9.00 am and lasts for 1 hour.") == [
        "The snorkel morning starts at 9.00 am.",
        "The snorkel morning lasts for 1 hour.",
    ]
    checker = JudgedSupport(FakeEmbeddings().embed_documents, RecordingJudge(1.0))  # type: ignore[arg-type]
    sections = {"s": {"text": SNORKEL, "title": "Snorkel mornings"}}
    answer = "The snorkel morning starts at 9.00 am and lasts for 1 hour [s]."
    report = check_answer(answer, sections, checker=checker, question="When does it start?")
    verdicts = {c.text: c.verdict for c in report.claims}
    assert verdicts == {
        "The snorkel morning starts at 9.00 am.": "supported",
        "The snorkel morning lasts for 1 hour.": "unsupported",
    }


@pytest.mark.parametrize(
    "text",
    [
        "Members and guests pay 5 GBP at the door.",  # the "and" joins the subject
        "The session that runs on Sunday starts at 9 and lasts 1 hour.",  # a relative clause
        "You need a wetsuit and fins and a mask for every dive.",  # a list, no second verb
        "The fee covers the pool and this is paid monthly.",  # a new subject
    ],
)
def test_an_and_without_a_second_predicate_of_the_subject_does_not_split(text: str) -> None:
    assert split_compound(text) == [text]


def test_a_reason_after_a_comma_is_a_claim_of_its_own() -> None:
    """av020: "…, as you would have to pay …" is a second statement, judged apart."""
    assert split_compound(
        "You would not get your deposit back, as you would have to pay the balance in 6 weeks."
    ) == ["You would not get your deposit back.", "You would have to pay the balance in 6 weeks."]
    for whole in (
        "You may bring a guest, as long as they are over 18.",
        "The pool is closed on Mondays, as the club rules say.",
    ):
        assert split_compound(whole) == [whole]


@pytest.mark.parametrize(
    ("claim", "stretch"),
    [
        ("In 2026 it is on Thursday 14 May at 7.30 pm.", False),  # a day with its hour: when
        ("The meeting is on 14 May at 7.30 pm.", False),
        ("The meeting runs from 7.30 pm to 9 pm.", True),
        ("The lease runs from 2024 to 2026.", True),
        ("The meeting lasts 2 hours.", True),
    ],
)
def test_a_day_and_its_hour_are_no_stretch_of_time(claim: str, stretch: bool) -> None:
    """av039: "How long does the AGM usually last?" is not answered by when it is."""
    assert states_stretch(claim) is stretch


def test_how_long_is_not_answered_by_the_meetings_date_and_time() -> None:
    claims = [
        "The annual general meeting is held in May at Fallowgate Leisure Centre.",
        "In 2026 it is on Thursday 14 May at 7.30 pm.",
    ]
    why = unanswered("How long does the annual general meeting usually last?", claims)
    assert "stretch of time" in why
    assert not unanswered("When is the annual general meeting?", claims)


def test_an_and_inside_a_later_part_does_not_undo_the_join_before_it() -> None:
    """l023 (set 26): "…, and a bed and bowls are provided" is still a part of its own."""
    assert split_compound(
        "Up to 2 dogs may stay in one room, for 15 GBP per dog per night, and a bed and bowls "
        "are provided."
    ) == [
        "Up to 2 dogs may stay in one room, for 15 GBP per dog per night.",
        "A bed and bowls are provided.",
    ]


def test_a_reason_opening_with_a_pronoun_stays_with_its_sentence() -> None:
    """as043 (set 44): "…, as it covers two adults …" split off read "It covers …" alone."""
    whole = (
        "The Heron Membership costs 64.00 GBP a year for an adult aged 41, as it covers two "
        "adults and up to three Juniors living at the same address."
    )
    assert split_compound(whole) == [whole]


APPEAL = (
    "If the complaint is rejected, the customer can appeal to the Municipal Complaints Board "
    "within 3 weeks of receiving the decision."
)


def test_a_figure_of_what_is_done_to_the_claims_subject_is_not_its_own() -> None:
    """u011 (set 8): the customer's 3 weeks to appeal, once split off, read as the Board's."""
    claim = "The Municipal Complaints Board decides an appeal within 3 weeks of receiving it."
    assert addressed(claim, APPEAL) is not None
    assert "Municipal Complaints Board" in guard(claim, APPEAL)


@pytest.mark.parametrize(
    ("claim", "window"),
    [
        (
            "The Secretary replies within 10 working days.",
            "If that does not settle it, write to the Secretary, who replies within 10 working "
            "days.",
        ),
        (
            "The Board decides appeals within 3 weeks.",
            "Appeals are decided by the Board within 3 weeks.",
        ),
    ],
)
def test_a_subject_the_window_gives_the_figure_to_stands(claim: str, window: str) -> None:
    assert addressed(claim, window) is None
