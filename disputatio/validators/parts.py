"""The parts of a question, and which of them a checked answer leaves unanswered.

Asked "What is the water temperature of the Therapy Pool, and how deep is it?", the quick path
kept its one supported claim (34 degrees) and dropped the invented depth: the answer read as
complete while the second half of the question went silently unanswered. The debate decomposes
a question into sub-questions and says "not found" per leaf; the quick path has no model call
to spare, so it reads the parts off the question's wording (:func:`question_parts`) and, after
the claim check, says which part no kept claim can answer (:func:`mark_unanswered_parts`).

A claim *can* answer a part unless what the part asks for rules it out (an amount, a duration,
a time, a person or a kind of amount the claim does not state: :func:`~disputatio.validators.
asked.unanswered`, :func:`~disputatio.validators.amounts.kind_mismatch`, :func:`part_kind`);
among the parts left, it is for those whose own words it names (words the other parts do not
use) or whose kind of amount, asked by that part alone, it states. A claim naming no part is
left to every part it can answer, so a part is only said to be unanswered when every kept
claim is clearly another part's: the mark errs towards silence. What it says and misses is
measured on the labelled multi-part questions in docs/grounding.md. Lexical; no model call.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence

from disputatio.state.claims import Claim, ClaimReport
from disputatio.validators.amounts import asked_kind, asked_unit, kind_mismatch, stated_kinds
from disputatio.validators.asked import unanswered
from disputatio.validators.dated import DATE_RE
from disputatio.validators.dayparts import CLOCK_SAID_RE
from disputatio.validators.questions import question_parts
from disputatio.validators.relevance import topic_words
from disputatio.validators.sentences import DAYS, MONTHS, YEAR_RE, stated_numbers, stem, words

#: The claim that stands for a part of the question no kept claim answers.
NOT_FOUND_PART = "The documents do not answer this part of the question: {part}"

#: A part asking a time: how long (not "how long is the slope"), how often, when.
_TIME_RE = re.compile(
    r"\bhow\s+long\b(?!\s+(?:is|are|was|were)\b)|\bhow\s+often\b|^\s*(?:until\s+|by\s+)?when\b|"
    r"\bat\s+what\s+time\b|\bhow\s+(?:quickly|soon)\b",
    re.I,
)
#: A part asking a day: "which day does the choir meet", "on what days".
_DAY_ASKED_RE = re.compile(r"\b(?:which|what)\s+days?\b", re.I)
#: A part asking a date: "what date is the 2027 meeting", "on which date" ("when" asks a time
#: too, which a date need not answer: ar022's "when does it get back").
_DATE_ASKED_RE = re.compile(r"\b(?:what|which)\s+date\b", re.I)
#: A part asking a count: "how many members …" (a unit's "how many days" is read elsewhere).
_COUNT_ASKED_RE = re.compile(r"\bhow\s+many\b", re.I)
#: Words that give a count without a figure: "half the members", "a majority", "nobody".
_COUNT_WORDS_RE = re.compile(
    r"\b(?:none|nobody|no\s+one|all|half|majority|quarter|third|quorum)\b", re.I
)
#: A part asking a price: "how much … cost/fee/pay", "how much is a/it".
_MONEY_RE = re.compile(
    r"\bhow\s+much\b(?=.*\b(?:cost|costs|charge|charges|pay|fee|fees|price|fare)\b)|"
    r"\bhow\s+much\s+(?:is|are|was)\s+(?:a|an|the|it|one)\b",
    re.I,
)


def part_kind(part: str) -> str | None:
    """The kind of amount one part asks for: a question's named kind, a time, a price.

    Read more loosely than a whole question's (:func:`~disputatio.validators.amounts.asked_kind`):
    it only decides which part a claim is for, never whether a claim is dropped.
    """
    if kind := asked_kind(part):
        return kind
    if _TIME_RE.search(part):
        return "time"
    return "money" if _MONEY_RE.search(part) else None


def can_answer(part: str, claim: str) -> bool:
    """Whether ``claim`` may answer ``part``: it states what the part asks for, of its kind.

    What a whole question asks is read by :func:`~disputatio.validators.asked.unanswered`
    and :func:`~disputatio.validators.amounts.kind_mismatch`; a part's kind of amount more
    loosely (:func:`part_kind`).
    """
    if unanswered(part, [claim]) or kind_mismatch(part, claim):
        return False
    if _DAY_ASKED_RE.search(part) and not _says_day(claim):
        return False  # "Which day does the choir meet?" is not answered by its director
    if _COUNT_ASKED_RE.search(part) and not asked_unit(part) and not _says_count(claim):
        return False  # "how many members …" is not answered by "on Monday 19 October at 7 pm"
    kind, kinds = part_kind(part), stated_kinds(claim)
    return not kind or not kinds or None in kinds or kind in kinds


def _says_count(claim: str) -> bool:
    """Whether ``claim`` states a number that is no date, year or time of day (a count).

    A part asking "how many members have to be there" is not answered by "In 2026 it is on
    Monday 19 October at 7 pm" (am025, held-out set 38), whose numbers say when.
    """
    plain = CLOCK_SAID_RE.sub(" ", DATE_RE.sub(" ", claim))
    return any(not YEAR_RE.fullmatch(n) for n, _ in stated_numbers(plain)) or bool(
        _COUNT_WORDS_RE.search(plain)
    )


def _says_day(claim: str) -> bool:
    """Whether ``claim`` names a day: a weekday, a kind of day, a month or a date."""
    said = {w.casefold().removesuffix("s") for w in words(claim)}
    return bool(said & (DAYS | MONTHS)) or bool(re.search(r"\b\d{1,2}(?:st|nd|rd|th)?\b", claim))


def name_heads(part: str) -> dict[str, str]:
    """A part's words that end a name, each with the name's word before it.

    In "how does it differ from Q fever?" and "what does a shower cost in the Fjord Lounge?"
    *fever* and *lounge* are the last words of a name (*Q* fever, *Fjord* Lounge): a claim
    about Malta fever or the Aurora Lounge names the word, not the thing. Returns stem →
    the casefolded word before it, for every word after a capitalised one that does not open
    the part.
    """
    tokens = words(part)
    return {
        stem(t.casefold()): prev.casefold()
        for prev, t in itertools.pairwise(tokens[1:])
        if prev[:1].isupper() and prev != "I"  # "if I cancel": no name
    }


def _names(said: Sequence[str], part: str, own: set[str]) -> bool:
    """Whether a claim (its words ``said``) names one of ``own``, each with its name."""
    stems = {stem(t.casefold()) for t in said}
    low = {t.casefold() for t in said}
    heads = name_heads(part)
    return any(w in stems and (w not in heads or heads[w] in low) for w in own)


def claim_parts(claim: str, parts: Sequence[str], *, refusal: bool = False) -> set[int]:
    """The indices of the parts ``claim`` may answer (all of them when nothing tells).

    Args:
        claim: The claim's text.
        parts: The question's parts (:func:`question_parts`).
        refusal: The claim says the documents do not answer: what a part asks for does not
            apply to it, its words alone say which part it refuses.
    """
    every = set(range(len(parts)))
    able = every if refusal else {i for i in every if can_answer(parts[i], claim)}
    if not able:
        return set()
    topics = [topic_words(p) for p in parts]
    own = [t - set().union(*(topics[:i] + topics[i + 1 :])) for i, t in enumerate(topics)]
    said, tokens = topic_words(claim), words(claim)
    named = {i for i in able if own[i] & said and _names(tokens, parts[i], own[i])}
    kinds = [part_kind(p) for p in parts]
    stated = stated_kinds(claim)
    # a kind of amount only one part asks for, stated: "21 days" answers "how long", whatever
    # words the claim shares with the other part
    named |= {i for i in able if kinds[i] and kinds[i] in stated and kinds.count(kinds[i]) == 1}
    # a date, where one part alone asks one: "… on Thursday 29 April" answers "what date is
    # the 2027 meeting", not "can I vote at the annual general meeting" (as025, set 44)
    dated = [i for i in able if _DATE_ASKED_RE.search(parts[i])]
    if len(dated) == 1 and DATE_RE.search(claim):
        named |= set(dated)
    if not named:
        return able
    return named | {i for i in able if not own[i]}  # "…, and where?" names nothing of its own


def part_label(index: int) -> str:
    """The ``Claim.part`` of the question's part ``index`` (0-based): ``part 1``, ``part 2``."""
    return f"part {index + 1}"


