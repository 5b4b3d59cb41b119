"""One structured claim (its text and the ids it cites) judged against the sections shown.

Agents that answer in structured moves rather than prose (the Tech Referee's advocates, the
ResearchDebateChain's specialists) state each claim with the ids it rests on. :func:`judge_cited`
gives such a claim the verdict the claim checker gives a sentence of a prose answer
(:func:`disputatio.validators.claims.check_answer`): a claim of several sentences is as good as
its worst factual sentence.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from disputatio.state.claims import Claim
from disputatio.validators.claims import check_answer
from disputatio.validators.support import SupportChecker

#: Verdicts from worst to best: a claim of several sentences is as good as its worst.
WORST_FIRST = ("unsupported", "uncited", "supported")


def judge_cited(
    text: str,
    citations: Sequence[str],
    shown: Mapping[str, Mapping[str, Any]],
    *,
    checker: SupportChecker | None = None,
    part: str | None = None,
) -> Claim:
    """The verdict of the claim ``text`` citing ``citations``, against the ``shown`` sections.

    Args:
        text: The claim.
        citations: Ids the claim cites; those not in ``shown`` are not evidence (the writer
            did not see their text) and are left out.
        shown: Id → ``{text, title?, heading_path?}`` of the sections the writer saw.
        checker: The support checker (default: the lexical one).
        part: What the claim is about (stored on the claim).

    Returns:
        The claim with its verdict (None when it states nothing to check).
    """
    cited = [c for c in citations if c in shown]
    marked = f"{text} [{', '.join(cited)}]" if cited else text
    report = check_answer(marked, shown, checker=checker, part=part)
    facts = [c for c in report.claims if c.factual and c.verdict in WORST_FIRST]
    if not facts:
        return Claim(
            text=text, verdict=None, factual=False, part=part, reason="states nothing to check"
        )
    worst = min(facts, key=lambda c: WORST_FIRST.index(str(c.verdict)))
    return worst.model_copy(update={"text": text})
