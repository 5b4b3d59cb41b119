"""Opposite sense: a claim negated where its sentence is not, or using a word's opposite.

Guards of the claim checker (:func:`~disputatio.validators.guards.guard`): "is not refunded"
for "is refunded", "optional" for "mandatory", "above" for "below".
"""

from __future__ import annotations

import re
from functools import lru_cache

from disputatio.validators.names import names
from disputatio.validators.sentences import (
    NEGATIONS,
    STOPWORDS,
    content_words,
    has_negation,
    stem,
    word_matches,
    words,
)
from disputatio.validators.tables import cells_spoken_of

#: Why :func:`~disputatio.validators.guards.guard` refuses a window by
#: :func:`negation_differs`.
NEGATED = "one of the claim and the sentence is negated, the other not"

#: A negation cue as :func:`~disputatio.validators.sentences.has_negation` counts one: a word of
#: ``NEGATIONS`` ("cannot", "without") or a word ending in "n't".
_CUE = rf"(?:{'|'.join(sorted(NEGATIONS))}|[^\W\d_]+n['’]t)"
_CUE_RE = re.compile(_CUE, re.I)

#: A relative clause negating what an amount is ("a deposit of 50 GBP that is not refunded"):
#: the amount, then the clause up to the next comma or stop.
_NEGATED_AMOUNT_CLAUSE_RE = re.compile(
    r"(\d[\d,.]*(?:\s*[^\W\d_]+)?)\s+(?:that|which)\s+(?:[^\W\d_]+\s+){0,2}?"
    rf"{_CUE}\b[^,.;:]*",
    re.I,
)

#: A negated clause after "but" ("…, but it has no shower"), up to the next comma or stop; its
#: first group is empty (nothing before the clause is kept when it is dropped).
_NEGATED_BUT_CLAUSE_RE = re.compile(rf"()[,;]\s+but\s+[^,.;:]*?\b{_CUE}\b[^,.;:]*", re.I)


#: A negated clause after "and" with a subject of its own ("…, and Cheap Tuesday prices do not
#: apply"), up to the next comma or stop; its first group is empty, as above.
_NEGATED_AND_CLAUSE_RE = re.compile(rf"()[,;]\s+and\s+[^,.;:]*?\b{_CUE}\b[^,.;:]*", re.I)


#: A person named by what they cannot do ("A member who has booked a position and cannot come
#: must cancel by 6.00 pm"): the person, then the clause up to the negated verb. Dropped when
#: the claim says neither ("The latest you can cancel is 6.00 pm on the day": ar006, held-out
#: set 43); "Members pay 5 GBP" on "Members who are not adults pay 5 GBP" is still negated.
_NEGATED_WHO_RE = re.compile(
    rf"\b(?P<who>[^\W\d_]+)\s+who\s+[^,.;:]*?\b{_CUE}\s+(?P<verb>[^\W\d_]+)", re.I
)


#: A negated condition opening a sentence or a clause, up to its comma ("If it is not put
#: right, write to …"); its first group is empty, as above.
_NEGATED_IF_CLAUSE_RE = re.compile(
    r"()(?:^|(?<=[.;:!?]\s)|(?<=\n))\s*(?:if|when|where)\s+[^,.;:]*?"
    rf"\b{_CUE}\b[^,.;:]*,",
    re.I,
)


def negation_differs(claim: str, window: str) -> bool:
    """Whether one of ``claim`` and ``window`` is negated and the other not.

    A clause of the window that negates something about an amount the claim only states does
    not negate the claim: "The deposit for this party is 50 GBP" on "… with a deposit of 50 GBP
    that is not refunded" (w016, held-out set 21); nor does a negated clause after "but" that
    the claim does not speak of: "Hut 6 has a ramp" on "Hut 6 … has a ramp …, but it has no
    shower" (s023, set 22); nor a negated condition the claim does not speak of ("If it is not
    put right, write to … Della Fairweather …": l037, set 26); nor a negated clause after
    "and" naming something the claim does not name ("…, and Cheap Tuesday prices do not
    apply" for the broadcasts' ticket prices: am022, set 38; a clause naming nothing counts);
    nor what a person "who … cannot come" cannot do, when the claim does not say it (ar006).
    Such a clause counts again when
    the claim speaks of what it negates ("The deposit is refunded", "Hut 6 has a shower"). In
    a table row only the cells the claim speaks of are read
    (:func:`~disputatio.validators.tables.cells_spoken_of`).
    """
    negated = has_negation(claim)
    window = cells_spoken_of(claim, window)
    if negated == has_negation(window):
        return False
    if negated:
        return True
    asked = content_words(claim)

    def drop(m: re.Match[str]) -> str:
        clause = m.group(0)[len(m.group(1)) :]
        return m.group(0) if content_words(clause) & asked else m.group(1)

    own = names(claim)

    def drop_named(m: re.Match[str]) -> str:
        said = names(m.group(0))
        return m.group(0) if not said or said & own else ""

    kept = _NEGATED_AMOUNT_CLAUSE_RE.sub(drop, window)
    kept = _NEGATED_IF_CLAUSE_RE.sub(drop, kept)
    kept = _NEGATED_AND_CLAUSE_RE.sub(drop_named, kept)
    kept = _NEGATED_WHO_RE.sub(lambda m: m.group(0) if _said(m, asked) else m.group("who"), kept)
    return has_negation(_NEGATED_BUT_CLAUSE_RE.sub(drop, kept))


