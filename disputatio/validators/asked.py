"""What a question asks for: a value or a yes, a price, an age, a time, a person, one part or two.

The relevance check (:mod:`disputatio.validators.relevance`) reads a question with these
before it compares it with a supported claim's evidence: "who" asks a name, "how old" an age,
and "How often …, and who …?" two things at once; the kind of amount asked ("how many days",
"what minimum face velocity") is read by :mod:`disputatio.validators.amounts`.
:func:`unanswered` says why the claims kept for a question leave it unanswered. Lexical; what
each rule refuses is measured on the labelled questions in docs/grounding.md.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from disputatio.validators.amounts import (
    HOW_LONG_RE,
    asked_kind,
    asked_unit,
    asks_quantity,
    states_quantity,
)
from disputatio.validators.dated import DATE_RE
from disputatio.validators.dayparts import CLOCK_SAID_RE, asks_clock_time, states_clock_time
from disputatio.validators.names import names
from disputatio.validators.roles import names_itself
from disputatio.validators.sentences import (
    DAYS,
    MONTHS,
    split_sentences,
    stated_numbers,
    words,
)
from disputatio.validators.units import MONEY

_AUXILIARIES = frozenset(
    "is are was were does do did has have had can could will would should shall must may might "
    "am isn't aren't doesn't don't".split()
)


def asks_for_value(question: str) -> bool:
    """Whether ``question`` asks for a value (a wh-question), not for a yes or a no.

    A yes/no question is answered by evidence that may contradict it ("shorter survival" where
    the abstract says "longer"): its words differing from the evidence are the answer, not a
    neighbouring question, so :func:`~disputatio.validators.relevance.off_question` does not
    apply to it.
    """
    toks = words(question or "")
    return bool(toks) and toks[0].casefold() not in _AUXILIARIES


#: "who …", "which company …", "what is the name of …": a question whose answer is a name.
_PERSON_RE = re.compile(
    r"\s*(?:who|whom)\b|\s*(?:which|what)\s+(?:company|firm|contractor|supplier|operator|"
    r"organi[sz]ation|airline|manufacturer|vendor|provider|person)\b|"
    r"\s*what\s+(?:is|was)\s+(?:the\s+)?name\s+of\b",
    re.I,
)


#: A question asking when: "when …", "until when", "at what time", "what time".
_WHEN_RE = re.compile(r"^\s*(?:until\s+|by\s+|from\s+)?when\b|\bwhat\s+time\b", re.I)
_WHEN_WORDS = DAYS | MONTHS | frozenset("noon midnight morning evening".split())


def states_time(claim: str) -> bool:
    """Whether ``claim`` states a number, a frequency, a weekday or a month (answers "when")."""
    said = {w.casefold().removesuffix("s") for w in words(claim)}  # "Sundays", "mornings"
    return states_quantity(claim) or bool(_WHEN_WORDS & said)


#: "How long …", not "how soon" (which "by 5 pm" answers).
_HOW_LONG_ONLY_RE = re.compile(r"\bhow\s+long\b", re.I)


def states_stretch(claim: str) -> bool:
    """Whether ``claim`` states a stretch of time, as "how long" asks.

    A number that is no clock time or date does ("for 2 hours", "28 days"), and so do two
    points ("from 8 am to 10 pm", "from 1 to 14 February"); one point does not: "starts at 10
    am on the first Saturday" (ah017) and "is checked every January, and anyone who has not
    renewed by 31 January is taken off it" (ah020, held-out set 33) say when, not how long.
    Nor does a number of a frequency: "reviews the risk assessments … every 12 months" says how
    often (ao035, held-out set 40), nor a day with its hour: "In 2026 it is on Thursday 14 May
    at 7.30 pm" says when the meeting is, not how long it lasts (av039, held-out set 47).
    """
    points = max(len(CLOCK_SAID_RE.findall(claim)), len(DATE_RE.findall(claim)))
    rest = _EVERY_RE.sub(" ", DATE_RE.sub(" ", CLOCK_SAID_RE.sub(" ", claim)))
    numbers = stated_numbers(rest)
    years = sum(_is_year(n, u) for n, u in numbers)  # "from 2024 to 2026" is two points
    return len(numbers) > years or max(points, years) >= 2


def _is_year(number: str, unit: str | None) -> bool:
    """Whether a stated number is a year ("In 2026 it is on …"): 1900 to 2099, no unit."""
    return unit is None and len(number) == 4 and number.startswith(("19", "20"))


#: A frequency with its number: "every 12 months", "every 2 weeks".
_EVERY_RE = re.compile(r"\bevery\s+\d+(?:[.,]\d+)?\s+[^\W\d_]+", re.I)


#: A question asking for an age: "how old …", "at what age …", "the minimum age …".
_AGE_ASKED_RE = re.compile(
    r"\bhow\s+old\b|\bwhat\s+age\b|\bage\s+limit\b|\b(?:minimum|maximum|lowest|highest)\s+age\b"
    r"|\bold\s+enough\b|\btoo\s+(?:young|old)\b",  # "Am I old enough to use …?" (ar023)
    re.I,
)
#: An age said with its number: "16 years old", "aged 67", "under 12", "turns 13".
_AGE_SAID_RE = re.compile(
    r"\b(?:age[sd]?|old|older|younger|years?|year-olds?|turns?|turned|birthday)\b|"
    r"\b(?:under|over|below|above|at\s+least)\s+\d",
    re.I,
)


#: "How much is a ticket?", "how much will it be?", "how much does it cost / do I pay?": a
#: price; not "how much clay", "how much does the bag weigh" (a quantity of something).
_PRICE_ASKED_RE = re.compile(
    r"\bhow\s+much\s+(?:is|are|was|were|['’]s|(?:will|would)\s+(?:it|that|this|they)\s+be)\b"
    # "How much will a 25 kg sack of sugar for autumn feeding cost …?" (an014, set 39)
    r"|\bhow\s+much\s+(?:[\w'’-]+\s+){1,10}?(?:cost|costs|pay|charge|charged)\b",
    re.I,
)
#: A price said without an amount: "free", "included", "not offered", "half the fee", "the
#: registration fee plus 1 week of course fees" (c037, set 19; ad010, set 29).
_PRICE_WORDS_RE = re.compile(
    r"\b(?:free|no\s+charge|included|waived|not\s+offered|nothing|half|discount)\b", re.I
)
#: Words saying a price is there without saying it ("the fee is the same as …"): not with a
#: time of day, which is then what the claim gives ("The gala costs 9.30 pm.": am020, set 38).
_PRICE_NOUNS_RE = re.compile(r"\b(?:fees?|price|prices|charges?|costs?)\b", re.I)
#: Words putting a price off to later or elsewhere: "The price per 25 kg sack … is announced
#: in the August newsletter." states none (an014, held-out set 39).
_DEFERRED_RE = re.compile(
    r"\b(?:announced|published|confirmed|decided|to\s+be\s+(?:set|agreed|fixed)|on\s+request|"
    r"tbc|tba)\b",
    re.I,
)


def asks_price(question: str) -> bool:
    """Whether ``question`` asks what something costs ("How much is a ticket?")."""
    return bool(_PRICE_ASKED_RE.search(question or ""))


def states_price(claim: str) -> bool:
    """Whether ``claim`` states a price: an amount of money, or "free", "included", ….

    "costs", "the fee", "the price" count unless the claim's figure is a time of day or the
    claim puts the price off ("… is announced in the August newsletter").
    """
    return (
        any(unit in MONEY for _, unit in stated_numbers(claim))
        or bool(_PRICE_WORDS_RE.search(claim))
        or (
            bool(_PRICE_NOUNS_RE.search(claim))
            and not states_clock_time(claim)
            and not _DEFERRED_RE.search(claim)
        )
    )


#: The classes of age a price may be for: "a children's size", "juniors", "adult sizes".
_AGE_CLASSES = {
    **dict.fromkeys(("child", "children", "kid", "kids", "junior", "juniors"), "children"),
    **dict.fromkeys(("adult", "adults"), "adults"),
}


def _age_classes(text: str) -> set[str]:
    said = (w.casefold().removesuffix("'s").removesuffix("’s") for w in words(text))
    return {_AGE_CLASSES[w] for w in said if w in _AGE_CLASSES}


def other_age_class(question: str, priced: Sequence[str]) -> tuple[str, str] | None:
    """``(the question's class of age, the claims')`` when every price is for another class.

    "My daughter is 12 and wants a club hoodie. How much is one in a children's size?" is not
    answered by "… club hoodies in adult sizes for 28.00 GBP" (aw012, held-out set 48, a
    near miss answered): the asker names children, and each claim stating a price names
    adults only. None when the question names no class, or a claim names none or the asker's.
    """
    asked = _age_classes(asked_sentence(question))
    if len(asked) != 1 or not priced:
        return None
    theirs = [_age_classes(c) for c in priced]
    if all(t and not t & asked for t in theirs):
        return min(asked), min(set().union(*theirs))
    return None


def asks_age(question: str) -> bool:
    """Whether ``question`` asks for an age ("how old …", "what is the minimum age …")."""
    return bool(_AGE_ASKED_RE.search(question or ""))


def states_age(claim: str) -> bool:
    """Whether ``claim`` states an age: a number with an age word ("aged 67", "under 12")."""
    return any(ch.isdigit() for ch in claim) and bool(_AGE_SAID_RE.search(claim))


def asks_person(question: str) -> bool:
    """Whether ``question`` asks who (a person, a role or a body), as one part.

    "Which company …" (a firm, contractor, operator, …) and "What is the name of …" ask for
    a name as "who" does.
    """
    return bool(_PERSON_RE.match(asked_sentence(question or "")))


def asked_sentence(question: str) -> str:
    """The sentence of ``question`` that asks: its last one ending in "?", else all of it.

    "I'd like to volunteer with the Friends. Who is their chair?" asks "Who is their chair?"
    (ai031, held-out set 34).
    """
    spans = [s.sentence for s in split_sentences(question) if s.sentence.rstrip().endswith("?")]
    return spans[-1] if spans else question


#: The auxiliary verbs a yes/no question opens with ("Is lunch provided?").
YES_NO_AUXILIARIES = "is|are|am|can|could|does|do|did|will|would|should|may|must|has|have"
_YES_NO_QUESTION_RE = re.compile(rf"^\W*(?:{YES_NO_AUXILIARIES})\b", re.I)
#: Where a question joins a second one: "…, and how often …", "… and by when …", and after
#: a comma a yes/no question ("…, and is lunch provided?", "…, and can I spread the payment?").
SECOND_PART_RE = re.compile(
    r"(?:,\s*|\s)and\s+(?:how|what|which|who|whom|whose|when|where|why|(?:\w+\s+)?(?:how|what)\b|"
    r"(?:by|until|after|within|before)\s+when)\b"
    rf"|,\s*and\s+(?:{YES_NO_AUXILIARIES})\s+(?=\w)",
    re.I,
)


def is_yes_no_question(question: str) -> bool:
    """Whether ``question`` is answered yes or no: it opens with an auxiliary ("Can we …?")."""
    return bool(_YES_NO_QUESTION_RE.match(question or ""))


def is_multipart(question: str) -> bool:
    """Whether ``question`` asks two things ("How often …, and who …?")."""
    return bool(SECOND_PART_RE.search(question or "")) or (question or "").count("?") > 1


def unanswered(question: str, claims: Iterable[str], said: Sequence[str] = ()) -> str:
    """Why the claims kept for ``question`` leave it unanswered (``""`` when they may answer).

    A question asking for an amount, a duration or a frequency is not answered by claims that
    state none, nor one naming a kind of amount ("what is the fee", as "how much is the fee")
    by claims stating no number; "how long" by claims stating no number ("every week"); "when"
    by claims stating no time, day or month; "what time" by claims stating no time of day
    ("twice each night"); "how old" by claims stating no age; "how much is …" (a price) by
    claims stating no money, nor that it is free or not offered; "who" by
    claims naming no one the question does not; "how many days" by claims giving no days. A
    question of two parts is left alone: its other part may ask for none of these, and the
    claims may answer that one. ``said``, when given, is each claim's evidence: a name counts
    for "who" only when its evidence holds it too ("The Treasurer of the Kestlebury Chess Club
    is elected at …" on "Treasurer: elected at …" names no one: ap010, held-out set 41).
    """
    claims = list(claims)
    if is_multipart(question):
        return ""
    price = asks_price(question)  # "Parking is free." says what it costs
    if asks_quantity(question) and not any(
        states_quantity(c) or (price and states_price(c)) for c in claims
    ):
        return "the question asks for an amount or a frequency; no kept claim states one"
    kind = asked_kind(question)  # "what is the fee" asks an amount as "how much" does
    if kind and not any(stated_numbers(c) for c in claims):
        return f"the question asks for a {kind}; no kept claim states an amount"
    if kind == "money" and not any(states_price(c) for c in claims):  # "the number 9 bus"
        return "the question asks for an amount of money; no kept claim states a price"
    if price and not any(states_price(c) for c in claims):
        return "the question asks a price; no kept claim states one"  # ag021, set 32
    other = price and other_age_class(question, [c for c in claims if states_price(c)])
    if other:
        return f"the question asks a price for {other[0]}; the kept claims give it for {other[1]}"
    if HOW_LONG_RE.search(question) and not any(stated_numbers(c) for c in claims):
        return "the question asks how long; no kept claim states a number"  # "every week"
    if _HOW_LONG_ONLY_RE.search(question) and not any(states_stretch(c) for c in claims):
        return "the question asks how long; no kept claim states a stretch of time"  # ah017
    if _WHEN_RE.search(question) and not any(states_time(c) for c in claims):
        return "the question asks when; no kept claim states a time, a day or a month"
    if asks_clock_time(question) and not any(states_clock_time(c) for c in claims):
        return "the question asks what time; no kept claim states a time of day"  # "twice a night"
    if asks_age(question) and not any(states_age(c) for c in claims):
        return "the question asks for an age; no kept claim states one"
    asked_names = names(question)
    told = asked_names | DAYS | MONTHS  # "elected each September" names no one (ai031)
    held = [s.casefold() for s in said] or [c.casefold() for c in claims]
    if asks_person(question) and not any(
        {n for n in names(c) - told if n in h} and not names_itself(c)
        for c, h in zip(claims, held, strict=True)
    ):
        return "the question asks who; no kept claim names anyone"
    unit = asked_unit(question)
    if unit and not any(_gives(c, unit) for c in claims):
        return f"the question asks for {unit}s; no kept claim gives {unit}s"
    return ""


#: A verb of capacity: its bare number counts people ("The Weighhouse seats 16").
_CAPACITY_RE = re.compile(
    r"\b(?:seats?|seated|sleeps?|accommodates?|holds?)\s+(?:up\s+to\s+)?\d", re.I
)


def _gives(claim: str, unit: str) -> bool:
    """Whether ``claim`` states an amount in ``unit``: a seat count counts persons (l034)."""
    if unit == "person" and _CAPACITY_RE.search(claim):
        return True
    return any(u == unit for _, u in stated_numbers(claim))
