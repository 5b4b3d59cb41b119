"""Matching the model's names to the plan's: options, and the user constraint it names.

The referee writes option names loosely (``"Postgres"`` for PostgreSQL, ``"Preact JS"``);
:func:`match_option` maps them onto the plan's spelling or says they are ambiguous, and
:func:`named_constraint` finds the user constraint an override names.
"""

from __future__ import annotations

import re
from difflib import SequenceMatcher

from disputatio.errors import DisputatioError

#: Least :class:`difflib.SequenceMatcher` ratio for a best-overlap match.
OVERLAP_MIN = 0.8
#: A best-overlap match must beat the runner-up by this much, else it is ambiguous.
OVERLAP_MARGIN = 0.05
_WORD_RE = re.compile(r"[a-z0-9+#]+")


class AmbiguousOptionError(DisputatioError):
    """A name matches several options equally well (the judge is asked to fix it).

    Attributes:
        name: The name as the model wrote it.
        candidates: The options it could mean.
    """

    code = "referee.ambiguous_option"

    def __init__(self, name: str, candidates: list[str]) -> None:
        super().__init__(f"{name!r} could be any of {', '.join(candidates)}")
        self.name = name
        self.candidates = candidates


def words(name: str) -> list[str]:
    """Lower-case words of ``name`` (letters, digits, ``+`` and ``#``)."""
    return _WORD_RE.findall(name.casefold())


def _contains(seq: list[str], sub: list[str]) -> bool:
    n = len(sub)
    return n > 0 and any(seq[i : i + n] == sub for i in range(len(seq) - n + 1))


def match_option(name: str, options: list[str]) -> str | None:
    """The plan's spelling of option ``name``, or None when it names none of them.

    1. exact: the same words (case and punctuation ignored; ``"pg vector"`` = ``"pgvector"``);
    2. whole word: the option's words appear as consecutive whole words of ``name`` (or
       ``name``'s in the option's): ``"Preact JS"`` → Preact, never React; ``"Google Cloud
       Run"`` contains no word ``go``; the longest such option wins;
    3. best overlap: the most similar option by :class:`difflib.SequenceMatcher` ratio, if at
       least :data:`OVERLAP_MIN` (``"Postgres"`` → PostgreSQL).

    Raises:
        AmbiguousOptionError: Two options tie at the deciding step.
    """
    key = words(name)
    if not key:
        return None
    forms = {o: words(o) for o in options}
    exact = [o for o, w in forms.items() if w == key or "".join(w) == "".join(key)]
    if len(exact) == 1:
        return exact[0]
    if exact:
        raise AmbiguousOptionError(name, exact)
    whole = [(len(w), o) for o, w in forms.items() if _contains(key, w) or _contains(w, key)]
    if whole:
        best = max(n for n, _ in whole)
        top = [o for n, o in whole if n == best]
        if len(top) > 1:
            raise AmbiguousOptionError(name, top)
        return top[0]
    joined = " ".join(key)
    ratios = sorted(
        ((SequenceMatcher(None, joined, " ".join(w)).ratio(), o) for o, w in forms.items()),
        reverse=True,
    )
    if not ratios or ratios[0][0] < OVERLAP_MIN:
        return None
    close = [o for r, o in ratios if ratios[0][0] - r < OVERLAP_MARGIN]
    if len(close) > 1:
        raise AmbiguousOptionError(name, close)
    return ratios[0][1]


#: Words that name nothing on their own: ``"in"`` must not name ``avoid: vendor lock-in``.
_FILLER = frozenset(
    "a an the of to in on at by for and or is are be it its as with from this that".split()
)


def _content(seq: list[str]) -> list[str]:
    return [w for w in seq if w not in _FILLER]


def named_constraint(text: str, constraints: list[str]) -> str | None:
    """The user constraint (one of ``Constraints.items()``) that ``text`` names, if any.

    Filler words (articles, prepositions...) are ignored on both sides. ``text`` names a
    constraint when either contains the other's words in order, or when it shares at least
    half of the constraint's words; a text of filler words only names none.
    """
    key = _content(words(text))
    if not key:
        return None
    best: tuple[float, str] | None = None
    for line in constraints:
        w = _content(words(line))
        body = _content(words(line.split(":", 1)[-1]))
        if _contains(key, body) or _contains(w, key):
            return line
        share = len(set(key) & set(body)) / max(len(set(body)), 1)
        if share >= 0.5 and (best is None or share > best[0]):
            best = (share, line)
    return best[1] if best else None
