"""A price for a group the asker says they are not in ("I'm not a member" / "for members").

"I make pots at home but I'm not a member or a Friend. How much would a table at the Christmas
Pottery Fair cost me?" is not answered by "A table … costs 25.00 GBP for members and 40.00 GBP
for Friends" (ag016, held-out set 32, a near miss answered): each price is for a group the
asker has just said they are not in, and the documents give none for them. A table's column
for members is read by :func:`~disputatio.validators.bands.asked_column`; this is the same for
a sentence.

* :func:`not_in`: the groups a question says the asker is not in ("not a member or a Friend",
  "we aren't students");
* :func:`price_groups`: the group each amount of money of a text is for ("25.00 GBP for
  members");
* :func:`group_contrast`: a claim whose every amount is for a group the asker is not in;
* :func:`barred`: a subsection's subject kept for a group the asker is not in ("Storage is
  only for Maker Members." over the locker prices, for "I'm an Evening Member … Can I rent a
  small locker?": ak024, held-out set 36, answered "yes" on the price sentence);
* :func:`row_for`: a table row's cell naming the one group its row is for, of another kind
  than the asker's ("Sport Divers and above" for "I'm a Club Diver. Can I go on …?": av044,
  held-out set 47, answered "yes" on the trip's row);
* :func:`priced_for`: a subsection's note giving its prices for a group the asker is not in
  ("Prices are for members; non-members pay 5.00 GBP more per lesson." under the lesson
  prices, for "I'm not a member. What would an hour's private lesson … cost me?": au017,
  held-out set 46, answered with the members' 40.00 GBP).

Lexical; no model call.
"""

from __future__ import annotations

import re

from disputatio.validators.sentences import stem
from disputatio.validators.units import MONEY_AMOUNT

_NOT_IN_RE = re.compile(
    r"\b(?:i['’]m|i\s+am|we['’]re|we\s+are|he['’]s|she['’]s|he\s+is|she\s+is|they['’]re|they\s+are)"
    r"\s+(?:not|n['’]t)\s+(?:an?\s+|yet\s+an?\s+|one\s+of\s+your\s+)?([^\W\d_]+)"
    r"(?:\s+or\s+(?:an?\s+)?([^\W\d_]+))?"
    r"|\b(?:i['’]m|we['’]re|i|we)\s+(?:am\s+|are\s+)?(?:a\s+)?non[-\s]([^\W\d_]+)",
    re.I,
)
#: An amount and the group it is for: "25.00 GBP for members", "40 EUR for non-members".
_FOR_GROUP_RE = re.compile(
    rf"(?:{MONEY_AMOUNT})\s+(?:a\s+\w+\s+|per\s+\w+\s+|each\s+)?for\s+(?:all\s+|our\s+)?"
    r"(?P<group>(?:non[-\s])?[^\W\d_]+)(?:\s+(?P<head>(?-i:[A-Z][a-z]+)))?",
    re.I,
)
_AMOUNT_RE = re.compile(MONEY_AMOUNT, re.I)
#: The group the asker says they are in, named with a capital: "I'm an Evening Member".
_IN_RE = re.compile(
    r"\b(?i:i['’]m|i\s+am|we['’]re|we\s+are)\s+(?:an?\s+|one\s+of\s+your\s+)?"
    r"(?P<kind>[A-Z][\w-]*)\s+(?P<group>[A-Z]?[a-z]+)\b"
)
#: A thing kept for one group: "Storage is only for Maker Members", "… are for Full Members only".
_ONLY_FOR_RE = re.compile(
    r"(?P<thing>[A-Z][\w -]{0,40}?)\s+(?:is|are)\s+(?:only\s+)?(?:for|open\s+to)\s+"
    r"(?P<kind>[A-Z][\w-]*)\s+(?P<group>[A-Z]?[a-z]+)(?P<only>\s+only)?\b"
)


def not_in(question: str) -> set[str]:
    """The stems of the groups ``question`` says the asker is not in ("member", "friend")."""
    out: set[str] = set()
    for m in _NOT_IN_RE.finditer(question or ""):
        out |= {stem(g.casefold()) for g in m.groups() if g}
    return out


def price_groups(text: str) -> list[str | None]:
    """The group each amount of money of ``text`` is for (stemmed; None: not said)."""
    groups: dict[int, str] = {m.start(): _group(m) for m in _FOR_GROUP_RE.finditer(text)}
    return [groups.get(m.start()) for m in _AMOUNT_RE.finditer(text)]


def _group(m: re.Match[str]) -> str:
    """The group of a match of :data:`_FOR_GROUP_RE`: "Junior Members" are members (ap017)."""
    group, head = m.group("group"), m.group("head")
    word = head if head and group[:1].isupper() else group
    return stem(word.casefold().replace(" ", "-"))


def group_contrast(question: str, claim: str) -> str | None:
    """The group the claim's prices are for, when every one is a group the asker is not in."""
    outside = not_in(question)
    if not outside:
        return None
    groups = price_groups(claim)
    if not groups or any(g is None or g not in outside for g in groups):
        return None
    return ", ".join(dict.fromkeys(g for g in groups if g))


#: A group named by what it is not: "non-members", "non-residents".
_NON_RE = re.compile(r"\bnon[-\s]?([^\W\d_]{3,})", re.I)


