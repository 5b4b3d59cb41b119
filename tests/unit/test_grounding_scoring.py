"""The grounding benchmark's scorer: a gold answer is found as words of the answer's own."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

from grounding import part_found, parts_said_not_found


def _part(answer: str, *aliases: str) -> dict[str, object]:
    return {"answer": answer, "aliases": list(aliases)}


@pytest.mark.parametrize(
    ("gold", "answer"),
    [
        ("8", "Each group has at most 8 children."),
        ("£85", "A Household Membership costs £85 a year."),
        ("15:00", "It is open from 12:00 to 15:00 on Saturdays."),
        ("0.30 EUR", "Each colour A4 side costs 0.30 EUR."),
        ("2,000 NOK", "The course costs 2 000 NOK."),
        ("A-122", "The drop-in is held in room A-122."),
    ],
)
def test_a_stated_answer_is_found(gold: str, answer: str) -> None:
    assert part_found(_part(gold), answer)


@pytest.mark.parametrize(
    "answer",
    [
        "The dog weighs 18 kg.",  # inside another number
        "The dose is 8.5 ml.",  # the whole of a decimal
        "The team is for climbers aged 12 to 17 [851fa8c8f279b5e10b46a808].",  # e029's citation
    ],
)
def test_a_number_inside_another_token_or_a_citation_is_not_found(answer: str) -> None:
    assert not part_found(_part("8"), answer)


def test_an_alias_counts_and_yes_no_reads_the_first_word() -> None:
    assert part_found(_part("8", "eight"), "Eight children at most.")
    assert part_found({"answer": "no", "yesno": True}, "No, it is not allowed; yes means…")


def test_a_debate_part_refusal_stands_for_the_part_above_it() -> None:
    """The composed answer's "The documents do not answer this part." names no part: it was
    counted for both parts of the question."""
    q = {
        "parts": [
            {"question": "When is Summer Music Week?", "answer": "August"},
            {"question": "Is lunch provided?", "answer": None},
        ]
    }
    answer = (
        "When is Summer Music Week?\nIt runs in the first week of August.\n"
        "Is lunch provided?\nThe documents do not answer this part."
    )
    claims = [
        {"text": "It runs in the first week of August.", "verdict": "supported", "dropped": False},
        {
            "text": "The documents do not answer this part.",
            "verdict": "not_found",
            "dropped": False,
        },
    ]
    assert parts_said_not_found(q, answer, claims) == {1}


def test_a_refusal_naming_no_part_stands_for_the_parts_left_unanswered() -> None:
    """am025 (held-out set 38): "The documents do not answer this part of the question." beside
    the meeting's date was counted for the date's part as well."""
    q = {
        "parts": [
            {"question": "When is the annual general meeting?", "answer": "19 October"},
            {"question": "How many members have to be there?", "answer": None},
        ]
    }
    refusal = "The documents do not answer this part of the question."
    answer = f"The annual general meeting is on Monday 19 October at 7 pm. {refusal}"
    claims = [
        {
            "text": "The annual general meeting is on Monday 19 October at 7 pm.",
            "verdict": "supported",
            "dropped": False,
        },
        {"text": refusal, "verdict": "not_found", "dropped": False},
    ]
    assert parts_said_not_found(q, answer, claims) == {1}
    # with no supported claim to tell, the line stands for both parts
    assert parts_said_not_found(q, answer, claims[1:]) == {0, 1}
