"""Bounded field types, lenient validators and literals shared by the Tech Referee schemas.

Everything a model writes is bounded: the bounds reach the JSON schema (so grammar-constrained
local models cannot ramble past them) and longer values from other models are cut, not
rejected. :func:`capped` fits a schema's lists to a run.
"""

from __future__ import annotations

from functools import cache
from typing import Annotated, Any, Literal, TypeVar, cast, get_args

from pydantic import BaseModel, BeforeValidator, Field, create_model


def _to_int_range(lo: int, hi: int) -> BeforeValidator:
    """Round and clamp numbers into ``[lo, hi]`` (small models overshoot ranges)."""

    def clamp(value: Any) -> Any:
        if isinstance(value, int | float) and not isinstance(value, bool):
            return min(max(round(value), lo), hi)
        return value

    return BeforeValidator(clamp)


def _truncate(n: int) -> BeforeValidator:
    """Cut strings (or lists) longer than ``n`` instead of rejecting them."""
    return BeforeValidator(lambda v: v[:n] if isinstance(v, str | list) else v)


def _cut_prose(n: int) -> BeforeValidator:
    """Cut prose at its bound on a word boundary, marked "…".

    A grammar-constrained local model stops writing at the bound, mid-word ("still a valuable
    tool for diagnosing brucel"); a longer value from another model is cut there too. A value
    of the bound's length that ends a sentence is whole and kept.
    """

    def cut(value: Any) -> Any:
        if not isinstance(value, str) or len(value) < n:
            return value
        if len(value) == n and value.rstrip()[-1:] in ".!?":
            return value
        head = value[: n - 1]
        space = head.rfind(" ")
        return (head[:space] if space > n // 2 else head).rstrip(" ,;:") + "…"

    return BeforeValidator(cut)


# Bounded types for everything a model writes: the bounds reach the JSON schema (so
# grammar-constrained local models cannot ramble past them) and longer values from other
# models are cut, not rejected (prose on a word boundary, marked "…").
Name = Annotated[str, _truncate(80), Field(max_length=80)]
Text = Annotated[str, _cut_prose(300), Field(max_length=300)]
Short = Annotated[str, _cut_prose(160), Field(max_length=160)]
Ids = Annotated[
    list[Annotated[str, _truncate(40), Field(max_length=40)]], _truncate(4), Field(max_length=4)
]
Texts = Annotated[list[Short], _truncate(4), Field(max_length=4)]

#: An axis weight or a score: an integer from 1 to 10 (out-of-range replies are clamped).
OneToTen = Annotated[int, _to_int_range(1, 10), Field(ge=1, le=10)]
QuestionKind = Literal["single_choice", "multi_choice", "free_text"]
ConstraintKind = Literal["budget", "scale", "timeline", "must_have", "nice_to_have", "avoid"]
QuestionTarget = Literal[
    "options", "budget", "scale", "timeline", "must_have", "nice_to_have", "avoid", "axes", "other"
]
Verdict = Literal["confirmed", "disputed", "unverifiable"]
Confidence = Literal["high", "medium", "low"]
Phase = Literal["plan", "advocacy", "cross_examination", "verdict"]
#: The phases in the order they run.
PHASES: tuple[Phase, ...] = ("plan", "advocacy", "cross_examination", "verdict")


M = TypeVar("M", bound=BaseModel)


@cache
def capped(schema: type[M], **caps: int) -> type[M]:
    """A subclass of ``schema`` whose list fields hold at most ``caps[field]`` items.

    Used to fit an output schema to the run (e.g. one claim per axis), which keeps small
    grammar-constrained models from filling lists with repeats.
    """
    fields: dict[str, Any] = {}
    for name, n in caps.items():
        (item,) = get_args(schema.model_fields[name].annotation)  # list[X] -> X
        n = max(n, 1)
        fields[name] = (
            Annotated[list[item], _truncate(n), Field(max_length=n)],  # type: ignore[valid-type]
            Field(default_factory=list),
        )
    return cast(type[M], create_model(schema.__name__, __base__=schema, **fields))


def _to_confidence(value: Any) -> Any:
    """Read a confidence as high/medium/low: numbers (0-1 or percent) are bucketed.

    ``>= 0.75`` is high, ``>= 0.45`` medium, lower is low; strings are case-folded.
    """
    if isinstance(value, int | float) and not isinstance(value, bool):
        unit = value / 100.0 if 1.0 < value <= 100.0 else float(value)
        return "high" if unit >= 0.75 else ("medium" if unit >= 0.45 else "low")
    if isinstance(value, str):
        return value.strip().casefold()
    return value
