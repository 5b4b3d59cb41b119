"""Numeric answer parsing (GSM8K)."""

from __future__ import annotations

from pathlib import Path

import pytest

from disputatio.eval.numeric import gsm8k_gold
from disputatio.parsing.numbers import normalize_number, parse_number


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


def test_the_parsing_lives_below_the_harness() -> None:
    """The debate nodes parse numbers too: the parser is in parsing/, which imports no harness."""
    import ast

    from disputatio.parsing import numbers

    tree = ast.parse(Path(numbers.__file__).read_text())
    imported = [
        node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
    ] + [
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
    ]
    assert not [name for name in imported if name.startswith("disputatio.eval")]


@pytest.mark.parametrize(
    ("left", "right", "same"),
    [
        ("1,000", "1000.0", True),
        ("$18", "18.00", True),
        ("0.333333", "0.3333333", True),  # decimals within 1e-6 relative
        ("0.30000000000000004", "0.3", True),
        ("1000000", "1000001", False),  # integers compare exactly
        ("0.5", "0.6", False),
        ("-3", "3", False),
        (None, None, True),
        ("7", None, False),
    ],
)
def test_same_number(left: str | None, right: str | None, same: bool) -> None:
    from disputatio.parsing.numbers import same_number

    assert same_number(left, right) is same
    assert same_number(right, left) is same


def test_canonical_numbers_map_equal_values_to_the_first_spelling() -> None:
    from disputatio.parsing.numbers import canonical_numbers

    values = ["1,000", "7", "1000.0", None, "0.3333333", "0.333333"]
    assert canonical_numbers(values) == ["1000", "7", "1000", None, "0.3333333", "0.3333333"]


@pytest.mark.parametrize(
    ("text", "choice", "status", "pattern"),
    [
        ("3 + 4 = 7, so \\boxed{1,000}", "1000", "OK", "boxed"),
        ("Twelve apples, give or take.", None, "PARSE_FAILED", None),
        ("", None, "ERROR", None),
        ("   ", None, "ERROR", None),
        ("ERROR: timeout after 30 s", None, "ERROR", None),
        (None, None, "ERROR", None),
    ],
)
def test_parse_numeric_answer(
    text: str | None, choice: str | None, status: str, pattern: str | None
) -> None:
    from disputatio.parsing.numbers import parse_numeric_answer

    parsed = parse_numeric_answer(text)
    assert (parsed.choice, parsed.status, parsed.pattern) == (choice, status, pattern)


def test_the_cot_baseline_is_asked_for_a_boxed_number_with_single_braces() -> None:
    from disputatio.eval.baselines import run_cot
    from disputatio.eval.question import Question
    from disputatio.nodes.medrag.context import MedragContext
    from disputatio.testing import ScriptedChatModel

    model = ScriptedChatModel(script=["2 + 2 = 4. \\boxed{4}"])
    question = Question(id="g1", dataset="gsm8k", question="2 + 2?", options=[], gold="4")
    record = run_cot(question, MedragContext(models={"baseline": model}))
    assert record["answer"] == "4"
    system, user = (str(m.content) for m in model.prompts[0])
    assert "\\boxed{42}" in system and "{{" not in system
    assert "2 + 2?" in user and "\\boxed{N}" in user


def test_self_consistency_counts_equal_numbers_as_one_vote() -> None:
    from disputatio.eval.baselines import make_self_consistency
    from disputatio.eval.question import Question
    from disputatio.nodes.medrag.context import MedragContext
    from disputatio.testing import ScriptedChatModel

    # 0.3333333 and 0.333333 are one number (decimals within 1e-6): 2 votes against 1
    replies = {"sample1": "\\boxed{7}", "sample2": "\\boxed{0.3333333}", "sample3": "0.333333"}
    models = {name: ScriptedChatModel(script=[text]) for name, text in replies.items()}
    question = Question(id="g1", dataset="gsm8k", question="1/3?", options=[], gold="0.3333333")
    record = make_self_consistency(False, 3)(question, MedragContext(models=models))
    assert (record["answer"], record["consensus_type"]) == ("0.3333333", "majority_vote")
