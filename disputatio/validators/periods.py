"""A price asked per one period and stated per another ("per month" / "a year").

"What would Social Membership cost me per month by direct debit?" is not answered by "The
Social Membership costs 45.00 GBP a year" (af002, held-out set 31): the sentence states the
claim, the claim names the membership asked about, and the relevance judge let the year stand
for the month. A monthly price the documents do not give is a near miss to refuse, not a
yearly one to show.

* :func:`asked_period`: the one period a question asks an amount per ("per month", "each
  month", "monthly", "a year", "annual");
* :func:`amount_periods`: the periods a text states an amount of money per ("45.00 GBP a
  year", "an annual fee of 45 GBP", "£28.50/month");
* :func:`period_contrast`: a claim whose every amount of money is stated per another period
  than the one asked, in the claim or, where the claim drops it, in its evidence;
* :func:`rate_unstated` (a guard of the claim checker): a claim that states an amount per a
  period its evidence does not give it ("The CNC router costs 35.00 GBP per hour" on an
  induction table's row "CNC router: Canal Basin, 3 hours, 35.00 GBP", ak008, held-out set 36).

Lexical; no model call. What the rule changes is measured on every set's recorded drafts
(docs/grounding.md).
"""

from __future__ import annotations

import re

from disputatio.validators.asked import is_multipart
from disputatio.validators.sentences import stated_numbers
from disputatio.validators.units import MONEY_AMOUNT

_PERIODS = {
    "year": "year",
    "annum": "year",
    "annual": "year",
    "annually": "year",
    "yearly": "year",
    "month": "month",
    "monthly": "month",
    "week": "week",
    "weekly": "week",
    "day": "day",
    "daily": "day",
    "hour": "hour",
    "hourly": "hour",
}
_UNIT = r"(year|annum|month|week|day|hour)"
_ADJECTIVE = r"(annual|annually|yearly|monthly|weekly|daily|hourly)"
#: Names with a period's adjective that are no rate: "the annual general meeting".
_NOT_A_RATE = r"(?!\s+(?:general|report|leave|review|dinner|regatta|show|event|meeting)\b)"
#: The period after "per"/"a"/"each", ending the phrase: "per month by direct debit", not "a
#: day ticket" (a kind of ticket, not a rate).
_ASKED_RE = re.compile(
    rf"\b(?:per|a|an|each|every|by\s+the)\s+{_UNIT}s?\b"
    r"(?=\s*(?:[?.,;:!)]|$|(?:by|if|for|and|or|in|at|on|with|when|from|to|do|does|is|are"
    r"|will|would|should|including|altogether|overall|then|now)\b))"
    rf"|\b{_ADJECTIVE}\b{_NOT_A_RATE}",
    re.I,
)
#: A question about a price: any word of one (broader than :func:`.asked.asks_price`, which
#: decides whether a claim must state a price; here a period contrast needs a price at all).
_PRICE_RE = re.compile(
    r"\bhow\s+much\b|\b(?:cost|costs|price|prices|fee|fees|pay|charge|charged|rate|rent)\b",
    re.I,
)
_AMOUNT_RE = re.compile(MONEY_AMOUNT, re.I)
#: After an amount: "a year", "per month", "/month", "for the year", "each week".
_AFTER_RE = re.compile(
    rf"^\s*(?:/\s*|(?:per|a|an|each|every|for\s+(?:a|one|the|each))\s+){_UNIT}s?\b", re.I
)
#: Before an amount, in its clause: "an annual fee of", "the monthly price is", "yearly:".
_BEFORE_RE = re.compile(rf"\b{_ADJECTIVE}\b{_NOT_A_RATE}[^\d.;!?|]{{0,40}}$", re.I)
_CLAUSE_END_RE = re.compile(r"[;!?|]|\.(?!\d)")
#: A rate anywhere in a text, a header's or title's too: "per hour", "an hour", "/month",
#: "Hourly rate" ("3 hours" is none).
_RATE_RE = re.compile(
    rf"(?:/\s*|\b(?:per|a|an|each|every)\s+){_UNIT}\b|\b{_ADJECTIVE}\b{_NOT_A_RATE}", re.I
)


