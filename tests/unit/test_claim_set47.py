"""Rules found on held-out set 47 (corpus_diving, run 59)."""

from __future__ import annotations

from disputatio.validators.guards import guard
from disputatio.validators.tables import mixed_cells

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
