"""Citation verification: every cited ``[id]`` must be a section the agent actually retrieved.

Agents cite sections as ``[id]`` (also ``[id1, id2]``, ``[id=...]``, ``[section: ...]``).
:func:`verify_citations` checks each cited id against the ids the agent saw, strips the others
from the text and reports them; nothing an agent claims to cite is trusted. Bracketed text with
spaces (``[see above]``) and markdown links are not citations and are left alone.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from typing import NamedTuple

from disputatio.validators.base import ValidationContext, ValidationResult

_GROUP_RE = re.compile(r"\[([^\[\]\n]{1,300})\](?!\()")
#: Citations opening a text: a sentence's, written after its full stop ("… adults. [S1]").
LEAD_CITATIONS_RE = re.compile(r"^(?:\s*\[[^\[\]\n]{1,120}\])+")
_PREFIX_RE = re.compile(r"^(?:section[ _-]?id|section|id)\s*[:=#]\s*|^section\s+", re.I)
_QUOTES = "'\"` "
_SPACE_BEFORE_PUNCT_RE = re.compile(r"[ \t]+([.,;:!?)])")
_DOUBLE_SPACE_RE = re.compile(r"[ \t]{2,}")


class CitationCheck(NamedTuple):
    """Outcome of :func:`verify_citations`.

    Attributes:
        text: The text with unverified citations removed.
        verified: Cited ids that the agent retrieved, in first-cited order.
        unverified: Cited ids it did not retrieve, in first-cited order.
    """

    text: str
    verified: list[str]
    unverified: list[str]


def group_ids(group: str) -> list[str] | None:
    """Ids in one bracket group, or None when the group is not a citation."""
    ids = [_PREFIX_RE.sub("", p.strip(_QUOTES)).strip(_QUOTES) for p in re.split(r"[,;]", group)]
    if not ids or any(not i or any(c.isspace() for c in i) for i in ids):
        return None
    return ids


def extract_citations(text: str) -> list[str]:
    """Return the ids cited in ``text``, deduplicated, in first-cited order."""
    seen: list[str] = []
    for match in _GROUP_RE.finditer(text or ""):
        for cid in group_ids(match.group(1)) or []:
            if cid not in seen:
                seen.append(cid)
    return seen


def verify_citations(text: str, allowed: Collection[str]) -> CitationCheck:
    """Keep the citations of ``text`` that are in ``allowed``; strip and report the rest.

    Args:
        text: An agent's answer.
        allowed: Ids of the sections that agent actually retrieved or was shown.

    Returns:
        The cleaned text with the verified and unverified ids.
    """
    allowed_set = set(allowed)
    verified: list[str] = []
    unverified: list[str] = []

    def keep(match: re.Match[str]) -> str:
        ids = group_ids(match.group(1))
        if ids is None:
            return match.group(0)
        good = [i for i in ids if i in allowed_set]
        for cid in ids:
            bucket = verified if cid in allowed_set else unverified
            if cid not in bucket:
                bucket.append(cid)
        return f"[{', '.join(good)}]" if good else ""

    cleaned = _GROUP_RE.sub(keep, text or "")
    if unverified:
        cleaned = _DOUBLE_SPACE_RE.sub(" ", _SPACE_BEFORE_PUNCT_RE.sub(r"\1", cleaned)).strip()
    return CitationCheck(cleaned, verified, unverified)


class CitationValidator:
    """Fails when the answer cites a section the answering agent did not see.

    The score is the citation precision over the whole run for this answer: verified ids over
    all ids cited (including those already stripped upstream); None when nothing was cited.
    """

    name = "citations"

    def validate(self, answer: str, context: ValidationContext) -> ValidationResult:
        """Verify ``answer``'s citations against ``context.allowed_ids``."""
        check = verify_citations(answer, context.allowed_ids)
        missing = [i for i in check.verified if context.sections and i not in context.sections]
        stripped = [i for i in context.unverified if i not in check.unverified]
        bad = len(check.unverified) + len(stripped)
        total = len(check.verified) + bad
        score = len(check.verified) / total if total else None
        if check.unverified:
            message = f"{len(check.unverified)} unverified citation(s) removed"
        elif not check.verified:
            message = "the answer cites no section"
        else:
            message = f"{len(check.verified)} verified citation(s)"
        if stripped:
            message += f"; {len(stripped)} stripped earlier"
        return ValidationResult(
            name=self.name,
            passed=not check.unverified and not missing,
            score=score,
            message=message,
            details={
                "verified": check.verified,
                "unverified": check.unverified,
                "stripped_earlier": stripped,
                "without_source": missing,
            },
            revised_answer=check.text if check.unverified else None,
        )
