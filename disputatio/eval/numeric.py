r"""Numeric answers (GSM8K): parse a number out of free text and compare numbers.

Rules, first match wins, and within a rule the LAST match (models restate their answer):

1. ``boxed``: ``\boxed{42}``;
2. ``hashes``: GSM8K's ``#### 42``;
3. ``answer_is``: ``the answer is 42``, ``Answer: 42``, ``Final answer: $42``;
4. ``last_number``: the last number anywhere in the text.

Numbers may carry ``$``, thousands separators and a trailing ``.``/``%``; they are normalised
(``1,000.00`` → ``1000``, ``0.50`` → ``0.5``, ``-3`` stays ``-3``) so that equal values compare
equal as strings.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

from disputatio.eval.question import Question

_NUM = r"-?\$?\s*\d[\d,]*(?:\.\d+)?|-?\$?\s*\.\d+"
_NUMBER_RE = re.compile(_NUM)
_RULES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("boxed", re.compile(r"\\boxed\s*\{\s*(?:\\text\{)?\s*(" + _NUM + r")")),
    ("hashes", re.compile(r"####\s*(" + _NUM + r")")),
    (
        "answer_is",
        re.compile(
            r"(?:answer\s*(?:is|would\s+be)?\s*[:：]?|^\s*answer\s*[:：])\s*\**\s*(" + _NUM + r")",
            re.I | re.M,
        ),
    ),
)

#: System prompt of numeric questions (GSM8K): short reasoning, then a boxed number.
NUMERIC_SYSTEM = (
    "You are a careful math tutor. Solve the problem in a few short steps, then end your reply "
    "with the final number in a box, e.g. \\boxed{{42}}."
)
#: User prompt of numeric questions.
NUMERIC_USER = "Problem: {question}\n\nSolve it, then write the final number as \\boxed{{N}}."


def normalize_number(raw: str) -> str | None:
    """Canonical string of a number (``$1,000.50`` → ``1000.5``), None if it is not one."""
    text = raw.replace("$", "").replace(",", "").replace(" ", "").rstrip(".%")
    try:
        value = Decimal(text)
    except InvalidOperation:
        return None
    if value == value.to_integral_value():
        return str(int(value))
    return format(value.normalize(), "f")


def parse_number(text: str | None) -> tuple[str | None, str | None]:
    """``(normalised number, rule name)`` of the answer in ``text``; ``(None, None)`` if none."""
    if not isinstance(text, str) or not text.strip():
        return None, None
    for name, pattern in _RULES:
        matches = pattern.findall(text)
        if matches:
            return normalize_number(matches[-1]), name
    numbers = _NUMBER_RE.findall(text)
    if numbers:
        return normalize_number(numbers[-1]), "last_number"
    return None, None


def gsm8k_gold(answer: str) -> str:
    """The gold number of a GSM8K solution (the part after ``####``).

    Raises:
        ValueError: If the solution has no ``#### N`` line.
    """
    match = re.search(r"####\s*(" + _NUM + ")", answer)
    value = normalize_number(match.group(1)) if match else None
    if value is None:
        raise ValueError(f"no '#### N' in GSM8K answer {answer[-60:]!r}")
    return value


def is_numeric(question: Question) -> bool:
    """Whether ``question`` is answered with a number (it has no options)."""
    return not question.options