def unsaid_group(claim: str, evidence: str) -> str | None:
    """A "non-…" group of ``claim`` that ``evidence`` (the window and its context) never names.

    "Non-members pay 2.00 GBP for every home match …" does not rest on "Each league player pays
    a match fee of 2.00 GBP for every home match …" (ap002, held-out set 41: the question's
    asker, put into the claim). The evidence names the group by "non-…" or "not a …".
    """
    low = evidence.casefold()
    for m in _NON_RE.finditer(claim):
        word = stem(m.group(1).casefold())
        if not re.search(
            rf"\bnon[-\s]?{re.escape(word)}|\bnot\s+(?:an?\s+)?{re.escape(word)}", low
        ):
            return m.group(0)
    return None


def barred(question: str, subsection: str, about: str) -> str | None:
    """A sentence of ``subsection`` keeping what it is ``about`` for a group the asker is not in.

    "Storage is only for Maker Members." heads the subsection "Storage" whose next sentence
    gives the locker prices; an Evening Member asking whether they can rent a locker is not
    answered "yes" by the prices (ak024, held-out set 36). The thing kept must be what the
    subsection or the evidence is about (a word of ``about``: the headings and the evidence
    sentence), and the group one the asker says they are not in: another kind of the same
    group ("Evening Member" for "Maker Members") or one :func:`not_in` reads.

    Args:
        question: The question, saying the asker's group.
        subsection: The text under the evidence's heading (or its whole section).
        about: The evidence sentence and its headings.

    Returns:
        The sentence that keeps it for another group, or None.
    """
    asker = [(m.group("kind"), stem(m.group("group"))) for m in _IN_RE.finditer(question or "")]
    outside = not_in(question)
    if not asker and not outside:
        return None
    topic = {stem(w.casefold()) for w in re.findall(r"[^\W\d_]+", about)}
    for m in _ONLY_FOR_RE.finditer(subsection):
        if "only" not in m.group(0):
            continue
        thing = {stem(w.casefold()) for w in re.findall(r"[^\W\d_]+", m.group("thing"))}
        if not thing & topic:
            continue
        group = stem(m.group("group"))
        other = any(g == group and k != m.group("kind") for k, g in asker)
        if other or group in outside:
            return m.group(0)
    return None


#: A note giving a subsection's prices for one group: "Prices are for members", "The fees
#: above are for Full Members". A qualified noun ("Member prices are for …") defines a column,
#: not the subsection, and is left to :func:`~disputatio.validators.bands.asked_column`.
_PRICED_FOR_RE = re.compile(
    r"(?:^|[.;:!?]\s+|\n\s*)(?:(?:all|the|these|our)\s+)?(?:prices|fees|rates|charges)"
    r"(?:\s+(?:above|below|shown|listed|here))?\s+are\s+(?:only\s+)?for\s+(?:all\s+)?"
    r"(?P<group>[^\W\d_]+)",
    re.I,
)


def priced_for(question: str, subsection: str, claim: str) -> str | None:
    """The note of ``subsection`` giving ``claim``'s prices for a group the asker is not in.

    "Prices are for members; non-members pay 5.00 GBP more per lesson." under a table of lesson
    prices: the table's 40.00 GBP is not what "I'm not a member" pays (au017, held-out set 46).
    Every amount of the claim must be written in the subsection (a price worked out for the
    asker, 45.00 GBP, is not the table's).

    Returns:
        The note's words up to the group, or None.
    """
    outside = not_in(question)
    amounts = [m.group(0) for m in _AMOUNT_RE.finditer(claim)]
    if not outside or not amounts:
        return None
    figures = set(re.findall(r"\d+(?:[.,]\d+)*", subsection))
    if any(not set(re.findall(r"\d+(?:[.,]\d+)*", a)) <= figures for a in amounts):
        return None
    for m in _PRICED_FOR_RE.finditer(subsection):
        if stem(m.group("group").casefold()) in outside:
            return m.group(0).lstrip(".;:!? \n")
    return None


#: A table cell that is one group of people and nothing else: "Sport Divers and above", "All
#: Diver Members", "Archer Members only".
_CELL_GROUP_RE = re.compile(
    r"\s*(?:all\s+)?(?P<kind>[A-Z][\w-]*)\s+(?P<group>[A-Z]?[a-z]+)"
    r"(?:\s+(?:and|or)\s+(?:above|over|higher)|\s+only)?\s*"
)


def row_for(question: str, row: str) -> str | None:
    """A cell of the table ``row`` naming a group of another kind than the asker's, and no other.

    "| Corrieness Wrecks Weekend | 6 to 7 June | … | Sport Divers and above |" does not say a
    Club Diver may go (av044, held-out set 47): the asker's kind is not the cell's, and which
    kinds stand "above" it the row does not say. A row naming the asker's kind in any cell is
    left alone.

    Returns:
        The cell, or None.
    """
    asker = [(m.group("kind"), stem(m.group("group"))) for m in _IN_RE.finditer(question or "")]
    if not asker or not row.strip().startswith("|"):
        return None
    cells = [c.strip() for c in row.strip().strip("|").split("|")]
    kinds = {k for k, _ in asker}
    if any(re.search(rf"\b{re.escape(k)}\b", c) for c in cells for k in kinds):
        return None
    for cell in cells:
        m = _CELL_GROUP_RE.fullmatch(cell)
        if m and any(stem(m.group("group").casefold()) == g for _, g in asker):
            return cell
    return None
