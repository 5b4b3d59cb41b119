"""A claim may not take its subject from one sentence of a window and its amounts from the other."""

from __future__ import annotations

from disputatio.validators.claims import check_answer
from disputatio.validators.pairs import mixed_pair
from disputatio.validators.support import LexicalSupport

COURSES = (
    "A2 training for riders aged 19 to 23 takes 4 days and costs 760 GBP. Direct access "
    "training for riders aged 24 and over takes 5 days and costs 890 GBP including the bike."
)


def test_a_claim_mixing_the_sentences_of_a_pair_is_not_supported() -> None:
    """Set 18's f020 (the hierarchical debate, run 29): shown supported on the pair."""
    mixed = "A2 training for riders aged 19 to 23 takes 5 days and costs 890 GBP [s]."
    report = check_answer(mixed, {"s": {"text": COURSES}}, checker=LexicalSupport())
    assert report.claims[0].verdict == "unsupported"
    right = "A2 training for riders aged 19 to 23 takes 4 days and costs 760 GBP [s]."
    report = check_answer(right, {"s": {"text": COURSES}}, checker=LexicalSupport())
    assert report.claims[0].verdict == "supported"


def test_a_sentence_referring_back_is_about_the_named_thing() -> None:
    window = (
        "The Havørn-300 has a depth rating of 3,000 m and weighs 3.8 tonnes in air. It is driven "
        "by 7 electric thrusters and is connected to the vessel by a 600 m tether."
    )
    assert mixed_pair("The Havørn-300 is connected to the vessel by a 600 m tether.", window) == ""
    assert mixed_pair("Direct access training takes 5 days and costs 890 GBP.", COURSES) == ""


RENTS = (
    "| Rookwood | One bedroom | 124.00 GBP | 41.00 GBP |\n"
    "| Rookwood | Two bedrooms | 147.00 GBP | 45.00 GBP |"
)


def test_a_claim_taking_one_rows_count_and_the_other_rows_amount_is_not_supported() -> None:
    """ah008 (held-out set 33): one-bedroom's 41.00 GBP shown as the two-bedroom flat's."""
    wrong = "The monthly service charge for a two-bedroom flat at Rookwood is 41.00 GBP."
    assert "counting 2" in mixed_pair(wrong, RENTS)
    assert mixed_pair(wrong.replace("41.00", "45.00"), RENTS) == ""
    # a claim of both rows holds an amount of each
    both = "At Rookwood a one-bedroom flat is 124.00 GBP a week and a two-bedroom flat 147.00 GBP."
    assert mixed_pair(both, RENTS) == ""
    sentences = "One-bedroom flats cost 124 GBP a week. Two-bedroom flats cost 147 GBP a week."
    assert mixed_pair("Two-bedroom flats cost 124 GBP a week.", sentences) != ""
    assert mixed_pair("One-bedroom flats cost 124 GBP a week.", sentences) == ""
