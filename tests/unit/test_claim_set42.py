"""Held-out set 42's findings (run 54): a start given as an end, a row read by its name's number."""

from __future__ import annotations

from disputatio.validators.bands import asked_column
from disputatio.validators.claims import check_answer
from disputatio.validators.dayparts import daypart_contrast
from disputatio.validators.guards import guard
from disputatio.validators.looks import nearest_reason
from disputatio.validators.measures import number_contrast
from disputatio.validators.opposites import opposite_words
from disputatio.validators.ranges import holds, labelled_bounds, ranges
from disputatio.validators.sentences import stated_numbers
from disputatio.validators.siblings import sibling_place
from disputatio.validators.support import LexicalSupport
from disputatio.validators.tables import figure_columns
from disputatio.validators.totals import without_total
from disputatio.validators.windows import Windows

VIEW = (
    "The exhibition opens with a private view on Friday 6 November 2026 at 7.00 pm, to which"
    " every member may bring one guest."
)
LENSES = (
    "| Item: 100 mm macro lens | Loan fee per week: 6.00 GBP | Deposit: 80.00 GBP |\n"
    "| Item: 100 to 400 mm telephoto lens | Loan fee per week: 10.00 GBP | Deposit: 120.00 GBP |"
)


def test_a_finish_is_not_a_start_at_the_same_time() -> None:
    """aq027: "finishes at 7.00 pm" is not stated by "opens with a private view … at 7.00 pm"."""
    claim = "The private view for the exhibition finishes at 7.00 pm on Friday 6 November 2026."
    assert opposite_words(claim, VIEW) == ("finishes", "opens")
    assert guard(claim, VIEW)
    starts = "The private view opens the exhibition at 7.00 pm on Friday 6 November 2026."
    assert opposite_words(starts, VIEW) is None
    assert not guard(starts, VIEW)
    # a sentence saying both is no opposite
    both = "The private view opens at 7.00 pm and finishes at 9.00 pm."
    assert opposite_words("The private view finishes at 9.00 pm.", both) is None


def test_a_figure_in_a_rows_name_does_not_make_it_the_claims_row() -> None:
    """aq011: the macro lens's 6.00 GBP is its weekly fee, not the telephoto row's "Item"."""
    claim = "The weekly fee for the 100 mm macro lens is 6.00 GBP."
    question = (
        "I'd like to borrow the macro lens. What's the weekly fee, and how long can I keep it?"
    )
    # the macro row holds both its figures, and its 100 is the row's name's
    # (the name's "100 mm" is no other price: another unit)
    assert figure_columns(claim, LENSES) == [("Loan fee per week", ["Deposit"])]
    assert asked_column(question, claim, LENSES) == ""
    # the row holding most of the claim's figures is still read: its deposit is no weekly fee
    deposit = "The weekly fee for the 100 mm macro lens is 80.00 GBP."
    assert figure_columns(deposit, LENSES) == [("Deposit", ["Loan fee per week"])]
    assert "Loan fee per week" in asked_column(question, deposit, LENSES)


def test_a_size_written_with_an_x_is_the_sentences_by() -> None:
    """aq028: the asker's "8x10 paper" is the sentence's "8 by 10 inch" paper."""
    paper = (
        "Paper is sold at the darkroom in packs of 25 sheets of 8 by 10 inch resin-coated paper"
        " for 14.00 GBP a pack."
    )
    assert guard("The club's 8x10 paper costs 14.00 GBP a pack.", paper) == ""
    assert "12x16" in guard("The club's 12x16 paper costs 14.00 GBP a pack.", paper)
    assert "10x8" in guard("The club's 10x8 paper costs 14.00 GBP a pack.", paper)


def test_another_venues_lost_property_does_not_answer_for_the_barn() -> None:
    """aq036: the Foundry's 30 days, asked of the Barn, where the section names both venues."""
    question = (
        "I left a lens cap at the Barn after studio night. How long do you keep lost property"
        " there?"
    )
    block = "Lost property found at the Foundry is kept for 30 days in the cupboard by the desk."
    section = (
        "The Foundry Rooms\n\nClub nights are held at the Foundry on Wednesdays.\n\n"
        f"{block}\n\nWithybrook Barn\n\nThe studio is at the Barn, on a farm at the edge of town."
    )
    assert sibling_place(question, block, section) == ("barn", "foundry")
    # the text under the Foundry's heading alone names no Barn: nothing to tell them apart
    assert sibling_place(question, block, section.split("Withybrook Barn")[0]) is None
    asked_foundry = question.replace("at the Barn", "at the Foundry")
    assert sibling_place(asked_foundry, block, section) is None


def test_the_checker_reads_the_places_from_the_whole_section() -> None:
    """aq036 through the checker: the Barn is named under another heading of the section."""
    question = (
        "I left a lens cap at the Barn after studio night. How long do you keep lost property"
        " there?"
    )
    text = (
        "## The Foundry Rooms\n\nClub nights are held at the Foundry on Wednesdays.\n\n"
        "Lost property found at the Foundry is kept for 30 days.\n\n"
        "## Withybrook Barn\n\nThe studio is at the Barn, on a farm at the edge of town.\n"
    )
    sections = {"v": {"text": text, "title": "Venues"}}
    answer = "Lost property found at the Foundry is kept for 30 days [v]."
    report = check_answer(answer, sections, question=question)
    (claim,) = [c for c in report.claims if c.factual and c.verdict == "supported"]
    assert claim.dropped and "'foundry'" in claim.reason
    asked_foundry = question.replace("at the Barn", "at the Foundry")
    kept = check_answer(answer, sections, question=asked_foundry)
    assert [c.text for c in kept.claims if not c.dropped] == [answer[:-5] + "."]