def mark_unanswered_parts(question: str, report: ClaimReport) -> list[str]:
    """Say in ``report`` which parts of ``question`` no kept claim answers; return them.

    Each claim gets its part (``Claim.part``: ``part 1``, ``part 2``, …) when it can be only
    one part's (a dropped one too, for display: it says which part went unanswered). A part
    that no kept supported claim may answer, and that no refusal already stands for, gets a
    ``not_found`` claim and a line in ``report.answer``. An answer that answers nothing
    (``report.not_found``) or a one-part question is left as it is.

    Args:
        question: The question the answer is for.
        report: The checked answer (changed in place).

    Returns:
        The parts said to be unanswered, in order.
    """
    parts = question_parts(question)
    if len(parts) < 2 or report.not_found:
        return []
    answered: set[int] = set()
    refused: set[int] = set()
    for claim in report.claims:
        if claim.dropped:  # shown apart, under the part it tried to answer
            found = claim_parts(claim.text, parts) if claim.factual else set()
        elif claim.verdict == "supported":
            found = claim_parts(claim.text, parts)
            answered |= found
        elif claim.verdict == "not_found":
            found = claim_parts(claim.text, parts, refusal=True)
            refused |= found
        else:
            continue
        if len(found) == 1:
            claim.part = part_label(next(iter(found)))
    missing = [i for i in range(len(parts)) if i not in answered | refused]
    for i in missing:
        text = NOT_FOUND_PART.format(part=parts[i])
        why = "no kept claim answers it"
        report.claims.append(Claim(text=text, verdict="not_found", reason=why, part=part_label(i)))
        report.answer = f"{report.answer}\n{text}" if report.answer else text
    if missing:
        report.counts["not_found"] = report.counts.get("not_found", 0) + len(missing)
    return [parts[i] for i in missing]
