r"""Numeric questions (GSM8K): the gold number, the baselines' prompts, and numeric parsing.

Parsing and comparison of numeric answers live in :mod:`disputatio.parsing.numbers` (the
debate nodes use them too; they must not import the harness): import them from there.
"""

from __future__ import annotations

import re

from disputatio.eval.question import Question
from disputatio.parsing.numbers import NUMBER_PATTERN, normalize_number

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
