"""A group larger than what the evidence is for is not answered by it (i022, held-out set 24)."""

from __future__ import annotations

from disputatio.validators.measures import party_size
from disputatio.validators.relevance import number_contrast, off_question

_FOUR = "There are four of us and we'd like our own office at Ropewalk. What would that cost?"


def test_the_askers_group_size_is_read_from_the_question() -> None:
    assert party_size(_FOUR) == 4
    assert party_size("We are a group of 9 colleagues. What is the price?") == 9
    assert party_size("For a nursery group of three-year-olds, how many adults?") is None
    assert party_size("What does a private office cost?") is None


def test_an_office_for_fewer_people_does_not_answer_a_larger_group() -> None:
    small = "| Private office for 2 people | 780 GBP | 640 GBP |"
    assert number_contrast(_FOUR, small) == ("4 people", "2 people")
    assert off_question(_FOUR, "A private office at Ropewalk costs 780 GBP.", small)
    assert number_contrast(_FOUR, "| Private office for 4 people | 1,390 GBP |") is None


def test_a_room_for_more_people_or_a_range_holding_the_group_answers() -> None:
    nine = "We are a group of 9 colleagues. Which room can we book?"
    assert number_contrast(nine, "The Kingfisher Room seats 10 people.") is None
    assert number_contrast(nine, "Groups of 4 to 14 people pay 330 EUR.") is None
