"""Claims set aside for what their evidence stands in, or for what the question asks.

Helpers of :func:`~disputatio.validators.relevance.drop_off_question`: a subsection keeping its
subject for another group (:func:`barred_claims`) or its prices for one
(:func:`priced_claims`), a paragraph about another event or place
(:func:`siblings`), a sentence whose pronoun stands for another thing than the question names
(:func:`referred_else`), and a yes/no question about the asker's age that no claim states an age for
(:func:`no_age`). A claim set aside keeps its verdict (its sentence does support it) and says why.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from disputatio.state.claims import Claim, Evidence
from disputatio.validators.asked import is_multipart
from disputatio.validators.groups import barred, priced_for, row_for
from disputatio.validators.sentences import content_words
from disputatio.validators.siblings import sibling
from disputatio.validators.subjects import named_subjects

#: A yes/no question about the asker's age: "Am I old enough?", "Is she too young to …?".
_OLD_ENOUGH_RE = re.compile(r"\b(?:old\s+enough|too\s+(?:young|old))\b", re.I)


def barred_claims(
    question: str,
    facts: Sequence[Claim],
    keep: bool,
    under: Callable[[Evidence], tuple[str, str]],
) -> list[Claim]:
    """Set aside the claims whose subsection keeps its subject for a group the asker is not in.

    "Can I rent a small locker?" from an Evening Member is not answered by the locker prices
    under "Storage is only for Maker Members." (ak024, held-out set 36: :func:`.groups.barred`),
    nor a Club Diver's "Can I go on …?" by a trip's row "for" Sport Divers and above (av044,
    set 47: :func:`.groups.row_for`).
    """

    def kept(claim: Claim, evidence: Evidence) -> str | None:
        text, heads = under(evidence)
        return barred(question, text, f"{heads} {evidence.sentence}") or row_for(
            question, evidence.sentence
        )

    return _aside_where(facts, keep, kept, "the documents keep it for another group")


def priced_claims(
    question: str,
    facts: Sequence[Claim],
    keep: bool,
    under: Callable[[Evidence], tuple[str, str]],
) -> list[Claim]:
    """Set aside the claims whose prices their subsection gives for a group the asker is not in.

    "I'm not a member. What would an hour's private lesson … cost me?" is not answered by the
    lesson table's 40.00 GBP under "Prices are for members; …" (au017, held-out set 46:
    :func:`.groups.priced_for`).
    """

    def note(claim: Claim, evidence: Evidence) -> str | None:
        return priced_for(question, under(evidence)[0], claim.text)

    return _aside_where(facts, keep, note, "the documents give these prices for another group")


def _aside_where(
    facts: Sequence[Claim],
    keep: bool,
    found: Callable[[Claim, Evidence], str | None],
    why: str,
) -> list[Claim]:
    """Set aside each claim for which ``found`` quotes a sentence of one of its evidence's."""
    aside = []
    for claim in facts:
        quoted = next(filter(None, (found(claim, e) for e in claim.all_evidence)), None)
        if quoted:
            set_aside(claim, f"{why}: {quoted!r}", keep)
            aside.append(claim)
    return aside


def siblings(
    question: str,
    facts: Sequence[Claim],
    keep: bool,
    block: Callable[[Evidence], str],
    places: Callable[[Evidence], str] | None,
) -> list[Claim]:
    """Set aside the claims whose paragraphs are about another event or place (ao029, ao023).

    ``places``: evidence → the text the places are read from (its section's; without it, its
    paragraph). A multi-part question is left alone (:mod:`.siblings`: each claim answers one
    part).
    """
    if is_multipart(question):
        return []
    aside = []
    for claim in facts:
        paragraphs = " ".join(block(e) for e in claim.all_evidence)
        around = " ".join(places(e) for e in claim.all_evidence) if places else paragraphs
        other = sibling(question, paragraphs, around)
        if other:
            why = f"the question asks about {other[0]!r}; the paragraph is about {other[1]!r}"
            set_aside(claim, why, keep)
            aside.append(claim)
    return aside


def referred_else(
    question: str,
    facts: Sequence[Claim],
    keep: bool,
    referent: Callable[[Evidence], str],
    heads: Callable[[Evidence], str],
) -> list[Claim]:
    """Set aside the claims whose sentences' pronouns stand for another thing than the question's.

    "I'm a Club Diver … Can I go on the Corrieness Wrecks Weekend in June?" is not answered by
    "They are open to Club Divers and above who have logged at least 10 dives" after "Night
    dives at the quarry are held on Wednesday evenings …" (av044, held-out set 47): "They" are
    the night dives (:meth:`~disputatio.validators.windows.Windows.referent`), and neither
    that sentence, its own nor its headings (``heads``) hold a word of the weekend's name.

    Only the question's names of two words or more count (the named thing asked about), and
    only claims whose every sentence opens with a pronoun the sentence before resolves.
    """
    named = [n for n in named_subjects(question) if len(n.split()) > 1 and content_words(n)]
    aside = []
    for claim in facts if named else []:
        told = [(referent(e), e) for e in claim.all_evidence]
        if not told or not all(r for r, _ in told):
            continue
        held = frozenset().union(*(content_words(f"{r} {e.sentence} {heads(e)}") for r, e in told))
        missing = next((n for n in named if not content_words(n) & held), None)
        if missing:
            why = f"its sentence's pronoun stands for what the sentence before names, not {missing}"
            set_aside(claim, why, keep)
            aside.append(claim)
    return aside


def set_aside(claim: Claim, why: str, keep: bool) -> None:
    """Mark ``claim`` supported but not what was asked (dropped unless ``keep``), saying ``why``."""
    claim.dropped = not keep
    claim.reason = f"supported, but not what was asked: {why}"


def no_age(question: str, facts: Sequence[Claim], keep: bool) -> list[Claim]:
    """Set aside every claim when a yes/no question asks about an age and none states a number.

    "I'm 14 and would like to help out at the congress in November. Am I old enough?" is not
    answered by "Congress helpers are asked to give at least one half-day." and "Each helper
    gets a free lunch voucher …" (ap037, held-out set 41): no claim says an age.
    """
    if not _OLD_ENOUGH_RE.search(question) or any(re.search(r"\d", c.text) for c in facts):
        return []
    for claim in facts:
        set_aside(claim, "the question asks about an age; no claim states one", keep)
    return list(facts)