def test_the_reason_given_is_the_guard_of_the_window_sharing_most_words() -> None:
    """aq028's first reason came from an unrelated window; the nearest is the one sharing words."""
    text = (
        "Lockers cost 5.00 GBP a month.\n\n"
        "A pack of 25 sheets of 9 by 12 inch darkroom paper from the club costs 14.00 GBP a pack."
    )
    windows = Windows({"s": {"text": text, "title": "Darkroom"}})
    claim = "The club's 8x10 darkroom paper costs 14.00 GBP a pack."
    found = windows.best(claim, ["s"], LexicalSupport())
    assert found.evidence == [] and found.reason == "8x10 is not in the section"
    unrelated, near = ("Lockers are free.", "a"), ("The club sells darkroom paper.", "b")
    assert nearest_reason(claim, [unrelated, near], passed=True) == "b"
    assert nearest_reason(claim, [unrelated], passed=True) == "no sentence shares its words"
    assert nearest_reason(claim, [unrelated], passed=False) == "a"


STUDIO_ROW = (
    "| Room: Studio | Weekdays, 9.00 am to 5.00 pm: 10.00 GBP an hour | Evenings and weekends:"
    " 15.00 GBP an hour | Shortest booking: 2 hours |"
)
BOOKING = "I want to book the studio for three hours on a Saturday afternoon. What will it cost me?"


def test_a_labelled_bound_holds_the_askers_number() -> None:
    """aq004: "Shortest booking: 2 hours" is a lower bound, so a 3-hour booking is one of them."""
    assert holds(STUDIO_ROW, "3", "hour", strict=True, labelled=True)
    assert not holds(STUDIO_ROW, "1", "hour", strict=True, labelled=True)
    assert holds("The minimum stay is 2 nights.", "4", None, labelled=True)
    maximum = "Maximum group size: 12 people"
    assert not holds(maximum, "14", "person", strict=True, labelled=True)
    assert holds(maximum, "9", "person", strict=True, labelled=True)
    # "most" is no label of a bound: "Most members are 12 years old" bounds no age
    assert not labelled_bounds("Most members are 12 years old")
    # a label bounds its own column only: "Longest hire: 2 days" licenses no "half a day" of
    # the price per day beside it (ae014, set 30), so the plain ranges do not read it
    rotavator = (
        "| Tool: Petrol rotavator | Plot Member, per day: 12.00 GBP | Longest hire: 2 days |"
    )
    assert not ranges(rotavator)
    assert not holds(rotavator, "0.5", "day", strict=True)
    raw = "| Studio | 10.00 GBP an hour | 15.00 GBP an hour | 2 hours |"
    # the raw row alone gives another number of hours; read with its headers, a bound
    assert number_contrast(BOOKING, raw) == ("3 hour", "2 hour")
    assert number_contrast(BOOKING, raw, STUDIO_ROW) is None
    assert number_contrast(BOOKING.replace("three", "one"), raw, STUDIO_ROW) is not None


def test_evenings_and_weekends_price_a_saturday_afternoon() -> None:
    """aq004: the claim's "evenings and weekends" covers the asker's Saturday afternoon."""
    claim = "The studio costs 15.00 GBP an hour on evenings and weekends."
    assert daypart_contrast(BOOKING, claim) is None
    assert daypart_contrast(BOOKING.replace("Saturday", "Tuesday"), claim) == (
        "afternoon",
        "evening",
    )
    matinee = "How much is a sofa for the Sunday 2 pm matinee?"
    assert daypart_contrast(matinee, "A sofa costs 18.00 GBP for evening screenings.")


def test_another_column_holds_a_figure_of_the_claims_unit() -> None:
    """aq004: beside a price per hour, "Shortest booking: 2 hours" is no other price."""
    claim = "The studio costs 15.00 GBP an hour on evenings and weekends."
    assert figure_columns(claim, STUDIO_ROW) == [
        ("Evenings and weekends", ["Weekdays, 9.00 am to 5.00 pm"])
    ]
    assert asked_column(BOOKING, claim, STUDIO_ROW) == ""
    weekday = BOOKING.replace("on a Saturday afternoon", "on a weekday morning")
    assert "Weekdays" in asked_column(weekday, claim, STUDIO_ROW)


def test_a_total_stated_alone_is_put_to_the_judge_as_its_sum() -> None:
    """aq022: "12.00 GBP" for four prints reaches the judge as "4 × 3 GBP", the sentence's fee."""
    question = (
        "I'm a Studio Member and I'm hanging four prints in the Annual Exhibition. How much will"
        " the hanging fees come to?"
    )
    fee = "The hanging fee is 3.00 GBP a print, which pays for the gallery hire and the catalogue."
    claim = "The hanging fees for four prints in the Annual Exhibition will come to 12.00 GBP."
    given = stated_numbers(question)
    assert without_total(claim, fee, given) == claim.replace("12.00 GBP", "4 × 3 GBP")
    # a total the asker's count does not make is left for the judge as it is
    wrong = claim.replace("12.00", "15.00")
    assert without_total(wrong, fee, given) == wrong
    # a total introduced by its clause still goes, the amount it multiplies stays
    each = "The hanging fee is 3.00 GBP a print, totaling 12.00 GBP."
    assert without_total(each, fee, given) == "The hanging fee is 3.00 GBP a print."
