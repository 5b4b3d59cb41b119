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


PARKS = (
    "RAVENSHOLT PARKS: SITE RULES\nInvented content: written for a test data set.\n\n"
    "OUR PARKS\n\nWe run the Heronmere park by the lake and the Thornbeck park in the forest.\n\n"
    "FIRES AND BARBECUES\n\n"
    "Open fires are not allowed at Heronmere.\n"
    "Firewood is sold at Thornbeck reception for 7 GBP a bag.\n"
    "Gas barbecues are allowed at both parks.\n"
)


def test_neither_a_pair_s_other_sentence_nor_a_lead_lends_a_sentence_naming_its_own_place() -> None:
    """s014 (held-out set 22): Thornbeck's firewood is not Heronmere's, whether "both parks"
    stands in the next sentence or Heronmere in the first sentence under the heading."""
    windows = Windows({"p": {"text": PARKS}})
    claim = "The Heronmere shop sells firewood for 7 GBP a bag."
    wins = windows.items["p"]
    held = [k for k, w in enumerate(wins) if "Firewood" in w[2]]
    assert len(held) >= 3  # the sentence, its two pairs (and clauses)
    for k in held:
        assert guard(claim, wins[k][2], windows.contexts["p"][k]) != ""
    # the same lead is lent to a sentence naming nothing of its own
    bare = PARKS.replace("at Thornbeck reception ", "")
    windows = Windows({"p": {"text": bare}})
    start = bare.index("Firewood")
    assert "heronmere" in windows.context_of("p", start, bare.index("\n", start))
