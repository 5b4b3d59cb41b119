"""A claim may name a thing by what another shown clause pairs it with (o023, held-out set 23)."""

from __future__ import annotations

import pytest

from disputatio.validators.aliases import bridges, defining_clauses
from disputatio.validators.claims import check_answer
from disputatio.validators.support import LexicalSupport

ROUTES = (
    "Brindle Sound Ferries runs two routes from Pellmouth. The Gullholm route crosses to "
    "Gullholm Slip on the MV Eider, and the Saltwick route crosses to Saltwick Pier on the MV "
    "Halcyon."
)
COMPARED = (
    "Both boats carry vehicles, but the MV Eider on the Gullholm route is much smaller than "
    "the MV Halcyon on the Saltwick route."
)
BIKES = (
    "Bicycles travel free on both routes. The MV Eider has space for 8 bicycles per sailing. "
    "The MV Halcyon has space for 20 bicycles per sailing."
)


def _verdict(claim: str, *texts: str) -> str:
    sections = {f"s{i}": {"text": text} for i, text in enumerate(texts)}
    sections["b"] = {"text": BIKES}
    report = check_answer(f"{claim} [b].", sections, checker=LexicalSupport())
    return report.claims[0].verdict


@pytest.mark.parametrize(
    ("claim", "supported"),
    [
        ("The Gullholm boat has space for 8 bicycles per sailing", True),
        ("The Saltwick boat has space for 8 bicycles per sailing", False),  # the other boat's
        ("The Gullholm boat has space for 20 bicycles per sailing", False),
        ("The Saltwick boat has space for 20 bicycles per sailing", True),
    ],
)
def test_a_shown_clause_pairing_two_names_lets_a_claim_use_either(
    claim: str, supported: bool
) -> None:
    assert (_verdict(claim, ROUTES) == "supported") is supported
    # without the clause that pairs them, the route's name is not in the section
    assert _verdict(claim) != "supported"


def test_a_comparison_pairs_nothing() -> None:
    """ "the MV Eider on the Gullholm route is much smaller than the MV Halcyon …" pairs four."""
    assert defining_clauses([COMPARED]) == []
    for claim in (
        "The Gullholm boat has space for 8 bicycles per sailing",
        "The Saltwick boat has space for 8 bicycles per sailing",
    ):
        assert _verdict(claim, COMPARED) != "supported"


@pytest.mark.parametrize(
    "text",
    [
        "Staff travelling to Bergen or Oslo book through the Travel Desk.",
        "The daily allowance in Bergen is 910 NOK in Oslo.",  # a figure: no definition
        "Unlike Bergen, Oslo has its own Travel Desk.",
    ],
)
def test_names_set_side_by_side_define_nothing(text: str) -> None:
    clauses = defining_clauses([text])
    assert not bridges(
        "The daily allowance in Oslo is 910 NOK.",
        "The allowance in Bergen is 910 NOK.",
        "",
        clauses,
    )


def test_a_bridge_needs_every_name_the_window_adds() -> None:
    clauses = defining_clauses([ROUTES])
    claim = "The Gullholm boat leaves at 07:00."
    assert bridges(claim, "The MV Eider leaves at 07:00.", "", clauses)
    # Pellmouth is in no clause with Gullholm: the window names more than the clause pairs
    assert not bridges(claim, "The MV Eider leaves Pellmouth at 07:00.", "", clauses)
    # a claim naming nothing the window lacks needs no bridge
    assert not bridges(
        "The MV Eider leaves at 07:00.", "The MV Eider leaves at 07:00.", "", clauses
    )
