"""Units: their spellings, each mapped to one canonical unit ("hrs", "hours" → ``hour``).

Numbers are compared with their units (:func:`disputatio.validators.sentences.stated_numbers`),
so "3 months" and "3 mo" agree and "3 days" does not.
"""

from __future__ import annotations

import re

#: Unit spellings → one canonical unit.
UNITS: dict[str, str] = {}
for _canon, _spellings in {
    "second": "s sec secs second seconds",
    "minute": "min mins minute minutes",
    "hour": "h hr hrs hour hours",
    "day": "d day days",
    "week": "wk wks week weeks weekly",
    "month": "mo month months monthly",
    "year": "yr yrs year years annually yearly annual",
    "tonne": "t tonne tonnes ton tons",
    "kg": "kg kgs kilogram kilograms kilo kilos",
    "g": "g gram grams",
    "m": "m metre metres meter meters",
    "km": "km kilometre kilometres kilometer kilometers",
    "cm": "cm centimetre centimetres",
    "mm": "mm millimetre millimetres",
    "nm": "nm nautical",
    "nok": "nok kr krone kroner",
    "eur": "eur € euro euros",
    "usd": "usd $ dollar dollars",
    "gbp": "gbp £ pound pounds",
    "c": "°c c celsius degrees",
    "percent": "% percent per-cent",
    "bar": "bar bars",
    "knot": "kn kt knot knots",
    "gb": "gb gigabyte gigabytes",
    "mb": "mb megabyte megabytes",
    "v": "v volt volts",
    "w": "w watt watts",
    "l": "l litre litres liter liters",
    "person": "person persons people",
    "ft": "ft feet foot",
    "inch": "inch inches",
    "lb": "lb lbs",
    "mile": "mi mile miles",
    "f": "°f fahrenheit",
    "hz": "hz hertz",
    "s/m": "s/m",
    "ms/cm": "ms/cm",
    "hp": "hp horsepower",
    "kw": "kw kilowatt kilowatts",
    "kn": "kn kilonewton kilonewtons",
    "character": "character characters chars",
}.items():
    for _spelling in _spellings.split():
        UNITS[_spelling] = _canon

#: The canonical units of money.
MONEY = frozenset(("nok", "eur", "usd", "gbp"))

_MONEY_WORDS = "|".join(
    sorted((s for s, u in UNITS.items() if u in MONEY and s.isalpha()), key=len, reverse=True)
)
#: An amount of money as written ("£28.50", "45.00 GBP", "910 kr"): the number is group
#: ``before`` (after a symbol) or ``after`` (before a symbol or a currency word).
MONEY_AMOUNT = (
    r"[€$£]\s?(?P<before>\d+(?:[.,]\d+)*)"
    rf"|(?P<after>\d+(?:[.,]\d+)*)\s?(?:[€$£]|(?:{_MONEY_WORDS})\b)"
)


def opens_range(text: str, number: str) -> bool:
    """Whether ``number`` opens a range of ``text`` whose end has a unit ("1.5 to 4 pounds").

    The range's first number is written bare, but it is of the end's unit: "1.5 to 4 pounds of
    rainbow trout" measures the trout, as "4 pounds" does (as024, held-out set 44).
    """
    pattern = rf"(?<![\d.,]){re.escape(number)}\s*(?:to|-|–|and)\s*\d+(?:[.,]\d+)?\s*([^\W\d_]+)"
    return any(m.group(1).casefold() in UNITS for m in re.finditer(pattern, text))
