"""What kind of amount a question asks for, and whether a claim's amounts are of that kind.

"how many days" asks days (:func:`asked_unit`), "what minimum face velocity" a speed
(:func:`asked_kind`), "how many swimmers" a count of things (:func:`asked_count`).
:func:`kind_mismatch` says why a claim's amounts are of another kind than asked;
:mod:`disputatio.validators.asked` reads the rest of a question (yes or no, who, when, a
price, an age) with these.
"""

from __future__ import annotations

import re

from disputatio.validators.sentences import UNITS, stated_numbers, stem
from disputatio.validators.units import MONEY, opens_range

_QUANTITY_RE = re.compile(
    r"\bhow\s+(?:many|much|long|often|far|old|heavy|high|deep|fast|frequently)\b"
    r"|\b(?:at|above|below|under|over|after|within)\s+what\s+(?:[^\W\d_]+\s+)?"
    r"(?:rate|speed|load|weight|depth|"
    r"temperature|interval|age|time|distance|height|pressure|level|intervals)\b",
    re.I,
)
#: "How long", "how soon", "how quickly": a question asking a duration.
HOW_LONG_RE = re.compile(r"\bhow\s+(?:long|soon|quickly)\b", re.I)
_HOW_MANY_RE = re.compile(
    r"\bhow\s+many\s+(?:of\s+(?:the|my|your|our|their|its|his|her|these|those)\s+)?"
    r"([^\W\d_]+)(?:[\s-]+([^\W\d_]+))?",
    re.I,
)
_FREQUENCY_RE = re.compile(
    r"\b(?:every|each|daily|weekly|monthly|yearly|annually|hourly|once|twice|per)\b", re.I
)


def asks_quantity(question: str) -> bool:
    """Whether ``question`` asks for an amount, a duration or a frequency."""
    return bool(_QUANTITY_RE.search(question or ""))


def states_quantity(text: str) -> bool:
    """Whether ``text`` states a number or a frequency ("every 2 weeks", "monthly")."""
    return bool(stated_numbers(text)) or bool(_FREQUENCY_RE.search(text or ""))


def _how_many(question: str) -> tuple[str, str] | None:
    """The (up to) two words after "how many", case-folded ("" for a missing second)."""
    m = _HOW_MANY_RE.search(question or "")
    return (m.group(1).casefold(), (m.group(2) or "").casefold()) if m else None


def asked_unit(question: str) -> str | None:
    """The unit a "how many <unit>" question asks for (canonical, e.g. ``day``), if any.

    The unit may follow one qualifying word: "how many dive hours" asks for hours.
    """
    words = _how_many(question)
    return (UNITS.get(words[0]) or UNITS.get(words[1])) if words else None


#: Kinds of amount, by canonical unit: a question asking one kind is not answered by a claim
#: stating only amounts of another (a face velocity by "every 12 months").
_KIND_OF_UNIT = {
    **dict.fromkeys(("second", "minute", "hour", "day", "week", "month", "year"), "time"),
    **dict.fromkeys(("tonne", "kg", "g", "lb"), "weight"),
    **dict.fromkeys(("m", "km", "cm", "mm", "nm", "ft", "inch", "mile"), "length"),
    **dict.fromkeys(MONEY, "money"),
    **dict.fromkeys(("c", "f"), "temperature"),
    "knot": "speed",
    **dict.fromkeys(("gb", "mb"), "size"),
}

#: Words of a question that name the kind of amount it asks for.
_ASKED_KIND = {
    **dict.fromkeys(("velocity", "speed", "fast"), "speed"),
    **dict.fromkeys(("temperature", "hot", "cold", "warm"), "temperature"),
    **dict.fromkeys(("weight", "heavy", "mass"), "weight"),
    # not "far": "how far ahead must I book?" asks a time (p025)
    **dict.fromkeys(("depth", "deep", "height", "distance", "length", "width"), "length"),
    **dict.fromkeys(("cost", "price", "fee", "fare"), "money"),
    "duration": "time",
}

#: "what minimum face velocity", "how heavy", "what's the fee" (set 19's c003)
_KIND_RE = re.compile(r"\b(?:what|which|how)(?:['’]s)?\b((?:\s+[^\W\d_]+){1,3})", re.I)


def asked_kind(question: str) -> str | None:
    """The kind of amount a question asks for ("what minimum face velocity": speed), if named.

    A capitalised word is part of a name, not a kind: "What does a Hot Desk cost per month?"
    asks a price, not a temperature (set 24's i016, run 36: its right claim "a Hot Desk costs
    215 GBP per month" was held to answer no part).
    """
    for m in _KIND_RE.finditer(question or ""):
        for tok in m.group(1).split():
            if tok[:1].isupper():
                continue
            kind = _ASKED_KIND.get(tok.casefold())
            if kind:
                return kind
    return None


def asked_count(question: str) -> str | None:
    """The things a "how many <things>" question counts ("swimmers"), when they are no unit.

    "how many days" asks an amount of time (:func:`asked_unit`) and "how many times" a
    frequency, which "every 18 months" answers: neither is a count of things.
    """
    words = _how_many(question)
    if not words or asked_unit(question) or words[0] in ("times", "of"):
        return None  # "how many of them": the things counted were named before
    return words[0]


def kind_mismatch(question: str, claim: str) -> str:
    """Why ``claim``'s amounts are of another kind than ``question`` asks (``""`` if not).

    A count ("how many swimmers") is not answered by a claim whose every number is a measure
    (34 °C, 120 NOK): a count states its number bare or with the things counted.
    """
    counted = asked_count(question)
    numbers = stated_numbers(claim)
    measured = bool(numbers) and all(u is not None or opens_range(claim, n) for n, u in numbers)
    if counted and measured and not _counts(claim, counted):
        measures = ", ".join(sorted({str(u) for _, u in numbers if u}))
        return f"the question asks how many {counted}; the claim gives {measures}"
    kind = asked_kind(question)
    units = {u for _, u in numbers if u is not None}
    kinds = {_KIND_OF_UNIT.get(u) for u in units}
    if not units or None in kinds:
        return ""
    if not kind and HOW_LONG_RE.search(question or "") and not kinds & {"time", "length"}:
        return f"the question asks how long; the claim gives {', '.join(sorted(units))}"
    if not kind or kind in kinds:
        return ""
    return f"the question asks for a {kind}; the claim gives {', '.join(sorted(units))}"


def _counts(claim: str, counted: str) -> bool:
    """Whether ``claim`` counts ``counted`` after a number: "8 weekly sessions" (ap025, set 41)."""
    thing = stem(counted)
    return any(stem(w.casefold()) == thing for w in re.findall(r"\d\s+(?:\w+\s+)?(\w+)", claim))


def stated_kinds(text: str) -> set[str | None]:
    """The kinds of amount ``text`` states (None for a bare number or an unknown unit)."""
    return {_KIND_OF_UNIT.get(u) if u else None for _, u in stated_numbers(text)}
