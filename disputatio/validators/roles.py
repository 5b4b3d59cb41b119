"""A person's name lifted from the role a sentence gives it to another role beside it.

"The Captain, Lucinda Strang, leads the rowing side of the club, and the Vice-Captain looks
after the junior squad." names no Vice-Captain; "The Vice-Captain who runs the junior squad is
Lucinda Strang" was shown supported on it (af014, held-out set 31, a near miss answered): every
word of the claim is in the sentence, and the name guard checks names, not whose they are.

:func:`apposed_roles` reads the names a text sets beside a role ("the Captain, Lucinda Strang,",
"Lucinda Strang, the Captain,", "Lucinda Strang (Captain)", "the chair is Margery
Oduya-Lindqvist"); :func:`other_role` finds a claim
that makes such a name another role of the sentence's ("The Vice-Captain … is Lucinda Strang",
"Lucinda Strang is the Vice-Captain") without the name's own; :func:`names_itself`, a claim
that gives a role as itself ("The Treasurer is the Treasurer, …").

Lexical; no model call.
"""

from __future__ import annotations

import re

#: A role: one to three capitalised words, hyphenated ones whole ("Vice-Captain").
_ROLE = r"[A-Z][\w’']*(?:-[A-Za-z][\w’']*)*(?:\s+[A-Z][\w’']*(?:-[A-Za-z][\w’']*)*){0,2}"
#: A person's name: two or three capitalised words, hyphenated ones whole ("Oduya-Lindqvist").
_PART = r"[A-Z][a-z’']+(?:-[A-Z]?[a-z’']+)*"
_NAME = rf"{_PART}(?:\s+{_PART}){{1,2}}"
_APPOSED_RE = (
    re.compile(rf"\b[Tt]he\s+(?P<role>{_ROLE}),\s+(?P<name>{_NAME})\s*[,(]"),
    # "The chair of the committee is Margery Oduya-Lindqvist" (ar018, held-out set 43)
    re.compile(
        rf"\b[Tt]he\s+(?P<role>[A-Za-z][\w’'-]*(?:\s+[A-Za-z][\w’'-]*)?)"
        rf"(?:\s+of\s+the\s+[a-z]+)?\s+(?:is|was)\s+(?P<name>{_NAME})\b"
    ),
    re.compile(rf"\b(?P<name>{_NAME}),\s+(?:our|the)\s+(?P<role>{_ROLE})\s*[,.;)]"),
    re.compile(rf"\b(?P<name>{_NAME})\s+\((?:the\s+)?(?P<role>{_ROLE})\)"),
)
#: A role the text names with "the": "the Vice-Captain looks after …".
_THE_ROLE_RE = re.compile(rf"\b[Tt]he\s+({_ROLE})")


def apposed_roles(text: str) -> dict[str, str]:
    """Each name ``text`` sets beside a role, with its role (both as written)."""
    out: dict[str, str] = {}
    for rx in _APPOSED_RE:
        for m in rx.finditer(text):
            out.setdefault(m.group("name"), m.group("role"))
    return out


def other_role(claim: str, window: str) -> tuple[str, str, str] | None:
    """``(name, the claim's role, the window's role)`` when the claim moves a name's role.

    The window sets the name beside one role and names another; the claim makes the name the
    other role ("<role> … is <name>", "<name> is the <role>", "the <role>, <name>") and does not
    say the name's own.
    """
    apposed = apposed_roles(window)
    if not apposed:
        return None
    roles = {m.group(1) for m in _THE_ROLE_RE.finditer(window)}
    said = _tokens(claim)
    for name, own in apposed.items():
        if name not in claim or _holds(said, own):
            continue
        for role in roles - {own} - set(apposed):
            if _holds(said, role) and _made(claim, name, role):
                return name, role, own
    return None


def _tokens(text: str) -> list[str]:
    """Words of ``text``, casefolded, hyphenated words whole."""
    return re.findall(r"[\w’']+(?:-[\w’']+)*", text.casefold())


def _holds(tokens: list[str], phrase: str) -> bool:
    """Whether ``tokens`` hold ``phrase``'s words in a row (whole words)."""
    want = _tokens(phrase)
    n = len(want)
    return n > 0 and any(tokens[i : i + n] == want for i in range(len(tokens) - n + 1))


def _made(claim: str, name: str, role: str) -> bool:
    """Whether ``claim`` says ``name`` is ``role`` (or the ``role`` is ``name``)."""
    n, r = re.escape(name), re.escape(role)
    return bool(
        re.search(rf"\b{r}\b.*\b(?:is|was|are)\s+{n}\b", claim, re.I)
        or re.search(rf"\b{n}\s*(?:,|\bis|\bwas|\bas)\s+(?:the\s+|our\s+)?{r}\b", claim, re.I)
        or re.search(rf"\b{r},\s+{n}\b", claim, re.I)
    )


#: "The club's Treasurer is the Treasurer, …": a claim whose complement opens with its subject.
_NAMES_ITSELF_RE = re.compile(
    r"^\s*(?:[Tt]he\s+)?(?:[\w’']+\s+){0,3}?(?P<head>[A-Z][\w’'-]*(?:\s+[A-Z][\w’'-]*)*)"
    r"(?:\s+of\s+the\s+\w+)?\s+(?:is|are|was|were)\s+(?:the\s+)?(?P=head)"
    r"\s*(?:[,.;]|and\b|$)"
)


def names_itself(claim: str) -> bool:
    """Whether ``claim`` gives its subject as itself, and so names no one.

    "The club's Treasurer is the Treasurer, the Membership Secretary, …" (as018, held-out set
    44, a near miss): the 1.5B read out the list of officers that no sentence names.
    """
    return bool(_NAMES_ITSELF_RE.match(claim))
