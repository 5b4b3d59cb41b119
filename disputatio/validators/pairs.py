"""A claim that takes its subject from one sentence of a window and its numbers from the other.

An evidence window may be two adjacent sentences (a fact and its condition are often split
across them). The number guard asks only that each number of a claim be somewhere in the
window, so a claim may join the thing one sentence names with the amounts the other gives:
"A2 training for riders aged 19 to 23 takes 5 days and costs 890 GBP" was shown supported on
"A2 training for riders aged 19 to 23 takes 4 days and costs 760 GBP. Direct access training
for riders aged 24 and over takes 5 days and costs 890 GBP …" (set 18's f020, the hierarchical
debate, run 29). :func:`mixed_pair` finds a sentence of the window that alone names a name of
the claim and gives, in a unit of the claim's, another amount than the claim's — unless the
other sentence refers back to it ("It is driven by …"): then both are about the named thing.
:func:`paired_word` does the same inside one sentence, for the word each number stands after
("bookings open 6 weeks before … and close 7 days before": ab013, held-out set 27).

Lexical; no model call.
"""

from __future__ import annotations

import re

from disputatio.validators.names import names
from disputatio.validators.opposites import OPPOSITES
from disputatio.validators.sentences import (
    DAYS,
    MONTHS,
    NEGATIONS,
    STOPWORDS,
    content_words,
    split_sentences,
    stated_numbers,
    stem,
    words,
)
from disputatio.validators.tables import is_row

#: A word and the number right after it ("open 6", "close seven"); the number is looked ahead at,
#: so that it may be the next match's word.
_WORD_THEN_NUMBER_RE = re.compile(r"([^\W\d_]+)\s+(?=(\d+(?:[.,:]\d+)*|[^\W\d_]+))")
#: Words of opposite sense, for :func:`paired_word`: those of ``OPPOSITES`` and "open" / "close"
#: (not one of ``OPPOSITES``: "is open until 18:00" says "closes at 18:00").
_PAIRED_OPPOSITES = (
    *OPPOSITES,
    (frozenset("open opens opened".split()), frozenset("close closes closed".split())),
)
#: A word of a sentence pointing back at the one before it ("Parking a bike there …").
_POINTS_BACK_RE = re.compile(r"\b(?:it|its|they|their|there|he|she|his|her|this|these)\b", re.I)
#: Where the clauses of a sentence joined by semicolons meet.
_SEMICOLON_RE = re.compile(r";\s+")
#: A sentence about the thing the sentence before it named ("It is driven by …").
_REFERS_BACK_RE = re.compile(r"^\W*(?:it|its|they|their|this|these|he|she|his|her)\b", re.I)


def mixed_pair(claim: str, window: str) -> str:
    """Why ``claim`` mixes the sentences of ``window``, or ``""``.

    Returns:
        "the sentence naming <name> gives <value> <unit>, not <claim's value>" when a sentence
        of the window names a name of the claim that no other sentence of it names, and
        states an amount in a unit of a claim's number but not the claim's amount in it;
        else why the claim joins names of two sentences (:func:`split_names`), or the subject
        of one clause to what another clause says (:func:`split_subjects`).
    """
    return (
        _mixed_amounts(claim, window) or split_names(claim, window) or split_subjects(claim, window)
    )


def split_names(claim: str, window: str) -> str:
    """Why ``claim`` joins a name of one sentence of ``window`` to a name of another, or ``""``.

    "The Steeple Keeper at St Wendreda's is Hamish Oduya-Pell." is not supported by "The
    Steeple Keeper at Ketterby is Hamish Oduya-Pell. The Steeple Keeper at St Wendreda's can
    be reached through the Tower Captain." (at029, held-out set 45): the sentence holding the
    claim's Hamish Oduya-Pell is about Ketterby, which the claim does not name, and the claim's
    St Wendreda's is another sentence's. Days and months are no such name, table rows are read
    by :mod:`~disputatio.validators.tables`, and a sentence pointing back ("He …", "Parking a
    bike there …") goes on about the one before it.
    """
    mine = _stems(claim)
    if len(mine) < 2:
        return ""
    sentences = [span.sentence for span in split_sentences(window)]
    if len(sentences) < 2 or any(is_row(s) for s in sentences):
        return ""
    if any(_POINTS_BACK_RE.search(s) for s in sentences[1:]):
        return ""  # "Parking a bike there costs …" is about the place the sentence before names
    named = [_stems(s) for s in sentences]
    for i, held in enumerate(named):
        rest = set().union(*(n.keys() for j, n in enumerate(named) if j != i))
        own = sorted((mine.keys() & held.keys()) - rest)
        about = sorted(held.keys() - mine.keys() - rest)
        taken = sorted((mine.keys() & rest) - held.keys())
        if own and about and taken:
            return (
                f"the sentence naming {held[own[0]]} is about {held[about[0]]}; "
                f"the claim's {mine[taken[0]]} is another sentence's"
            )
    return ""


def split_subjects(claim: str, window: str) -> str:
    """Why ``claim`` says of one clause's subject what another clause of ``window`` says, or ``""``.

    "The holiday camps provide a packed lunch, a water bottle" is not supported by "Children
    bring a packed lunch, a water bottle and sun cream; the camp gives them a drink and fruit
    in the afternoon." (au023, held-out set 46): the claim's camp is the subject of the second
    clause, and what it says is the first's, whose subject (children) it does not name. Only
    the clauses of each sentence joined by semicolons, each opening with its subject (after
    "the", "a" or "an"): "its chair is elected …" is about the clause before it, and "At
    Thornbeck, …" or "40.00 GBP for members" opens with no subject.
    """
    if ";" not in window:
        return ""
    mine = content_words(claim)
    said_words = {stem(w.casefold()) for w in words(claim)}  # "Q" of "Q fever" too
    for span in split_sentences(window):
        clauses = [(_subject(c), content_words(c)) for c in _SEMICOLON_RE.split(span.sentence)]
        for i, (first, said) in enumerate(clauses):
            if not first or first in said_words:
                continue
            for j, (other, rest) in enumerate(clauses):
                taken = (mine & said) - rest  # what the claim says, from the clause
                if i != j and other in said_words and other not in said and len(taken) >= 2:
                    return f"the claim gives {other} what the clause about {first} says"
    return ""


