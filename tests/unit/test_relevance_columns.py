"""A row's figure from another column than the one the question names is set aside (i028)."""

from __future__ import annotations

from disputatio.validators.bands import asked_column
from disputatio.validators.claims import check_answer
from disputatio.validators.support import LexicalSupport

_ROW = (
    "| Room: Vat House | Site: Tannery | Seats: 14 | Member rate per hour: 28 GBP | "
    "Non-member rate per hour: 45 GBP |"
)
_NOT_MEMBERS = "We're not members but want to hire the Vat House. What's the hourly rate?"


def test_a_members_figure_does_not_answer_a_non_member() -> None:
    claim = "The hourly rate for the Vat House is {} GBP."
    assert "Non-member" in asked_column(_NOT_MEMBERS, claim.format(28), _ROW)
    assert asked_column(_NOT_MEMBERS, claim.format(45), _ROW) == ""
    member = "I am a member. What is the hourly rate of the Vat House?"
    assert asked_column(member, claim.format(45), _ROW)
    assert asked_column(member, claim.format(28), _ROW) == ""


def test_a_question_naming_no_column_or_both_leaves_the_figure() -> None:
    claim = "The hourly rate for the Vat House is 28 GBP."
    assert asked_column("What is the hourly rate of the Vat House?", claim, _ROW) == ""
    both = "What do members and non-members pay per hour for the Vat House?"
    assert asked_column(both, claim, _ROW) == ""


def test_the_quick_paths_check_sets_the_other_columns_figure_aside() -> None:
    table = (
        "| Room | Site | Seats | Member rate per hour | Non-member rate per hour |\n"
        "|---|---|---|---|---|\n| Vat House | Tannery | 14 | 28 GBP | 45 GBP |\n"
    )
    sections = {"s1": {"text": table, "title": "Meeting rooms"}}
    answer = "The member rate per hour for the Vat House is 28 GBP [s1]."
    asked = check_answer(answer, sections, checker=LexicalSupport(), question=_NOT_MEMBERS)
    plain = check_answer(answer, sections, checker=LexicalSupport())
    assert plain.claims[0].verdict == "supported" and not plain.claims[0].dropped
    assert asked.not_found
