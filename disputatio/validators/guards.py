"""Guards: what a window must hold before any score can call it support for a claim.

The hard negatives of the labelled claim pairs copy their sentence but change one thing, which
similarity scores miss: every number of the claim must be in the window with the same unit, the
two must agree on negation, every name of the claim must be in the window or its section's
title and headings, so must each item of a list the claim names ("fever, arthralgia and
hepatitis", :mod:`disputatio.validators.lists`) and what the claim compares its subject with
("unlike Q fever", :mod:`disputatio.validators.contrast`), and a window of two sentences may
not lend a claim's number the names or words of another sentence, nor a table row its figures
to what its first cell does not name (:func:`~disputatio.validators.tables.unnamed_row`).
:func:`coverage` is the share of the claim's words in the window. The checkers of
:mod:`disputatio.validators.support` apply these first.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence

from disputatio.validators.actors import cancelled_by_other
from disputatio.validators.contrast import missing_contrast
from disputatio.validators.dated import other_date_label
from disputatio.validators.days import day_covered, month_covered
from disputatio.validators.groups import unsaid_group
from disputatio.validators.items import other_item
from disputatio.validators.listed import other_listed_amount
from disputatio.validators.lists import missing_items
from disputatio.validators.names import initials_of, letter_names, name_form, names
from disputatio.validators.opposites import NEGATED, negation_differs, opposite_words
from disputatio.validators.pairs import mixed_pair, paired_word
from disputatio.validators.periods import rate_unstated
from disputatio.validators.pieces import name_of_other_numbers
from disputatio.validators.restated import named_in_range, number_missing
from disputatio.validators.roles import other_role
from disputatio.validators.sentences import (
    STOPWORDS,
    content_words,
    split_sentences,
    stated_numbers,
    stem,
    words,
)
from disputatio.validators.subjects import holds_name, renames
from disputatio.validators.tables import other_cell, other_column, unnamed_row
from disputatio.validators.things import measured_of, other_charge, swapped_thing
from disputatio.validators.times import wrong_end


def in_sentence(claim: str, sentence: str) -> str:
    """Why the whole ``sentence`` gives the claim's figure to something else, or ``""``.

    The guards reading a sentence's structure: an amount of a list with its labels, a date with
    the words before it, who cancels. Also asked of a clause window's sentence (``Windows.best``).
    """
    listed = other_listed_amount(claim, sentence) or other_date_label(claim, sentence)
    return listed or cancelled_by_other(claim, sentence)


def guard(
    claim: str,
    window: str,
    context: str = "",
    given: Collection[tuple[str, str | None]] = (),
    topic: Collection[str] = (),
) -> str:
    """Why ``window`` cannot support ``claim``, or ``""`` when no guard fails.

    Args:
        claim: The claim.
        window: The evidence sentence(s).
        context: Title and headings of the window's section: names may come from there, and
            numbers without a unit (an identifier such as the 2291 of "Incident 2291").
        given: The numbers the question states, with their units: a claim may restate one the
            window does not state where a range of the window holds it ("a cake for 14 guests"
            on "for over 10 and up to 16 people": :mod:`disputatio.validators.ranges`).
        topic: The question's words: a table row they name whole is named by the claim too.

    Returns:
        The first failed guard as a short reason, else ``""``.
    """
    wrong = number_missing(claim, window, context, given)
    if wrong:
        return wrong
    unbound = (
        _unbound_numbers(claim, window)
        or mixed_pair(claim, window)
        or paired_word(claim, window)  # "bookings open 6 weeks before … and close 7 days before"
        or name_of_other_numbers(claim, window)
        or other_column(claim, window)
        or other_cell(claim, window)  # "Harbour hotel: … 24 hours | Old Town hotel: Tollgate …"
        or other_item(claim, window)  # "44 touring pitches with … and 12 premium pitches …"
        or measured_of(claim, window)  # "… course within 3 months of being hired"
        or in_sentence(claim, window)
        or ("" if _ANAPHOR_RE.match(claim) else unnamed_row(claim, window, topic))  # "It …"
        or wrong_end(claim, window)
        or rate_unstated(claim, window, context)  # "35.00 GBP per hour" on "3 hours, 35.00 GBP"
    )
    if unbound:
        return unbound
    group = unsaid_group(claim, f"{window} {context}")
    if group:  # "Non-members pay 2.00 GBP …" on "Each league player pays …" (ap002)
        return f"the claim speaks of {group}; the sentence does not"
    if negation_differs(claim, window):
        return NEGATED
    flipped = opposite_words(claim, window)
    if flipped:
        return f"the claim says {flipped[0]!r} where the sentence says {flipped[1]!r}"
    evidence = window + " " + context
    known = evidence.casefold()
    tokens = set(re.findall(r"[^\W_]+", known))
    missing = sorted(
        n
        for n in names(claim) | set(letter_names(claim))  # "Q fever" is not "Malta fever"
        # "Incident 2291" is named by "INCIDENT REPORT 2291" or incident_report_2291.txt too
        if n not in known
        and not (" " in n and set(n.split()) <= tokens)
        and not _plural_of_named(n, claim, tokens)
        and not named_in_range(n, known)
        and not day_covered(n, claim, window)  # "Saturday" in "Friday to Sunday"
        and not month_covered(n, claim, window)  # "January" in "November to February"
        and not initials_of(n, claim, evidence)  # "BCR" for Brackenford Community Radio
        and not _size_in(n, known)  # "8x10" for "8 by 10 inch" (aq028, held-out set 42)
    )
    if missing:
        return f"{', '.join(missing)} is not in the section"
    swapped = swapped_name(claim, window) or _swapped_in_join(claim, window)
    if swapped and not _day_in_span(swapped[0], claim, window):
        return f"the claim names {swapped[0]} where the sentence names {swapped[1]}"
    thing = swapped_thing(claim, window, context) or other_charge(claim, window, context)
    if thing:
        return f"the claim gives {thing[0]!r} the figure the sentence gives {thing[1]!r}"
    moved = other_role(claim, window)  # "the Captain, Lucinda Strang," as the Vice-Captain
    if moved:
        return f"the sentence names {moved[0]} as the {moved[2]}, not the {moved[1]}"
    unlisted = missing_items(claim, evidence)  # "fever, arthralgia and …"
    if unlisted:
        return f"{', '.join(unlisted)} of the claim's list is not in the sentence"
    return missing_contrast(claim, evidence)


def _size_in(name: str, known: str) -> bool:
    """Whether ``name`` is a size ("8x10") that ``known`` says as "8 by 10" or "8 x 10"."""
    m = re.fullmatch(r"(\d+)x(\d+)", name)
    return m is not None and re.search(rf"\b{m[1]}\s*(?:x|×|by)\s*{m[2]}\b", known) is not None


def _plural_of_named(name: str, claim: str, tokens: Collection[str]) -> bool:
    """Whether the name word ``name`` ends a name in the plural whose singular ``tokens`` hold.

    "House Move Packs" names the "House Move Pack" of the price list (j041, held-out set 25):
    the word before it is a name word the evidence holds too. A plural on its own ("on
    Sundays", "Refunds are …") is not read so.
    """
    if not name.endswith("s") or name[:-1] not in tokens:
        return False
    toks = words(claim)
    return any(
        tok.casefold() == name and toks[i - 1][:1].isupper() and toks[i - 1].casefold() in tokens
        for i, tok in enumerate(toks)
        if i > 0
    )


def swapped_name(claim: str, window: str) -> tuple[str, str] | None:
    """A name of ``claim`` that ``window`` replaces by a name of its own, word for word.

    The name guard lets a claim take a name from its section's title, headings or lead ("the
    battery pack" of a manual naming its instrument up front). That is no licence to put it
    where the sentence names something else: "Brucellosis is a diagnosis of exclusion" is not
    supported by "Because AOSD is a diagnosis of exclusion" in a section that lists brucellosis
    among the diagnoses to exclude (``make demo``, 2026-12-03), nor "The maximum stay in the
    Aurora Lounge is 3 hours" by "The maximum stay in the Fjord Lounge is 3 hours" (v008,
    held-out set 9, a near miss answered). A replaced name is a capitalised word of the claim
    (its first word too) missing from the window, standing where the window has a name the
    claim lacks: the same two words follow both, or the same word on either side, or (the
    claim's last word) the same two words before both. :func:`guard` also asks it of each
    sentence of a joined window that states the rest of the claim: "The café is closed on
    Sundays" is not supported by "On Sundays the café serves brunch from 10:00 to 14:00. The
    café is closed on Mondays." (b029, held-out set 15), where the whole window holds
    "Sundays".

    On every supported claim/sentence pair of the grounding records (757 distinct pairs) this
    rejects v008, v011's wrong half and b029 and no other (docs/grounding.md).

    Returns:
        ``(the claim's name, the window's name)``, or None.
    """
    c, w = words(claim), words(window)
    cl, wl = [name_form(t) for t in c], [name_form(t) for t in w]
    wtext, ctext = window.casefold(), claim.casefold()
    wnames = set(names(window)) | {t.casefold() for t in w if len(t) > 1 and t.isupper()}
    for i, tok in enumerate(c[:-1]):
        if not tok[:1].isupper() or cl[i] in STOPWORDS or cl[i] in wtext:
            continue
        for j, other in enumerate(wl):
            if other not in wnames or other in ctext:
                continue
            follows = len(cl[i + 1 : i + 3]) == 2 and cl[i + 1 : i + 3] == wl[j + 1 : j + 3]
            around = i > 0 and 0 < j < len(wl) - 1
            around = around and cl[i - 1] == wl[j - 1] and cl[i + 1] == wl[j + 1]
            if follows or around:
                return tok, w[j]
    last = len(c) - 1
    named_last = c[last][:1].isupper() and cl[last] not in STOPWORDS
    if last >= 2 and named_last and cl[last] not in wtext:
        for j in range(2, len(wl)):
            if wl[j] in wnames and wl[j] not in ctext and wl[j - 2 : j] == cl[last - 2 : last]:
                return c[last], w[j]
    return None


def _day_in_span(name: str, claim: str, window: str) -> bool:
    """Whether the claim's day ``name`` is not written in ``window`` but in a span it says.

    "… at 9.50 pm on Thursdays" on "… at 9.50 pm on weekdays and at 6.10 pm on Saturdays"
    (ar017, held-out set 43) replaces no day: Thursday is one of the weekdays. A day the
    window writes is read as written ("closed on Sundays" beside "closed on Mondays": b029).
    """
    folded = name.casefold()
    return folded not in window.casefold() and day_covered(folded, claim, window)


def _swapped_in_join(claim: str, window: str) -> tuple[str, str] | None:
    """A sentence of a joined ``window`` stating all of ``claim`` but of another name.

    "The café is closed on Mondays." in a join stating "Sundays" elsewhere does not carry "The
    café is closed on Sundays."; "The A-frame on M/V Kvitbjørn has …" beside the sentence
    about the claim's Sjøstjerne states less than the claim and is only its neighbour.
    """
    spans = split_sentences(window)
    for span in spans if len(spans) > 1 else []:
        swapped = swapped_name(claim, span.sentence)
        if swapped and content_words(claim) - content_words(swapped[0]) <= content_words(
            span.sentence
        ):
            return swapped
    return None


def _unbound_numbers(claim: str, window: str) -> str:
    """Why a window of several sentences pairs a claim's number with another sentence's names.

    "The A-frame on Sjøstjerne is rated 6 tonnes" is not supported by "The A-frame on
    Kvitbjørn is rated 10 tonnes. The crane on Sjøstjerne is rated 6 tonnes.": a sentence that
    holds a number of the claim and some of its names must hold all of them (one that holds
    none, "the pack lasts 70 hours", takes its subject from the sentence before).
    """
    spans = split_sentences(window)
    if len(spans) < 2:
        return ""
    claim_names = names(claim) | set(letter_names(claim))  # "The C team …" (ap026, set 41)
    present = {n for n in claim_names if holds_name(window.casefold(), n)}
    texts = [s.sentence for s in spans]
    # "Ropewalk has 60 lockers … 12 GBP a month. Tannery has fewer lockers …": when a name of
    # the claim opens a sentence, the other sentences' first words are names too (i002, set 24)
    firsts = [_first_word(t) for t in texts]
    opening = present & set(firsts)
    # a sentence naming none of them, and scoped to something the claim does not speak of,
    # leans on a name before it, never on one after it: "At the after-school club every child
    # gets a snack at 16:00 … At holiday camps, children at Millpond …" does not give
    # Millpond's snack time (ab018, held-out set 27)
    anchored = [
        any(holds_name(t.casefold(), n) for n in present) or not _scoped_elsewhere(t, claim)
        for t in texts
    ]
    for number, _ in stated_numbers(claim):
        holders = [i for i, t in enumerate(texts) if number in {n for n, _ in stated_numbers(t)}]
        if holders and not any(
            (
                _binds(texts[i], present, claim_names, firsts[i] if opening else "")
                and (anchored[i] or any(anchored[:i]) or not present)
            )
            or (i > 0 and _continues(claim, texts[i], texts[i - 1], present))
            for i in holders
        ):
            return f"the number {number} and the names of the claim are in different sentences"
    return _borrowed_word(claim, texts)


def _borrowed_word(claim: str, sentences: Sequence[str]) -> str:
    """Why a window lends a claim's number a word that goes with another number.

    "The operator course lasts 3 months" is not supported by "The pilot course, which lasts 5
    days, ... The operator course must be completed within 3 months.": "lasts" is in the window
    only beside 5 days, in a sentence that does not hold the claim's number. A word the claim
    takes from another sentence of the window (its subject, "the pack") is fine when no other
    number stands within two words of it. Nor is a name of the claim, or the word ending it
    ("the Old Town hotel in four ground-floor rooms … 15 GBP per dog"; "Della Fairweather,
    within 28 days … She replies within 10 working days": l025, l037, held-out set 26): which
    sentence a name may lend its number to is :func:`_unbound_numbers`'s to say.
    """
    wanted = {n for n, _ in stated_numbers(claim)}
    if not wanted:
        return ""
    holders = [s for s in sentences if wanted & {n for n, _ in stated_numbers(s)}]
    if not holders:
        return ""
    held = frozenset().union(*(content_words(h) for h in holders))
    asked = content_words(claim)
    claim_names = names(claim)
    for sentence in sentences:
        if sentence in holders:
            continue
        toks = words(sentence)
        for i, tok in enumerate(toks):
            st = stem(tok)
            if st not in asked or st in held or tok.casefold() in STOPWORDS:
                continue
            if name_form(tok) in claim_names or (i and name_form(toks[i - 1]) in claim_names):
                continue  # the claim's subject, named in the other sentence
            other = {n for n, _ in stated_numbers(" ".join(toks[max(0, i - 2) : i + 3]))} - wanted
            if other:
                return f"{tok!r} goes with {min(other)} in another sentence, not with the claim's"
    return ""


#: A sentence opening with its scope: "At the after-school club …", "In the learner pool …".
_SCOPE_RE = re.compile(
    r"^\W*(?:at|in|on|during)\s+(?:the\s+|our\s+)?([^\W\d_][\w'-]*(?:\s+[^\W\d_][\w'-]*)?)",
    re.I,
)


#: Openings that are idioms, not a scope: "At least", "In total", "On average", "At all times".
_NO_SCOPE = frozenset("least all any total average addition case first general fact short".split())


def _scoped_elsewhere(sentence: str, claim: str) -> bool:
    """Whether ``sentence`` opens with a scope ("At the after-school club") the claim lacks."""
    m = _SCOPE_RE.match(sentence)
    if m is None or m.group(1).split()[0].casefold() in _NO_SCOPE:
        return False
    scope = content_words(m.group(1))
    return bool(scope) and not scope & content_words(claim)


def _first_word(sentence: str) -> str:
    """``sentence``'s first word as a name (:func:`name_form`), when it is capitalised, or ""."""
    toks = words(sentence)
    first = toks[0] if toks else ""
    if not first[:1].isupper() or first.casefold() in STOPWORDS:
        return ""
    return name_form(first)


def _binds(sentence: str, present: set[str], claim_names: frozenset[str], first: str = "") -> bool:
    """Whether ``sentence`` may lend its number to a claim naming ``present`` (in the window).

    It holds all of them, or none of them and no name of its own: "The stern crane on M/V
    Sjøstjerne is rated 6 tonnes" does not lend its 6 to a claim about Kvitbjørn, named in
    the sentence before. ``first`` is the sentence's first word, read as one of its names.
    """
    folded = sentence.casefold()
    held = {n for n in present if holds_name(folded, n)}
    if held:
        return held == present
    own = names(sentence) | ({first} if first else set())
    return not present or not (own - claim_names)


#: A sentence opening with one of these takes its subject from the sentence before.
_ANAPHOR_RE = re.compile(r"(?:It|Its|They|Their|This|These|He|She|His|Her)\b")
#: "there" pointing back at a place ("Parking a bike there costs …"), not "there is/are".
_THERE_RE = re.compile(
    r"\bthere\b(?!\s+(?:is|are|was|were|will|would|may|might|can|could|must|should|shall|"
    r"has|have|had|be|been|being|seems?|appears?)\b)(?!'s)",
    re.I,
)


def _continues(claim: str, sentence: str, before: str, present: set[str]) -> bool:
    """Whether ``sentence`` goes on about the subject the sentence ``before`` names.

    "The Kids Climbing Club is for children aged 7 to 11. It meets on Monday afternoons …
    and costs 1,400 NOK per term." carries "The Kids Climbing Club costs 1,400 NOK per term"
    (e022, held-out set 17): "It" is the club, and "Monday" is no subject of its own. The
    one before holds every name of the claim the sentence does not ("It costs 260 GBP … by 1
    July" carries "The Summer School costs 260 GBP … by 1 July": set 20's t042), and no name
    of the sentence stands where the claim has one ("It opens at 10 on Sundays" after "The
    café opens at 8 on Mondays" does not carry "The café opens at 10 on Mondays"). "There"
    points back at a place alike: "The Station has a secure cycle park … Parking a bike there
    costs … 10.00 GBP per month" carries the Station's cycle park's price (ac034, set 28).
    """
    refers = _ANAPHOR_RE.match(sentence.lstrip()) or _THERE_RE.search(sentence)
    if not before or not (refers or renames(sentence, before)):
        return False
    # a name the sentence holds itself goes with its own facts ("… the balance by 1 July":
    # set 20's t042); the others are the subject's, named before
    folded, folded_before = sentence.casefold(), before.casefold()
    rest = {n for n in present if not holds_name(folded, n)}
    return all(holds_name(folded_before, n) for n in rest) and swapped_name(claim, sentence) is None


def coverage(claim: str, window: str, context: str = "") -> float:
    """Share of the claim's content words (stemmed) found in the window or its context."""
    wanted = content_words(claim)
    if not wanted:
        return 0.0
    have = content_words(window) | content_words(context)
    return len(wanted & have) / len(wanted)