#: The words opening a relative clause.
_RELATIVE = frozenset({"who", "that", "which", "whose"})

#: Words before "that" that make it open a purpose or result clause ("so that I don't lose
#: it"), which says why, not who or what the sentence speaks of.
_PURPOSE = frozenset({"so", "such", "now"})


def _is_cue(word: str) -> bool:
    """Whether ``word`` is a whole negation cue of :data:`_CUE` ("not", "cannot", "doesn't")."""
    return _CUE_RE.fullmatch(word) is not None


@lru_cache(maxsize=1024)
def _denials(text: str) -> tuple[tuple[re.Match[str], str], ...]:
    """Each negation cue of a relative clause of ``text``, with the word it negates (a stem).

    The word is the first after the cue that is no stopword: "who doesn't ring" → ring, "that
    is not a member" → member. A relative clause's negation is a condition on who or what the
    sentence speaks of, not what it says of them ("What can't I bring?" has none).
    """
    tokens = word_matches(text)
    low = [t.group(0).casefold() for t in tokens]
    out = []
    for i, m in enumerate(tokens):
        if not _is_cue(m.group(0)):
            continue
        opener = [j for j in range(max(i - 3, 0), i) if low[j] in _RELATIVE]
        if not opener or (opener[-1] > 0 and low[opener[-1] - 1] in _PURPOSE):
            continue
        after = (t.group(0) for t in tokens[i + 1 : i + 5])
        word = next((w for w in after if w.isalpha() and w.casefold() not in STOPWORDS), "")
        if word and not _is_cue(word):
            out.append((m, stem(word)))
    return tuple(out)


def denied_words(question: str) -> frozenset[str]:
    """The stems of the words ``question`` negates, which a claim answering it may echo.

    The asker's own condition: "A friend of mine who doesn't ring …" → ``{"ring"}``.
    """
    return frozenset(word for _, word in _denials(question))


def without_denials(claim: str, window: str, denied: frozenset[str]) -> str:
    """``claim`` without the negations that echo the asker's ``denied`` words.

    "The friend of mine who doesn't ring will pay the non-member price of 28.00 GBP" is not
    negated for a window that does not speak of ringing (at013, held-out set 45): the asker
    said who the friend is, the claim says what she pays. A window that states the word
    unnegated speaks of it ("For members, … 8 EUR per hour" for "someone who is not a member":
    x024, set 11), and the negation stays; "non-members" does not state "members".
    """
    stated = content_words(window)
    out, pos = [], 0
    for m, word in _denials(claim):
        if word not in denied or word in stated:
            continue
        cue = m.group(0)
        kept = cue[:-3] if cue.casefold().endswith(("n't", "n’t")) else ""
        start = m.start() if kept else len(claim[: m.start()].rstrip())  # "is not a" → "is a"
        out += [claim[pos:start], kept]
        pos = m.end()
    return "".join([*out, claim[pos:]]) if out else claim


def _said(m: re.Match[str], said: frozenset[str]) -> bool:
    """Whether the claim says the person or the negated verb of a "who" clause ``m``."""
    return bool(content_words(f"{m.group('who')} {m.group('verb')}") & said)


#: Pairs of words of opposite sense: a claim using one where its sentence uses the other
#: says the opposite (``optional`` / ``mandatory``, ``above`` / ``below``).
OPPOSITES: tuple[tuple[frozenset[str], frozenset[str]], ...] = tuple(
    (frozenset(a.split()), frozenset(b.split()))
    for a, b in (
        ("optional voluntary", "mandatory required compulsory obligatory"),
        ("allowed permitted may", "prohibited forbidden banned never"),
        ("continue continues continued", "suspend suspended suspends stop stops stopped halt"),
        ("above over exceeding more", "below under less fewer"),
        ("before prior", "after following"),
        ("minimum least", "maximum most"),
        ("include includes included", "exclude excludes excluded"),
        ("increase increases increased", "decrease decreases decreased reduce reduced"),
        ("first", "last"),
        ("inside internal", "outside external"),
        ("daily", "weekly monthly yearly annually"),
        ("day", "night"),
        ("approve approved", "reject rejected"),
        # "finishes at 7.00 pm" for "opens with a private view … at 7.00 pm" (aq027, set 42)
        ("start starts begin begins opens", "end ends finish finishes"),
    )
)


def opposite_words(claim: str, window: str) -> tuple[str, str] | None:
    """A word of ``claim`` whose opposite ``window`` uses instead, as ``(claim's, window's)``."""
    cw = {w.casefold() for w in words(claim)}
    ww = {w.casefold() for w in words(window)}
    for a, b in OPPOSITES:
        for mine, theirs in ((a, b), (b, a)):
            said = cw & mine
            other = ww & theirs
            if said and other and not (ww & mine):
                return sorted(said)[0], sorted(other)[0]
    return None
