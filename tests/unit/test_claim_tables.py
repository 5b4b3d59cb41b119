"""A table row is read with its column headers; a claim's figure keeps its own column.

Held-out set 17 (e010): "A single entry costs 120 NOK for seniors" was refused because the row
"| Seniors aged 65 and over | 120 NOK | 980 NOK |" never says "single entry": the header row,
two lines up, does.
"""

from __future__ import annotations

import pytest

from disputatio.validators.guards import guard
from disputatio.validators.sentences import split_sentences
from disputatio.validators.support import LexicalSupport
from disputatio.validators.tables import other_cell, other_column, readings, unnamed_row
from disputatio.validators.windows import Windows

TABLE = (
    "## Single entry and 10-visit cards\n\n"
    "| Age band | Single entry | 10-visit card |\n"
    "|---|---|---|\n"
    "| Adults aged 18 to 64 | 180 NOK | 1,500 NOK |\n"
    "| Seniors aged 65 and over | 120 NOK | 980 NOK |\n\n"
    "A single entry gives access to both halls on the same day.\n"
)
SENIORS = "| Seniors aged 65 and over | 120 NOK | 980 NOK |"


def test_body_rows_are_read_with_their_headers() -> None:
    spans = split_sentences(TABLE)
    read = readings(spans)
    by_text = {s.sentence: read.get((s.start, s.end)) for s in spans}
    assert by_text[SENIORS] == (
        "| Age band: Seniors aged 65 and over | Single entry: 120 NOK | 10-visit card: 980 NOK |"
    )
    # the header, the separator and prose are not body rows
    assert by_text["| Age band | Single entry | 10-visit card |"] is None
    assert by_text["|---|---|---|"] is None
    assert by_text["A single entry gives access to both halls on the same day."] is None


def test_rows_without_a_header_in_the_section_stay_as_they_are() -> None:
    # a long table split between sections: the second one starts with body rows
    assert readings(split_sentences(SENIORS + "\n| Children | 90 NOK | 720 NOK |\n")) == {}


def test_the_evidence_is_the_row_itself_and_its_header_counts() -> None:
    windows = Windows({"s": {"text": TABLE}})
    claim = "A single entry for seniors aged 65 and over costs 120 NOK."
    evidence, reason, _ = windows.best(claim, ["s"], LexicalSupport(0.7))
    assert reason == ""
    (ev,) = evidence
    assert ev.sentence == SENIORS == TABLE[ev.start : ev.end]
    # without the header the row does not carry "single entry"
    rows = "| Adults aged 18 to 64 | 180 NOK | 1,500 NOK |\n" + SENIORS
    bare, _, _ = Windows({"s": {"text": rows}}).best(claim, ["s"], LexicalSupport(0.7))
    assert bare == []


@pytest.mark.parametrize(
    ("claim", "refused"),
    [
        ("A 10-visit card for seniors costs 120 NOK.", True),
        ("For adults a single entry costs 1,500 NOK.", True),
        ("A single entry for seniors costs 120 NOK.", False),
        ("A 10-visit card for seniors costs 980 NOK.", False),
        ("Seniors aged 65 and over pay 120 NOK.", False),  # names no column
    ],
)
def test_a_figure_keeps_its_column(claim: str, refused: bool) -> None:
    spans = split_sentences(TABLE)
    read = readings(spans)
    row = next(r for r in read.values() if ("1,500" in claim) == ("Adults" in r))
    assert bool(other_column(claim, row)) is refused
    assert bool(guard(claim, row)) is refused


def test_a_figures_column_is_named_by_any_word_of_its_label() -> None:
    """ "open to guests aged 16 and over": the 16 is the age rule's, not the hours' (l041)."""
    row = (
        "| Facility: Gym | Hotel: Harbour | Opening hours: 06:00 to 22:00 "
        "| Age rules: 16 and over |"
    )
    assert not other_column("The gym at the Harbour hotel is open to guests aged 16 and over.", row)
    assert other_column("The gym at the Harbour hotel is open from 16 and over.", row)


ENCOUNTERS = (
    "| Encounter | Site | Minimum age | Length | Price |\n"
    "|---|---|---|---|---|\n"
    "| Meet the Meerkats | Larchfield Park | 5 | 15 minutes | 30 GBP |\n"
    "| Under 3s | Larchfield Park | 0 | 10 minutes | 12 GBP |\n"
)


@pytest.mark.parametrize(
    ("claim", "refused"),
    [
        # held-out set 21, w007: the judge lifted it on the meerkats' row
        ("The Larchfield Park car park costs 30 GBP for the day.", True),
        ("Meeting the meerkats costs 30 GBP.", False),
        ("The meerkat encounter at Larchfield Park lasts 15 minutes.", False),
        ("The car park at Larchfield Park is free.", False),  # takes no figure from the row
    ],
)
def test_a_row_lends_its_figures_only_to_what_it_names(claim: str, refused: bool) -> None:
    raw = ENCOUNTERS.splitlines()[2]
    (read, _) = readings(split_sentences(ENCOUNTERS)).values()
    for row in (raw, read):  # a row as the records show it, and as the checker reads it
        assert bool(unnamed_row(claim, row)) is refused
        assert bool(guard(claim, row)) is refused


