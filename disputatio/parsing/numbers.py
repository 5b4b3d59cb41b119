r"""Numeric answers (GSM8K-style): parse a number out of free text and compare numbers.

Rules, first match wins, and within a rule the LAST match (models restate their answer):

1. ``boxed``: ``\boxed{42}``;
2. ``hashes``: GSM8K's ``#### 42``;
3. ``answer_is``: ``the answer is 42``, ``Answer: 42``, ``Final answer: $42``;
4. ``last_number``: the last number anywhere in the text.

Numbers may carry ``$``, thousands separators and a trailing ``.``/``%``; they are normalised
(``1,000.00`` → ``1000``, ``0.50`` → ``0.5``, ``-3`` stays ``-3``) so that equal values compare
equal as strings. :func:`same_number` adds a tolerance for decimals (float noise, digits of a
repeating fraction); :func:`canonical_numbers` maps numbers equal within it to one spelling, so
agreement checks and majority votes can count them together.

This module sits below the nodes and the evaluation harness: both import it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from decimal import Decimal, InvalidOperation

from disputatio.parsing.answers import ParsedAnswer

#: One number as models write it (sign, ``$``, thousands separators, decimals).
NUMBER_PATTERN = r"-?\$?\s*\d[\d,]*(?:\.\d+)?|-?\$?\s*\.\d+"
_NUMBER_RE = re.compile(NUMBER_PATTERN)
_RULES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("boxed", re.compile(r"\\boxed\s*\{\s*(?:\\text\{)?\s*(" + NUMBER_PATTERN + r")")),
    ("hashes", re.compile(r"####\s*(" + NUMBER_PATTERN + r")")),
    (
        "answer_is",
        re.compile(
            r"(?:answer\s*(?:is|would\s+be)?\s*[:：]?|^\s*answer\s*[:：])\s*\**\s*("
            + NUMBER_PATTERN
            + r")",
            re.I | re.M,
        ),
    ),
)
# the error markers of :func:`disputatio.parsing.answers.parse_answer` ("ERROR: timeout 30s"
# must not be read as the number 30)
_ERROR_RE = re.compile(r"\s*(?:ERROR\b|(?i:\[error\]|error\s*:))")

#: Relative tolerance of :func:`same_number` for decimals (integers compare exactly).
REL_TOL = Decimal("1e-6")
#: Absolute tolerance of :func:`same_number` for decimals near zero.
ABS_TOL = Decimal("1e-9")


def normalize_number(raw: str) -> str | None:
    """Canonical string of a number (``$1,000.50`` → ``1000.5``), None if it is not one."""
    text = raw.replace("$", "").replace(",", "").replace(" ", "").rstrip(".%")
    try:
        value = Decimal(text)
    except InvalidOperation:
        return None
    if not value.is_finite():
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


def parse_numeric_answer(text: str | None) -> ParsedAnswer:
    """A numeric reply as a :class:`~disputatio.parsing.answers.ParsedAnswer`.

    ``choice`` is the normalised number. Statuses as for options: ``ERROR`` for a non-string,
    an empty reply or an error marker, ``PARSE_FAILED`` when the text holds no number.
    """
    if not isinstance(text, str):
        return ParsedAnswer(None, "ERROR", None, None)
    if not text.strip():
        return ParsedAnswer(None, "ERROR", None, "empty reply")
    if _ERROR_RE.match(text):
        return ParsedAnswer(None, "ERROR", None, text.strip()[:80])
    number, rule = parse_number(text)
    if number is None:
        return ParsedAnswer(None, "PARSE_FAILED", rule, None)
    return ParsedAnswer(number, "OK", rule, number)


def same_number(left: str | None, right: str | None) -> bool:
    """Whether two numbers are equal: exactly for integers, within the tolerance for decimals.

    ``"1,000"`` and ``"1000.0"`` are the same number; ``"0.333333"`` and ``"0.3333333"`` too
    (relative difference below :data:`REL_TOL`); ``"1000000"`` and ``"1000001"`` are not.
    Anything that is not a number equals only the same string.
    """
    if left is None or right is None:
        return left is right
    a, b = normalize_number(left), normalize_number(right)
    if a is None or b is None:
        return left == right
    if a == b:
        return True
    x, y = Decimal(a), Decimal(b)
    if x == x.to_integral_value() and y == y.to_integral_value():
        return False
    return abs(x - y) <= max(ABS_TOL, REL_TOL * max(abs(x), abs(y)))


def canonical_numbers(values: Sequence[str | None]) -> list[str | None]:
    """``values`` with each number replaced by the first earlier one it equals (same order).

    Non-numbers and None pass through unchanged. ``["1,000", "1000.0", "7"]`` →
    ``["1000", "1000", "7"]``.
    """
    seen: list[str] = []
    out: list[str | None] = []
    for value in values:
        if value is None:
            out.append(None)
            continue
        norm = normalize_number(value)
        if norm is None:
            out.append(value)
            continue
        match = next((s for s in seen if same_number(s, norm)), None)
        if match is None:
            seen.append(norm)
            match = norm
        out.append(match)
    return out
