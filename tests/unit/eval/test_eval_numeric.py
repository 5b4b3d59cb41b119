"""Numeric answer parsing (GSM8K)."""

from __future__ import annotations

import pytest

from disputatio.eval.numeric import gsm8k_gold, normalize_number, parse_number


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("So she makes 9 * 2 = 18 dollars. \\boxed{18}", ("18", "boxed")),
        ("first 3 then \\boxed{1,250.00} and later 7", ("1250", "boxed")),
        ("Janet sells 9 eggs.\n#### 18", ("18", "hashes")),
        ("The answer is $42.", ("42", "answer_is")),
        ("Answer: -3", ("-3", "answer_is")),
        ("4 + 5 = 9, then 9 / 2 = 4.5", ("4.5", "last_number")),
        ("I cannot tell.", (None, None)),
        ("", (None, None)),
        (None, (None, None)),
    ],
)
def test_parse_number(text: str | None, expected: tuple[str | None, str | None]) -> None:
    assert parse_number(text) == expected


def test_the_last_match_of_a_rule_wins() -> None:
    assert parse_number("The answer is 5. Wait, the answer is 6.") == ("6", "answer_is")


def test_normalisation_makes_equal_values_equal_strings() -> None:
    assert normalize_number("$1,000.50") == "1000.5"
    assert normalize_number("18.00") == "18"
    assert normalize_number("0.50") == "0.5"
    assert normalize_number("abc") is None


def test_gsm8k_gold() -> None:
    assert gsm8k_gold("She makes 9 * 2 = $<<9*2=18>>18.\n#### 18") == "18"
    assert gsm8k_gold("#### 1,000") == "1000"
    with pytest.raises(ValueError):
        gsm8k_gold("no marker")


def test_gsm8k_questions_carry_the_number_and_never_the_worked_solution() -> None:
    from disputatio.eval.datasets import numeric_questions

    solution = "She has 16 - 3 - 4 = <<16-3-4=9>>9 eggs, 9 * 2 = $<<9*2=18>>18.\n#### 18"
    doc = {"id": 7, "question": "Janet's ducks lay 16 eggs...", "answer": solution}
    records = [
        {"doc_id": 7, "idx": 0, "doc": doc, "request": {"context": "Q: ...", "continuation": x}}
        for x in (" 18", " 19")  # one document, two requests
    ]
    (q,) = numeric_questions(records, "gsm8k")
    assert (q.id, q.gold, q.options) == ("gsm8k:7", "18", [])
    assert "<<" not in q.question and "####" not in q.question
