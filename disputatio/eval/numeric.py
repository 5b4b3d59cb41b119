r"""Numeric questions (GSM8K): the gold number, the baselines' prompts, and numeric parsing.

Parsing and comparison live in :mod:`disputatio.parsing.numbers` (the debate nodes use them
too; they must not import the harness) and are re-exported here: ``\boxed{42}`` first, then
GSM8K's ``#### 42``, ``the answer is 42``, and the last number in the text; numbers are
normalised (``1,000.00`` → ``1000``) so that equal values compare equal as strings.
"""

from __future__ import annotations

import re

from disputatio.eval.question import Question
from disputatio.parsing.numbers import (
    NUMBER_PATTERN,
    canonical_numbers,
    normalize_number,
    parse_number,
    parse_numeric_answer,
    same_number,
)

__all__ = [
    "NUMERIC_SYSTEM",
    "NUMERIC_USER",
    "canonical_numbers",
    "gsm8k_gold",
    "is_numeric",
    "normalize_number",
    "parse_number",
    "parse_numeric_answer",
    "same_number",
]

#: System prompt of numeric questions (GSM8K): short reasoning, then a boxed number.
NUMERIC_SYSTEM = (
    "You are a careful math tutor. Solve the problem in a few short steps, then end your reply "
    "with the final number in a box, e.g. \\boxed{{42}}."
)
#: User prompt of numeric questions.
NUMERIC_USER = "Problem: {question}\n\nSolve it, then write the final number as \\boxed{{N}}."


def gsm8k_gold(answer: str) -> str:
    """The gold number of a GSM8K solution (the part after ``####``).

    Raises:
        ValueError: If the solution has no ``#### N`` line.
    """
    match = re.search(r"####\s*(" + NUMBER_PATTERN + ")", answer)
    value = normalize_number(match.group(1)) if match else None
    if value is None:
        raise ValueError(f"no '#### N' in GSM8K answer {answer[-60:]!r}")
    return value


def is_numeric(question: Question) -> bool:
    """Whether ``question`` is answered with a number (it has no options)."""
    return not question.options
