"""Claims that say again what another kept claim of the same answer says.

Two kinds, both found in answers users read:

* :func:`repeats`: a word-for-word repeat. The 1.5B wrote "The bacterium shows antigenic phase
  variation." four times in one answer (``make demo``); two debaters' joined answers state the
  same sentence twice.
* :func:`restated`: a claim beside a copy of its own sentence. Asked "How old must a bike share
  rider be?", the 1.5B answered "The age requirement for a bike share rider is 16 years old."
  and then quoted its sentence, "Riders must be at least 16 years old." (the hand test of
  2026-12-02, docs/grounding.md): both rest on that one sentence, and the copy says all the
  paraphrase says, in the documents' words.

Deterministic; no model call.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from disputatio.state.claims import Claim, Evidence
from disputatio.validators.claim_kinds import YESNO_VERDICT_RE, without_label

_PUNCT_RE = re.compile(r"[^\w\s]")


def _normal(text: str) -> str:
    """``text`` for comparison: case, punctuation and spacing aside."""
    return " ".join(_PUNCT_RE.sub(" ", text.casefold()).split())


def _copies_its_sentence(claim: Claim) -> bool:
    """Whether ``claim`` is its one evidence sentence, word for word."""
    ev = claim.evidence
    return (
        ev is not None
        and not claim.more_evidence
        and _normal(without_label(claim.text)) == _normal(ev.sentence)
    )


#: A heading line's shape: no full stop inside, numbered or not ("3. CALIBRATION").
_HEADING_RE = re.compile(r"^\W*(?:\d+(?:\.\d+)*[.)]?\s+)?[^\W\d][^.!?\n]{0,60}$")


def _heading_and(window: Evidence, copy: Evidence) -> bool:
    """Whether ``window`` is ``copy``'s sentence and a heading line beside it, nothing more.

    A heading line is short (at most six words) and a Markdown heading, a line in capitals
    or a lead ending in a colon; a short sentence of its own ("Serology confirms it") is not.

    The checker may rest a paraphrase on the pair of a heading and its sentence ("3.
    CALIBRATION" above "The CTD-41 is calibrated every 18 months …": a new user's trial,
    2026-12-04); it says no more than the sentence's copy beside it.
    """
    if window.section_id != copy.section_id or (window.start, window.end) == (copy.start, copy.end):
        return False
    if not (window.start <= copy.start and copy.end <= window.end):
        return False
    at = copy.start - window.start
    rest = (window.sentence[:at] + " " + window.sentence[at + copy.end - copy.start :]).strip()
    looks_heading = rest.startswith("#") or rest.endswith(":") or rest.isupper()
    return looks_heading and len(rest.split()) <= 6 and bool(_HEADING_RE.match(rest.lstrip("#")))


def repeats(claims: Sequence[Claim]) -> set[int]:
    """The ``id``s of kept factual claims that repeat an earlier kept one word for word.

    A repeat says nothing new and is left out of the claims and the answer. A composed answer
    heads each sub-question's own answer with its question, and one sentence may answer two
    of them: a question heading starts afresh.
    """
    seen: set[tuple[str | None, str]] = set()
    out: set[int] = set()
    for claim in claims:
        if not claim.factual and claim.text.rstrip().endswith("?"):
            seen.clear()  # the next sub-question's own answer
        if claim.dropped or not claim.factual:
            continue
        text = without_label(claim.text)  # "Verdict: X" repeats X
        key = (claim.part, " ".join(text.casefold().rstrip(".!?;: ").split()))
        if key in seen:
            out.add(id(claim))
        seen.add(key)
    return out


def restated(claims: Sequence[Claim]) -> int:
    """Drop each kept supported claim whose one sentence another kept claim copies whole.

    The copy states everything its sentence states, so the claim beside it adds nothing that
    is checked; it is marked dropped, with the reason, and the copy is kept. So is a claim
    resting on the copy's sentence and a heading line beside it (:func:`_heading_and`). A
    claim resting on several sentences, one of another part of the question, or a yes/no
    verdict (:mod:`.yesno`: its yes or no is the answer) is left alone.

    Returns:
        How many claims were dropped.
    """
    kept = [c for c in claims if c.factual and c.verdict == "supported" and not c.dropped]
    copies = [
        (c.part, c.evidence) for c in kept if c.evidence is not None and _copies_its_sentence(c)
    ]
    dropped = 0
    for claim in kept:
        ev = claim.evidence
        if ev is None or claim.more_evidence or _copies_its_sentence(claim):
            continue
        if YESNO_VERDICT_RE.match(without_label(claim.text)):
            continue  # "No, members do not pay it.": its "no" is what the copy does not say
        if any(
            part == claim.part
            and (
                (copy.section_id, copy.start, copy.end) == (ev.section_id, ev.start, ev.end)
                or _heading_and(ev, copy)
            )
            for part, copy in copies
        ):
            claim.dropped = True
            claim.reason = "another claim of the answer copies its sentence whole"
            dropped += 1
    return dropped


def without_repeats(
    claims: list[Claim], pieces: list[tuple[str, Claim]]
) -> tuple[list[Claim], list[tuple[str, Claim]]]:
    """``claims`` and the answer's ``pieces`` (separator, claim) with both kinds dealt with.

    A claim beside a copy of its sentence is marked dropped (:func:`restated`); a word-for-word
    repeat is left out of both (:func:`repeats`).
    """
    restated(claims)
    again = repeats(claims)
    return (
        [c for c in claims if id(c) not in again],
        [(sep, c) for sep, c in pieces if id(c) not in again],
    )
