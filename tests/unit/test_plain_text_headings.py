"""Plain-text documents: headings in capitals, a day before a clock time, "there" pointing back.

Held-out set 28 (run 40) left three right drafts unsupported on ``corpus_cycle``'s plain-text
file: the Station's opening hours stand under the line "FREEWHEEL STATION" (ac008), read
"Friday 07:30" as a name ("Friday 07") and the cycle park's price is in a sentence that says
"there" for the Station's cycle park named the sentence before (ac034).
"""

from __future__ import annotations

from disputatio.validators.guards import guard
from disputatio.validators.headings import headings_in
from disputatio.validators.windows import Windows

SITES = (
    "FREEWHEEL CYCLE CO-OP: OUR SITES\n"
    "Invented content: written for a test data set.\n\n"
    "FREEWHEEL WHARF\n\n"
    "Opening hours: Tuesday to Friday 10:00 to 18:00, Saturday 09:00 to 17:00.\n\n"
    "FREEWHEEL STATION\n\n"
    "Opening hours: Monday to Friday 07:30 to 19:00, Saturday 09:00 to 17:00.\n"
)
PARK = (
    "The Station has a secure cycle park with 120 spaces. Parking a bike there costs "
    "1.00 GBP per day, or 10.00 GBP per month for Rider and Workshop members."
)


def test_lines_of_capitals_head_the_parts_of_a_plain_text_document() -> None:
    paths = [path for _, path in headings_in(SITES)]
    title = "FREEWHEEL CYCLE CO-OP: OUR SITES"
    assert paths == [title, f"{title} FREEWHEEL WHARF", f"{title} FREEWHEEL STATION"]
    windows = Windows({"s": {"text": SITES}})
    station = SITES.index("Opening hours: Monday")
    assert "FREEWHEEL STATION" in windows.context_of("s", station)
    assert "STATION" not in windows.context_of("s", SITES.index("Opening hours: Tuesday"))


def test_a_sentence_of_capitals_with_words_after_it_is_no_heading() -> None:
    text = "NOTE: bikes must be locked.\nBring ID.\n"
    assert headings_in(text) == []


def test_a_station_claim_rests_on_the_hours_under_its_heading() -> None:
    windows = Windows({"s": {"text": SITES}})
    start = SITES.index("Opening hours: Monday")
    end = SITES.index("\n", start)
    claim = "The Station opens on weekdays from 07:30 to 19:00."
    assert guard(claim, SITES[start:end], windows.context_of("s", start, end)) == ""
    # the Wharf's hours stand under the other heading
    wharf = SITES.index("Opening hours: Tuesday")
    wharf_end = SITES.index("\n", wharf)
    assert guard(claim, SITES[wharf:wharf_end], windows.context_of("s", wharf, wharf_end)) != ""


def test_a_clock_time_after_a_day_is_the_claim_s_time() -> None:
    """ "Friday 07:30" reads "Friday 07" as a name; the claim's 07:30 is the window's all the same
    (not any 7 or 16 of the claim: "Friday 16:00" states no age of 16)."""
    window = "Opening hours: Monday to Friday 07:30 to 19:00, Saturday 09:00 to 17:00."
    assert guard("The shop opens at 07:30 on weekdays.", window) == ""
    assert "number 8" in guard("The shop opens at 08:30 on weekdays.", window)
    row = "| Weekend (Friday 16:00 to Monday 9:00): 220 GBP |"
    assert "number 16" in guard("Children under 16 must sit next to an adult.", row)


def test_there_lends_the_place_named_before_its_number() -> None:
    claim = "The secure cycle park at the Station costs 10.00 GBP per month for Rider members."
    assert guard(claim, PARK) == ""


def test_there_does_not_lend_another_place_s_number() -> None:
    other = (
        "The Wharf has a bike shelter with 40 spaces. Parking a bike there costs "
        "10.00 GBP per month for Rider members. The Station has a secure cycle park."
    )
    claim = "The secure cycle park at the Station costs 10.00 GBP per month for Rider members."
    assert guard(claim, other) != ""


def test_there_is_no_pointer_back() -> None:
    text = (
        "The Station has a secure cycle park with 120 spaces. There is a fee of "
        "10.00 GBP per month for Rider members at the Wharf."
    )
    claim = "The secure cycle park at the Station costs 10.00 GBP per month for Rider members."
    assert guard(claim, text) != ""
