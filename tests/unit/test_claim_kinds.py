"""A window saying "both hotels" or "either site" names each hotel or site the sections name."""

from __future__ import annotations

from disputatio.validators.guards import guard
from disputatio.validators.kinds import kind_names, members, quantified
from disputatio.validators.windows import Windows

HOTELS = (
    "We run two hotels: the Harbour hotel on the quay and the Old Town hotel by the market. "
    "At check-in, both hotels take a pre-authorisation of 50 GBP per night for extras."
)
FLEET = (
    "| Bike | Site | Full day |\n|---|---|---|\n| Electric bike | Station | 38.00 GBP |\n"
    "| City bike | Wharf | 18.00 GBP |\n\nItems left at either site are kept for 30 days."
)


def test_the_names_of_a_kind_come_from_before_its_noun_and_from_its_column() -> None:
    assert quantified("both hotels take a pre-authorisation") == {"hotel"}
    assert members("hotel", [HOTELS]) == {"harbour", "old", "town"}
    assert members("site", ["| Bike: Electric bike | Site: Station | Full day: 38.00 GBP |"]) == {
        "station"
    }
    assert kind_names("The hotel takes 50 GBP.", [HOTELS]) == ""


def test_a_claim_about_one_hotel_rests_on_a_sentence_about_both() -> None:
    windows = Windows({"h": {"text": HOTELS}})
    both = HOTELS.index("At check-in")
    k = next(i for i, w in enumerate(windows.items["h"]) if w[0] == both and w[1] == len(HOTELS))
    claim = "The Harbour hotel takes a pre-authorisation of 50 GBP per night."
    assert guard(claim, windows.items["h"][k][2]) != ""  # alone, the sentence names no hotel
    assert guard(claim, windows.items["h"][k][2], windows.contexts["h"][k]) == ""


def test_a_site_of_the_table_is_one_of_either_site() -> None:
    windows = Windows({"f": {"text": FLEET}})
    either = FLEET.index("Items left")
    k = next(i for i, w in enumerate(windows.items["f"]) if w[0] == either and w[1] == len(FLEET))
    assert "station" in windows.contexts["f"][k]
    assert (
        guard("The Station keeps lost items for 30 days.", FLEET[either:], windows.contexts["f"][k])
        == ""
    )
    # a place the sections do not name as a site is not one of them
    assert (
        guard("The Depot keeps lost items for 30 days.", FLEET[either:], windows.contexts["f"][k])
        != ""
    )