def test_a_row_whose_key_is_a_figure_or_a_claim_going_on_is_not_asked_for_its_name() -> None:
    youngest = ENCOUNTERS.splitlines()[3]
    assert unnamed_row("A visit for the youngest costs 12 GBP.", youngest) == ""
    # "It" goes on about what the sentence before names (the Complete package, set 18)
    meerkats = ENCOUNTERS.splitlines()[2]
    assert unnamed_row("It costs 30 GBP.", meerkats)
    assert guard("It costs 30 GBP.", meerkats) == ""


HIRE = (
    "| Item | Site | Per hour | Per day | Deposit |\n"
    "|---|---|---|---|---|\n"
    "| Adult mountain bike | Thornbeck | 8 GBP | 28 GBP | 14 GBP |\n"
)


@pytest.mark.parametrize(
    ("claim", "refused"),
    [
        # held-out set 22, s036: the "Per day" price given to half a day
        ("Hiring an adult mountain bike for half a day costs 28 GBP.", True),
        ("A half-day hire of an adult mountain bike costs 28 GBP.", True),
        ("Hiring an adult mountain bike for a day costs 28 GBP.", False),
        ("Hiring an adult mountain bike costs 8 GBP per hour.", False),
    ],
)
def test_half_a_unit_is_an_amount_the_row_must_state(claim: str, refused: bool) -> None:
    (read,) = readings(split_sentences(HIRE)).values()
    assert bool(guard(claim, read)) is refused
    half = "| Adult mountain bike | Half day: 18 GBP | Per day: 28 GBP |"
    assert not guard("Hiring an adult mountain bike for half a day costs 18 GBP.", half)


FARES = "| Adult single | 6.50 GBP | 14.00 GBP |\n| Adult return | 11.00 GBP | 24.00 GBP |"


@pytest.mark.parametrize(
    ("claim", "refused"),
    [
        ("The return fare for each adult is 14.00 GBP.", True),  # o001, held-out set 23
        ("The return fare for each adult is 24.00 GBP.", False),
        ("An adult single costs 14.00 GBP.", False),
        ("An adult ticket costs 14.00 GBP.", False),  # names neither row apart: the score's
    ],
)
def test_a_window_of_two_rows_keeps_each_figure_in_its_row(claim: str, refused: bool) -> None:
    assert bool(unnamed_row(claim, FARES)) is refused


def test_a_name_and_a_figure_from_two_columns_of_one_kind_are_refused() -> None:
    """l039 (held-out set 26): the 24 hours are the Harbour hotel's, Tollgate the Old Town's."""
    row = (
        "| Topic: Parking | Harbour hotel: hotel car park, 24 spaces, 15 GBP per 24 hours "
        "| Old Town hotel: Tollgate car park, 9 GBP per day |"
    )
    assert "Old Town hotel" in other_cell("The Tollgate car park is open 24 hours a day.", row)
    assert not other_cell("The Tollgate car park costs 9 GBP per day.", row)
    gym = "| Facility: Gym | Hotel: Harbour | Age rules: 16 and over |"
    assert not other_cell("The gym at the Harbour hotel is for guests aged 16 and over.", gym)


def test_an_e_bike_names_the_electric_bike_row() -> None:
    """ac004 (held-out set 28): "an e-bike" is the row "Electric bike"; a tandem is not."""
    row = "| Bike: Electric bike | Site: Station | Full day: 38.00 GBP | Deposit: 150 GBP |"
    assert unnamed_row("Hiring an e-bike for a full day costs 38.00 GBP.", row) == ""
    assert unnamed_row("Hiring a tandem for a full day costs 38.00 GBP.", row)


SKIS = (
    "| Snowboard and boots | 40 EUR | Boots can be exchanged free of charge. |\n"
    "| Touring skis with skins | 58 EUR | Only rented out at the Valley Shop. |"
)


@pytest.mark.parametrize(
    ("claim", "refused"),
    [
        ("Renting touring boots for one day costs 40 EUR.", True),  # w014, held-out set 10
        ("Renting a snowboard and boots for one day costs 40 EUR.", False),
        ("A snowboard with boots costs 40 EUR and touring skis cost 58 EUR.", False),
    ],
)
def test_a_claim_mixing_two_rows_keys_takes_figures_of_both(claim: str, refused: bool) -> None:
    assert bool(unnamed_row(claim, SKIS)) is refused


def test_a_table_row_is_one_sentence_its_cells_full_stops_too() -> None:
    """av002 (held-out set 47): a cell ending "." did not end the row's sentence before."""
    text = "| Facility | Pool | Quarry |\n|---|---|---|\n" + SKIS
    rows = [s.sentence for s in split_sentences(text)]
    assert SKIS.splitlines()[0] in rows and SKIS.splitlines()[1] in rows
