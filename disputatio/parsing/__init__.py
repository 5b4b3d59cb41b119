"""Robust parsing of model output: multiple-choice, yes/no/maybe and numeric answers."""

from disputatio.parsing.answers import (
    AnswerStatus,
    Options,
    ParsedAnswer,
    majority_vote,
    parse_answer,
)
from disputatio.parsing.numbers import (
    canonical_numbers,
    normalize_number,
    parse_number,
    parse_numeric_answer,
    same_number,
)

__all__ = [
    "AnswerStatus",
    "Options",
    "ParsedAnswer",
    "canonical_numbers",
    "majority_vote",
    "normalize_number",
    "parse_answer",
    "parse_number",
    "parse_numeric_answer",
    "same_number",
]