def _subject(clause: str) -> str:
    """The stem of the word ``clause`` opens with, after "the", "a" or "an", if no stopword."""
    tokens = words(clause)
    if len(tokens) < 3:
        return ""
    word = tokens[1] if tokens[0].casefold() in {"the", "a", "an"} else tokens[0]
    low = word.casefold()
    return stem(low) if word.isalpha() and low not in STOPWORDS | NEGATIONS else ""


def _stems(text: str) -> dict[str, str]:
    """The names of ``text`` by their stems ("parties" is "party"), days and months left out."""
    return {stem(n): n for n in names(text) if n.removesuffix("s") not in DAYS | MONTHS}


def _mixed_amounts(claim: str, window: str) -> str:
    """The amounts half of :func:`mixed_pair`."""
    stated = stated_numbers(claim)
    amounts = [(n, u) for n, u in stated if u is not None]
    claim_names = names(claim)
    counts = {n for n, u in stated if u is None}  # "a two-bedroom flat": a row's label
    if not amounts or not (claim_names or counts):
        return ""  # cached per claim: most claims end here, before the window is split
    spans = split_sentences(window)
    if len(spans) < 2:
        return ""
    sentences = [span.sentence for span in spans]
    for i, sentence in enumerate(sentences):
        rest = [s for j, s in enumerate(sentences) if j != i]
        if any(_REFERS_BACK_RE.match(s) for s in rest):
            continue  # "The Havørn-300 has a depth rating of 3,000 m. It is … by a 600 m tether"
        said = stated_numbers(sentence)
        own = sorted((claim_names & names(sentence)) - names(" ".join(rest))) if claim_names else []
        if own:
            for number, unit in amounts:
                values = sorted({n for n, u in said if u == unit})
                if values and (number, unit) not in said:
                    return f"the sentence naming {own[0]} gives {values[0]} {unit}, not {number}"
        wrong = _other_count_amount(counts, amounts, said, rest)
        if wrong:
            return wrong
    return ""


def _other_count_amount(
    counts: set[str],
    amounts: list[tuple[str, str]],
    said: tuple[tuple[str, str | None], ...],
    rest: list[str],
) -> str:
    """Why the sentence stating ``said`` alone holds a count of the claim, with other amounts.

    "The service charge for a two-bedroom flat at Rookwood is 41.00 GBP" is not supported by
    the rows "| Rookwood | One bedroom | 124.00 GBP | 41.00 GBP |" and "| Rookwood | Two
    bedrooms | 147.00 GBP | 45.00 GBP |" (ah008, held-out set 33): the row holding the claim's
    "two" (and no other sentence of the window does) gives GBP amounts, none of them the
    claim's. A claim of both rows ("124.00 GBP for one bedroom and 147.00 GBP for two") holds
    an amount of each.
    """
    held = sorted(n for n in counts if (n, None) in said)
    if not held:
        return ""
    elsewhere = {n for s in rest for n, _ in stated_numbers(s)}
    own = [n for n in held if n not in elsewhere]
    for unit in sorted({u for _, u in amounts}) if own else []:
        values = sorted({n for n, u in said if u == unit})
        if values and not any((n, unit) in said for n, u in amounts if u == unit):
            return f"the sentence counting {own[0]} gives {values[0]} {unit}, not the claim's"
    return ""


def paired_word(claim: str, window: str) -> str:
    """Why a sentence of ``window`` gives the claim's number after the opposite of the claim's word.

    "The camp bookings close 6 weeks before each holiday" is not supported by "Holiday camp
    bookings open 6 weeks before each holiday and close 7 days before the first day of the
    camp." (ab013, held-out set 27): in one sentence, 6 stands right after "open", and
    "close", the word the claim uses, stands right after 7. Only a word right before a number
    counts, and only a pair of opposites (:data:`~disputatio.validators.opposites.OPPOSITES`,
    "open" / "close"): "Author talks cost 80 NOK per ticket, and card holders pay 50 NOK" does
    support "… costs 50 NOK for library card holders". Table rows are read by
    :mod:`~disputatio.validators.tables`.
    """
    wanted = {n for n, _ in stated_numbers(claim)}
    if not wanted:
        return ""
    said = {w.casefold() for w in words(claim)}
    for span in split_sentences(window):
        if is_row(span.sentence):
            continue
        pairs = [
            (m.group(1).casefold(), number)
            for m in _WORD_THEN_NUMBER_RE.finditer(span.sentence)
            for number, _ in stated_numbers(m.group(2))[:1]
        ]
        for mine, number in pairs:
            if number not in wanted or mine in said:
                continue
            for word, other in pairs:
                if other not in wanted and word in said and _opposed(word, mine):
                    return f"the sentence has {mine!r} {number} and {word!r} {other}"
    return ""


def _opposed(a: str, b: str) -> bool:
    """Whether the words ``a`` and ``b`` are of opposite sense."""
    return any((a in x and b in y) or (a in y and b in x) for x, y in _PAIRED_OPPOSITES)