def asked_period(question: str) -> str | None:
    """The one period ``question`` asks a price per ("month" for "how much each month?").

    None when it asks no price ("Do I have to do the yearly volunteering hours?"), names no
    period or more than one ("monthly or yearly?"), or has two parts ("How much does it cost,
    and for how long can I freeze it each year?": the period may be the other part's).
    """
    if not _PRICE_RE.search(question) or is_multipart(question):
        return None
    found = _named_periods(_ASKED_RE, question)
    return found.pop() if len(found) == 1 else None


def _named_periods(pattern: re.Pattern[str], text: str) -> set[str]:
    """The periods ``pattern`` finds in ``text``, each match's last group being its word."""
    return {_PERIODS[m.group(m.lastindex or 0).casefold()] for m in pattern.finditer(text)}


def amount_periods(text: str, number: str | None = None) -> dict[str, set[str]]:
    """The periods each amount of money in ``text`` is stated per, by its number as written.

    An amount with no period of its own maps to an empty set. With ``number``, only the
    amounts written so.
    """
    out: dict[str, set[str]] = {}
    for m in _AMOUNT_RE.finditer(text):
        value = m.group("before") or m.group("after")
        if number is not None and stated_numbers(value)[:1] != stated_numbers(number)[:1]:
            continue
        periods = out.setdefault(value, set())
        after = _AFTER_RE.match(text[m.end() :])
        if after:
            periods.add(_PERIODS[after.group(1).casefold()])
        before = _BEFORE_RE.search(_clause_tail(text[: m.start()]))
        if before:
            periods.add(_PERIODS[before.group(1).casefold()])
    return out


def period_contrast(question: str, claim: str, evidence: str) -> tuple[str, str] | None:
    """``(asked, stated)`` when every amount of ``claim`` is stated per another period.

    Each amount of money the claim states takes its periods from the claim, or where the claim
    gives it none, from the same amount in ``evidence``. The claim contrasts with the question
    when the question asks one period, the claim states at least one amount, every amount has
    a period, and none is the asked one.
    """
    asked = asked_period(question)
    if asked is None:
        return None
    amounts = amount_periods(claim)
    if not amounts:
        return None
    stated: set[str] = set()
    for value, periods in amounts.items():
        if not periods:
            found = amount_periods(evidence, value)
            periods = set().union(*found.values()) if found else set()
        if not periods or asked in periods:
            return None
        stated |= periods
    return asked, ", ".join(sorted(stated))


#: A length of several periods: "3 hours", "2 weeks" (what an amount beside it is for).
_LENGTHS_RE = re.compile(
    rf"\b(?:[2-9]|[1-9]\d+|two|three|four|five|six)(?:\.\d+)?\s+{_UNIT}s\b", re.I
)


def rate_unstated(claim: str, evidence: str, context: str = "") -> str:
    """Why ``evidence`` does not give an amount of ``claim`` the claim's period, or ``""``.

    An amount the claim states per a period ("35.00 GBP per hour") may not be stated in the
    evidence per another ("35.00 GBP a day"), nor beside a length of several such periods
    with no rate named anywhere in the evidence or its section's title and headings
    (``context``): "3 hours, 35.00 GBP" is the price of three hours. An amount stated with no
    period and no length is left alone: a document may say once that its prices are per month
    ("All prices … are per month unless a plan says otherwise", above a table of prices), and
    so is a table's row, whose headers ("Plot Member, per day") the window may not hold. An
    amount the evidence does not state at all is
    :func:`~disputatio.validators.restated.number_missing`'s to refuse.
    """
    for value, periods in amount_periods(claim).items():
        found = amount_periods(evidence, value) if periods else {}
        if not found:
            continue
        stated = set().union(*found.values())
        if stated & periods:
            continue
        wanted, given = ", ".join(sorted(periods)), ", ".join(sorted(stated))
        if stated:
            return f"the claim states {value} per {wanted}, the sentence per {given}"
        if "|" in evidence:  # a table's row: its headers, not in the window, may name the rate
            continue
        lengths = _named_periods(_LENGTHS_RE, evidence)
        if periods & lengths and not periods & _named_periods(_RATE_RE, f"{evidence} {context}"):
            return f"the claim states {value} per {wanted}, the sentence for a length of time"
    return ""


def _clause_tail(text: str) -> str:
    """The last clause of ``text`` (after its last ``;``, ``|``, ``!``, ``?`` or full stop)."""
    ends = [m.end() for m in _CLAUSE_END_RE.finditer(text)]
    return text[ends[-1] :] if ends else text
