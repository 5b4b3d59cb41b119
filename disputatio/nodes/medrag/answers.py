r"""What an answer of the MedRAG-style debate is: an option label, or a free number.

A question with options is answered with one of them (:func:`~disputatio.parsing.answers.
parse_answer`). A question whose input says ``answer_mode="numeric"`` (GSM8K-style: no options;
the harness sets it for every question without options) is answered with a number in
``\boxed{N}``, parsed with
:func:`~disputatio.parsing.numbers.parse_numeric_answer`; two answers agree when they are the
same number (``1,000`` and ``1000.0``; decimals within a small tolerance, see
:func:`~disputatio.parsing.numbers.same_number`), and votes count equal numbers together.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from disputatio.errors import ConfigError
from disputatio.parsing.answers import ParsedAnswer, parse_answer
from disputatio.parsing.numbers import canonical_numbers, parse_numeric_answer, same_number
from disputatio.state.medrag import ANSWER_MODES, AnswerMode


def resolve_answer_mode(answer_mode: Any) -> AnswerMode:
    """The answer mode of an input: as given, else ``options``.

    Numeric mode is asked for explicitly: an input that merely lacks its options stays an
    options question (and ``prepare`` refuses it), so a caller who forgot the options does not
    get a silent numeric debate.

    Raises:
        ConfigError: If ``answer_mode`` is not one of :data:`~disputatio.state.medrag.
            ANSWER_MODES`.
    """
    if answer_mode is None:
        return "options"
    if answer_mode not in ANSWER_MODES:
        raise ConfigError(f"unknown answer_mode {answer_mode!r}; known: {', '.join(ANSWER_MODES)}")
    return "numeric" if answer_mode == "numeric" else "options"


def is_numeric(payload: Mapping[str, Any]) -> bool:
    """Whether a state or ``Send`` payload is in numeric mode.

    A checkpoint from before the mode existed has no ``answer_mode``: an options question.
    """
    return resolve_answer_mode(payload.get("answer_mode")) == "numeric"


def parse_reply(text: str, options: Any, *, numeric: bool) -> ParsedAnswer:
    """Parse a reply: a number in numeric mode, else an option. An empty reply is ``ERROR``."""
    if numeric:
        return parse_numeric_answer(text)
    if not text.strip():
        return ParsedAnswer(None, "ERROR", None, "empty reply")
    return parse_answer(text, options)


def comparable(choices: Sequence[str | None], *, numeric: bool) -> list[str | None]:
    """``choices`` as they are compared: equal numbers spelled alike in numeric mode."""
    return canonical_numbers(choices) if numeric else list(choices)


def same_answer(left: str | None, right: str | None, *, numeric: bool) -> bool:
    """Whether two answers are the same (the same number, in numeric mode)."""
    return same_number(left, right) if numeric else left == right
