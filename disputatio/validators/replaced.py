"""The word rule: a word of the question that the evidence replaces with another.

Asked for the password interval of *service* accounts, a small model answers with the sentence
about *standard user* accounts; asked what the ROV weighs *in water*, with its weight *in air*.
:func:`contrast` finds such a replacement: a word of the question that the evidence lacks, where
the evidence puts another word in its place, before the same noun or after the same preposition.
A caller may pass a word similarity, so that synonyms are no contrast. The rule is off by default
(``grounding.on_question_words``, :func:`disputatio.validators.relevance.off_question`); the
helpers that read content words (:func:`content`, :data:`ASKING`) serve the topic rule too.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

from disputatio.validators.sentences import STOPWORDS, stem, words

#: Prepositions after which a question's word names the condition asked about ("in water").
PREPOSITIONS = frozenset("in on at for from with during under inside outside into onto".split())

#: Words that may stand between a preposition or modifier and its noun.
_DETERMINERS = frozenset("the a an its their this these those his her our your".split())

#: Question-form words: they ask for a value, and no evidence repeats them.
ASKING = frozenset(
    stem(w)
    for w in "often long many much time far old maximum minimum happen which what who whom "
    "whose when where why how".split()
)


def content(token: str) -> bool:
    """Whether ``token`` is a content word: no stopword, no digit, longer than one letter."""
    low = token.casefold()
    return low not in STOPWORDS and not any(ch.isdigit() for ch in low) and len(low) > 1


def _next_content(tokens: Sequence[str], i: int, step: int) -> int | None:
    """The index of the first content word from ``i`` on (skipping determiners), if any."""
    while 0 <= i < len(tokens):
        if tokens[i] not in _DETERMINERS:
            return i if content(tokens[i]) else None
        i += step
    return None


#: Word similarity (cosine in the embedding space) from which a replaced word is a synonym,
#: not a contrast: "big"/"large" 0.81, "unguarded"/"unprotected" 0.65 against "water"/"air"
#: 0.50, "service"/"user" 0.36 (all-MiniLM-L6-v2; docs/grounding.md says where each was found).
SYNONYM_SIMILARITY = 0.6

Similar = Callable[[str, str], float]


def contrast(
    question: str, evidence: str, context: str = "", similar: Similar | None = None
) -> tuple[str, str] | None:
    """A word of ``question`` the evidence replaces with another, as ``(asked, found)``.

    Args:
        question: The question (or one part of it).
        evidence: The sentence(s) the claims rest on.
        context: The evidence's section title and headings (words there count as present).
        similar: Word similarity in [0, 1]; a replacement at least :data:`SYNONYM_SIMILARITY`
            similar to the question's word is a synonym ("big"/"large"), not a contrast.

    Returns:
        ``("service accounts", "user accounts")``-like phrases, or None when the evidence
        puts no other word where the question has one it lacks.
    """
    for asked, found, word, other in _replacements(question, evidence, context):
        if similar is None or similar(word, other) < SYNONYM_SIMILARITY:
            return asked, found
    return None


def _replacements(
    question: str, evidence: str, context: str
) -> Iterator[tuple[str, str, str, str]]:
    """``(asked phrase, found phrase, asked word, found word)`` for each replaced word."""
    q = [t.casefold() for t in words(question)]
    e = [t.casefold() for t in words(evidence)]
    have = {stem(t) for t in e} | {stem(t.casefold()) for t in words(context)}
    asked = {stem(t) for t in q}
    for i, tok in enumerate(q):
        if not content(tok) or stem(tok) in have or stem(tok) in ASKING:
            continue
        # "<missing> <noun>" where the evidence says "<other> <noun>"
        nxt = i + 1 if i + 1 < len(q) and content(q[i + 1]) else None
        if nxt is not None and stem(q[nxt]) in have:
            for j, other in enumerate(e):
                if j and stem(other) == stem(q[nxt]) and _replaces(e[j - 1], asked):
                    yield f"{tok} {q[nxt]}", f"{e[j - 1]} {other}", tok, e[j - 1]
        # "<preposition> <missing>" where the evidence says "<preposition> <other>"
        back = i - 1
        while back >= 0 and q[back] in _DETERMINERS:
            back -= 1
        if back >= 0 and q[back] in PREPOSITIONS:
            for j, other in enumerate(e):
                if other != q[back]:
                    continue
                k = _next_content(e, j + 1, 1)
                if k is not None and _replaces(e[k], asked):
                    yield f"{q[back]} {tok}", f"{other} {e[k]}", tok, e[k]


def _replaces(word: str, asked: set[str]) -> bool:
    """Whether an evidence word can stand where the question has another (a content word)."""
    return content(word) and stem(word) not in asked
