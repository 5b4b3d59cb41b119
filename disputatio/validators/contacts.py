"""Kinds of contact: an email address does not answer "what is the phone number".

"What's the phone number for the Observatory Director?" was answered by "The Observatory
Director's phone number is observatory@fellbridgeastro.org.uk." (ao017, held-out set 40, a
near miss answered): the documents give the director's email address and no phone number.
A question asking for a phone number is not answered by a claim that gives an email address
and no phone number, nor one asking for an email address by a phone number alone; a question
asking for both is left alone. Lexical; no model call.
"""

from __future__ import annotations

import re

_PHONE_ASKED_RE = re.compile(
    r"\b(?:tele)?phone\s+number\b|\bnumber\s+(?:to|should\s+I|do\s+I|can\s+I)\s+"
    r"(?:call|ring|phone)\b|\b(?:call|ring|phone)\s+(?:on\s+)?what\s+number\b",
    re.I,
)
_EMAIL_ASKED_RE = re.compile(
    r"\be-?mail\s+address\b|\bwhat\s+(?:is\s+|['’]s\s+)?the\s+e-?mail\b", re.I
)
#: A phone number: seven digits or more, with spaces, dashes or brackets between them.
_PHONE_RE = re.compile(r"\+?\(?\d(?:[\d\s()-]{5,}\d)")
#: An email address (also read by :mod:`.claims`, where one in brackets is no citation).
EMAIL_RE = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")


def _digits(text: str) -> bool:
    return any(sum(c.isdigit() for c in m.group(0)) >= 7 for m in _PHONE_RE.finditer(text))


def contact_contrast(question: str, claim: str) -> tuple[str, str] | None:
    """``(asked, given)`` kinds of contact when the claim gives only another kind, else None."""
    email, phone = bool(EMAIL_RE.search(claim or "")), _digits(claim or "")
    phone_asked = bool(_PHONE_ASKED_RE.search(question or ""))
    email_asked = bool(_EMAIL_ASKED_RE.search(question or ""))
    if phone_asked and email_asked:
        return None  # "What is the team's telephone number, and what email address …?" (y042)
    if phone_asked and email and not phone:
        return "a phone number", "an email address"
    if email_asked and phone and not email:
        return "an email address", "a phone number"
    return None


def address_unstated(claim: str, window: str) -> str:
    """Why an email address of ``claim`` is not ``window``'s, or ``""``.

    "The email address for the Rehearsal Manager is bookings@wendlecombechoral.org.uk" was
    shown supported on "The other officers are the Treasurer, …, the Bookings Secretary and the
    Rehearsal Manager." (al043, held-out set 37, a near miss answered): the address is the
    Bookings Secretary's, on another line, and no guard read addresses, which are neither
    numbers nor names.
    """
    held = window.casefold()
    for m in EMAIL_RE.finditer(claim):
        address = m.group(0).rstrip(".").casefold()
        if address not in held:
            return f"the address {m.group(0).rstrip('.')} is not in the sentence"
    return ""
