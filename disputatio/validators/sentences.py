"""Sentences with their character spans, and the words and numbers a claim rests on.

The claim checker compares an answer's sentences with the sentences of the sections it cites.
Everything here is deterministic text processing: a sentence splitter that keeps offsets
(:mod:`.splitting`; a supporting sentence is shown as a span of its section), content words
with a light stemmer, numbers with their units and negation cues (names: :mod:`.names`).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

import snowballstemmer

from disputatio.validators.splitting import Span, split_sentences
from disputatio.validators.units import UNITS

__all__ = ["Span", "split_sentences"]  # split out to :mod:`.splitting`; read from here too

_STEMMER = snowballstemmer.stemmer("english")
_WORD_RE = re.compile(r"[^\W_]+(?:[-'][^\W_]+)*", re.UNICODE)

#: Words too common to count as shared evidence.
STOPWORDS = frozenset(
    "a an and are as at be been being both but by can could did do does for from had has have "
    "he her his how i if in into is it its itself may me might more most must my of on or our "
    "over shall she should so such than that the their them then there these they this those "
    "to too under up upon us was we were what when where whether which while who whom whose "
    "why will with would you your also any each every other per via about above after again "
    "against all am because before below between during few further here just only own same "
    "some through until very according states stated says said document documents section "
    "sections text passage passages answer therefore thus hence consequently".split()
)

#: Words that negate the statement they are in.
NEGATIONS = frozenset(
    "not no never none nobody nothing neither nor cannot without prohibited forbidden banned "
    "disallowed unless exempt excluded".split()
)

_NUMBER_WORDS = {
    w: str(i)
    for i, w in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
        "fifteen sixteen seventeen eighteen nineteen twenty".split()
    )
}
_NUMBER_WORDS.update(
    {
        "thirty": "30",
        "forty": "40",
        "fifty": "50",
        "sixty": "60",
        "hundred": "100",
        "thousand": "1000",
        "once": "1",
        "twice": "2",
        "single": "1",
        "double": "2",
        "half": "0.5",
        "dozen": "12",
    }
)

#: Month names and their abbreviations (a date is no amount; a "when" may be answered by one).
MONTHS = frozenset(
    "january february march april may june july august september october november december "
    "jan feb mar apr jun jul aug sep sept oct nov dec".split()
)
#: A year ("2026"): a date's number, not an amount or a label.
YEAR_RE = re.compile(r"(?:19|20)\d\d")
#: The days of the week and the words for a kind of day ("weekday", "daily").
DAYS = frozenset(
    "monday tuesday wednesday thursday friday saturday sunday weekday weekend daily".split()
)


@functools.lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """The English Snowball stem of ``word``, case-folded ("calibrated" → "calibr").

    A noun in "-sis" keeps its "i" under Snowball ("diagnosis" → "diagnosi") where its verb
    does not ("diagnosed" → "diagnos"); the "i" is dropped so the two match ("analysis" and
    "analysed", "emphasis" and "emphasised" alike).
    """
    out = str(_STEMMER.stemWord(word.casefold()))
    return out[:-1] if out.endswith("si") and len(out) > 4 else out


def words(text: str) -> list[str]:
    """Word tokens of ``text`` (letters/digits, inner hyphens and apostrophes kept)."""
    return [m.group(0) for m in _WORD_RE.finditer(text or "")]


def word_matches(text: str) -> list[re.Match[str]]:
    """The word tokens of :func:`words`, as matches (where each stands in ``text``)."""
    return list(_WORD_RE.finditer(text or ""))


@functools.lru_cache(maxsize=16384)
def content_words(text: str) -> frozenset[str]:
    """Stemmed words of ``text`` that are not stopwords, numbers or units.

    Cached by text: the claim checker asks for a claim's words once per window it scores.
    """
    out = set()
    for word in words(text):
        low = word.casefold()
        if low in STOPWORDS or low in NEGATIONS or low in _NUMBER_WORDS or low in UNITS:
            continue
        if re.fullmatch(r"[\d.,]+(?:-[a-z]+)?", low):
            continue
        if len(low) > 1:
            out.add(stem(low))
    return frozenset(out)


def canonical_number(raw: str) -> str:
    """A written number as :func:`stated_numbers` gives it ("48.00" → "48", "1,200" → "1200")."""
    if re.fullmatch(r"\d{1,3}(?:[ ,]\d{3})+", raw):
        return raw.replace(",", "").replace(" ", "")
    value = raw.replace(",", ".")
    if "." in value:
        value = value.rstrip("0").rstrip(".")
    return value.lstrip("0") or "0"


def numbers_with_units(text: str) -> list[tuple[str, str | None]]:
    """Numbers stated in ``text`` (digits or number words) with the unit next to each.

    The unit is the canonical form (see :data:`UNITS`) of the word just after the number
    (``18 months``, ``4 tonnes``, ``20%``) or just before it (``NOK 910``, ``€40``), or None.
    Parts of codes (``CTD-41``) are not numbers: they are names.

    Returns:
        ``(number, unit)`` pairs in order; numbers canonical (``1,200`` → ``1200``,
        ``1,5`` → ``1.5``, ``eighteen`` → ``18``).
    """
    return list(stated_numbers(text or ""))


def _half_of(tokens: Sequence[str], i: int) -> str | None:
    """The unit of "half a day", "half an hour", "half day" or "half-day" at ``tokens[i]``.

    Half a unit is an amount: a claim giving "half a day" a price is not supported by the "Per
    day" column (set 22's s036). "half price", "half the group" state no amount.
    """
    low = tokens[i].casefold()
    if low.startswith("half-"):
        return UNITS.get(low[5:])
    if low != "half" or i + 1 >= len(tokens):
        return None
    after = tokens[i + 1].casefold()
    if after in ("a", "an") and i + 2 < len(tokens):
        after = tokens[i + 2].casefold()
    return UNITS.get(after)


#: Number-word compounds that name no amount: "a one-off fee", "a one-way ticket".
_IDIOM_TAILS = frozenset("off way to-one on-one size stop sided time liner".split())


def _worded_compound(token: str) -> bool:
    """Whether ``token`` is a number word joined to a noun ("three-month", "two-bedroom").

    "single", "double", "half" and "once" are not: "double-glazed", "half-day" (read by
    :func:`_half_of`), "once-only".
    """
    word, dash, rest = token.partition("-")
    return bool(
        dash
        and rest.isalpha()
        and word in _NUMBER_WORDS
        and word not in ("single", "double", "half", "once", "twice", "hundred", "thousand")
        and rest not in _IDIOM_TAILS
    )


@functools.lru_cache(maxsize=16384)
def stated_numbers(text: str) -> tuple[tuple[str, str | None], ...]:
    """:func:`numbers_with_units` as a tuple, cached by text (asked per claim and window)."""
    out: list[tuple[str, str | None]] = []
    tokens = re.findall(r"[€$£%°]|[^\W_]+(?:[.,]\d+)*(?:-[^\W_]+)*|\S", text or "")
    for i, tok in enumerate(tokens):
        low = tok.casefold()
        if re.fullmatch(r"\d+(?:[.,]\d+)*", tok):
            num = canonical_number(tok)
        elif re.fullmatch(r"\d+[a-z%°]+", low):  # "4t", "20%": split number and unit
            num = canonical_number(re.match(r"\d+", low).group(0))  # type: ignore[union-attr]
            out.append((num, UNITS.get(low[len(num) :])))
            continue
        elif half := _half_of(tokens, i):  # "half a day", "half-day": 0.5 of a unit
            out.append(("0.5", half))
            continue
        elif low in _NUMBER_WORDS and low not in ("single", "double", "half"):
            if _pronoun_number(tokens, i):
                continue  # "one of the courts", "the one on the left", "the two": no amount
            if low == "once" and _once_conjunction(tokens, i):
                continue  # "Once you have had your plot for a year, …": no amount
            num = _NUMBER_WORDS[low]
        elif re.fullmatch(r"\d+-[a-z]+", low):  # "18-month"
            num, _, unit = low.partition("-")
            out.append((canonical_number(num), UNITS.get(unit)))
            continue
        elif _worded_compound(low):  # "three-month", "two-bedroom" as "18-month"
            word, _, unit = low.partition("-")
            out.append((_NUMBER_WORDS[word], UNITS.get(unit)))
            continue
        else:
            continue
        prev = tokens[i - 1] if i > 0 else ""
        if names_a_number(prev):
            continue  # "Incident 2291", "Route 66": an identifier, a name (see names())
        after = tokens[i + 1].casefold() if i + 1 < len(tokens) else ""
        if after == "°" and i + 2 < len(tokens):
            after = "°" + tokens[i + 2].casefold()
        elif i + 3 < len(tokens) and tokens[i + 2] == "/":
            after = f"{after}/{tokens[i + 3].casefold()}"
        before = tokens[i - 1].casefold() if i > 0 else ""
        if i > 1 and tokens[i - 2] in ("'", "\u2019"):
            before = ""  # "I'm 67": a contraction's tail, not metres
        unit = UNITS.get(after) or UNITS.get(before)
        if unit is None and after.isalpha() and after not in STOPWORDS and i + 2 < len(tokens):
            unit = UNITS.get(tokens[i + 2].casefold())  # one qualifying word: "5 working days"
        out.append((num, unit))
    return tuple(out)


#: Bounds that read like negations but state a limit: "no more than 1.0 m/s" is a maximum, and
#: so is "no fish may be kept in a keepnet for longer than 6 hours" (as023, held-out set 44).
_BOUNDS_RE = re.compile(
    r"\b(?:no|not)\s+(?:more|less|later|earlier|fewer|greater|longer|shorter|higher|lower)"
    r"\s+than\b|\bnot\s+(?:to\s+)?exceed(?:ing)?\b|\bno\s+(?:sooner|later)\b"
    r"|\bno\s+(?:[^\W\d_]+\s+){1,3}?(?:may|can|shall|must|should|will)\s+"
    r"(?:[^\W\d_]+\s+){0,6}?(?:more|longer|later|fewer|greater|higher)\s+than\b",
    re.I,
)


def negations(text: str) -> int:
    """How many negation cues ``text`` has (``not``, ``never``, ``prohibited``, ``n't``...).

    Bounds (``no more than``, ``not to exceed``) are limits, not negations, and do not count.
    """
    low = _BOUNDS_RE.sub(" ", (text or "").casefold())
    return low.count("n't") + low.count("n’t") + sum(1 for w in words(low) if w in NEGATIONS)


def has_negation(text: str) -> bool:
    """Whether ``text`` is negated: an odd number of negation cues."""
    return negations(text) % 2 == 1


#: Words before "one" that make it a pronoun ("the one", "which one", "no one").
_ONE_PRONOUN_BEFORE = frozenset("the this that which each any every no".split())
#: Prepositions after which "one" with no noun of its own is a thing named before ("on one").
_ONE_OBJECT_OF = frozenset("on onto in into with".split())
#: Words after "one" that keep it a number: a range or a sum ("in one to two weeks").
_ONE_COUNTS_AFTER = frozenset("to or and - – plus".split())


def _pronoun_number(tokens: Sequence[str], i: int) -> bool:
    """Whether the number word at ``tokens[i]`` is a pronoun or partitive, not an amount.

    "one of the courts", "which one" and "the two" (named before: "the difference between the
    two is", ``make demo``) count nothing; "one hour", "the two courses", "the two of them" do.
    """
    after = tokens[i + 1].casefold() if i + 1 < len(tokens) else ""
    before = tokens[i - 1].casefold() if i > 0 else ""
    if tokens[i].casefold() != "one":
        return before == "the" and after != "of" and (after in STOPWORDS or not after[:1].isalnum())
    if before in _ONE_OBJECT_OF and after not in _ONE_COUNTS_AFTER:
        # "stay on one for up to 45 minutes" (af020, held-out set 31): the object of a
        # preposition with no noun after it stands for a thing named before
        return not after[:1].isalnum() or after in STOPWORDS
    return after in ("of", "another") or before in _ONE_PRONOUN_BEFORE


#: Words that start the clause "once" opens as a conjunction ("once you have paid").
_CLAUSE_SUBJECTS = frozenset(
    "i you we they he she it there the your their our his her its my this that these those "
    "all".split()
)
#: What "once a …" counts: "once a year", "once a term" is a frequency.
_ONCE_PER = frozenset(
    "year month week fortnight day night hour minute term season quarter semester session "
    "visit stay lifetime".split()
)


def _once_conjunction(tokens: Sequence[str], i: int) -> bool:
    """Whether "once" at ``tokens[i]`` opens a clause ("once you have …"), counting nothing.

    "Once you've had your plot for a year, you must cultivate at least 75% …" states no 1
    (ae029, held-out set 30); "once a year", "once per visit", "only once" do. "Once a member
    has paid" opens a clause too: "a" counts only before a stretch of time or an occasion.
    """
    after = tokens[i + 1].casefold() if i + 1 < len(tokens) else ""
    if after in _CLAUSE_SUBJECTS:
        return True
    if after in ("a", "an") and i + 2 < len(tokens):
        return tokens[i + 2].casefold().removesuffix("s") not in _ONCE_PER
    return False


def names_a_number(word: str) -> bool:
    """``Incident`` in "Incident 2291": a capitalised word that makes the number after it a name."""
    low = word.casefold()
    return (
        word[:1].isupper()
        and word.isalpha()
        and low not in STOPWORDS
        and low not in UNITS
        and low not in MONTHS
    )
