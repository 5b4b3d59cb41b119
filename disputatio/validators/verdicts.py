"""One claim's verdict: the sentence behind it, or why there is none.

:func:`judge_claim` looks for a claim's evidence in the sections it cites, then (when asked to
attribute) in the other shown sections; :func:`judge_piece` judges one piece of an answer's
sentence, and a piece comparing its subject with something its evidence does not name ("…,
unlike Q fever") once more without that comparison (:mod:`disputatio.validators.contrast`): the
rest is shown when supported, the whole is dropped with its reason.
"""

from __future__ import annotations

from collections.abc import Sequence

from disputatio.state.claims import Claim, Evidence
from disputatio.validators.claim_kinds import mark_unchecked, without_label
from disputatio.validators.contrast import without_contrast
from disputatio.validators.coordination import coordinated
from disputatio.validators.leaning import read_about
from disputatio.validators.subjects import bridged_subjects, lent_subjects
from disputatio.validators.support import SupportChecker
from disputatio.validators.tables import is_row
from disputatio.validators.windows import Found, Windows
from disputatio.validators.yesno import UNSTATED, statement, strict


def judge_claim(
    claim: Claim,
    windows: Windows,
    checker: SupportChecker,
    attribute: bool,
    shown: list[str],
) -> Evidence | None:
    """Set ``claim``'s verdict, evidence, citations and reason (in place).

    An answer's own label ("Verdict: …") is its layout: the claim is judged without it.

    Args:
        claim: The claim, with the citations its writer gave.
        windows: The shown sections' sentences.
        checker: The support checker.
        attribute: Look in the other shown sections when the cited ones do not support it.
        shown: Ids of every shown section.

    Returns:
        When the claim is not supported because the judge refused its best window, that
        window (cited sections first); else None.
    """
    text = without_label(claim.text)  # "Verdict: X" states X
    cited = windows.best(text, claim.citations, checker) if claim.citations else Found([], "")
    found, reason, refused = cited
    if found:
        used = [e.section_id for e in found]
        claim.verdict, claim.evidence, claim.more_evidence = "supported", found[0], found[1:]
        claim.citations = [*used, *(c for c in claim.citations if c not in used)]
        return None
    vetoed = ""  # why the judge refused the best shown sentence, when it did
    why = ""  # why the best shown sentence does not support it, otherwise
    if attribute:
        others = [s for s in shown if s not in claim.citations]
        found, why, elsewhere = windows.best(text, others, checker, join=False)
        vetoed = why if elsewhere is not None else ""
        refused = refused or elsewhere
        if found:
            was = (
                "cited nothing" if not claim.citations else "cited sections that do not support it"
            )
            claim.verdict, claim.attributed = "supported", True
            claim.evidence, claim.more_evidence = found[0], found[1:]
            claim.citations = [e.section_id for e in found]
            claim.reason = f"the writer {was}; attributed to its best supporting sentence"
            return None
    if claim.citations:
        claim.verdict, claim.reason = "unsupported", reason or "no cited sentence supports it"
    elif vetoed:  # a veto, not a missing sentence: say so (the judge's P is in it)
        claim.verdict = "uncited"
        claim.reason = f"cites nothing; its nearest shown sentence: {vetoed}"
    else:  # the nearest sentence's reason (a guard's, or its score) tells a failure apart
        claim.verdict = "uncited"
        claim.reason = "cites nothing and no shown sentence supports it" + (
            f" (the nearest: {why})" if why else ""
        )
    return refused


def quoted(piece: Claim, refused: Evidence, part: str | None) -> Claim | None:
    """The sentence the judge refused for ``piece``, shown in its place (``quote_refused``).

    Only a window the scores call supported and the judge vetoes is refused (a grey-zone
    window the judge does not lift is not). The judge refuses a claim that adds words to its
    sentence, right or wrong ("The reader's ticket for the Research Library and Archive is
    valid for three years." on "A reader's ticket is valid for three years."); the sentence
    itself is supported by definition, and whether it answers the question is left to the
    relevance checks that follow. A table row is not quoted (its cells mean nothing without
    their headers).
    """
    sentence = " ".join(refused.sentence.split())
    if not sentence or is_row(refused.sentence) or "\n|" in refused.sentence:
        return None
    evidence = refused.model_copy(update={"score": 1.0})
    return Claim(
        text=sentence,
        citations=[refused.section_id],
        verdict="supported",
        evidence=evidence,
        attributed=True,
        reason=f"quoted: the writer's claim added to this sentence ({refused.score:.2f} before "
        "the judge)",
        part=part,
    )


def judge_piece(
    piece: str,
    cited: Sequence[str],
    windows: Windows,
    checker: SupportChecker,
    *,
    attribute: bool,
    shown: list[str],
    keep_unsupported: bool,
    part: str | None,
    quote_refused: bool = False,
    before: str = "",
    continues: bool = False,
) -> list[Claim]:
    """The claims of one piece of an answer's sentence, judged, in the order to show them.

    ``before`` is the piece of the answer before it that named something, ``continues`` whether
    the piece goes on with ``before``'s sentence: a piece leaning on it is read with its names
    (:func:`~disputatio.validators.subjects.lent_subjects`,
    :func:`~disputatio.validators.leaning.read_about`).

    Returns:
        The piece as one claim; or, when it is not supported and carries a detachable
        comparison, the piece without it (judged on its own) followed by the whole piece
        (dropped: what it adds is not supported); or, when it is not supported and joins two
        things (:func:`~disputatio.validators.coordination.coordinated`), its supported halves
        followed by the whole piece; or, with ``quote_refused``, the sentence the judge
        refused for it (:func:`quoted`) followed by the whole piece.
    """
    refused: list[Evidence | None] = []

    def judged(text: str) -> Claim:
        claim = Claim(text=text, citations=list(cited), part=part)
        refused.append(judge_claim(claim, windows, checker, attribute, shown))
        claim.dropped = claim.verdict != "supported" and not keep_unsupported
        return claim

    whole = Claim(text=piece, citations=list(cited), part=part)
    if mark_unchecked(whole):
        said = statement(piece) if whole.verdict is None and not whole.dropped else None
        if said is None:
            return [whole]
        verdict = Claim(text=said, citations=list(cited), part=part)
        judge_claim(verdict, windows, strict(checker), attribute, shown)
        return [_verdict(verdict, piece)]
    whole = judged(piece)
    about = lent_subjects(piece, before, continues=continues)
    if not about and whole.verdict != "supported":  # lifted only, never set aside (at025)
        about = bridged_subjects(piece, before)
    read = read_about(whole, about, before, judged, windows, keep_unsupported) if about else None
    if read is not None:
        return [read]
    if whole.verdict == "supported":
        return [whole]
    quote = quoted(whole, refused[0], part) if quote_refused and refused[0] else None
    if quote is not None:
        whole.dropped = True
        whole.reason += "; its sentence is shown instead"
        return [quote, whole]
    rest = without_contrast(piece)
    if rest is not None:
        return [judged(rest), whole]
    # a half that is not supported either is not shown: the whole, with its verdict, says so
    halves = [h for h in map(judged, coordinated(piece) or []) if h.verdict == "supported"]
    if halves:
        shown_as = (
            "its supported half shown on its own" if len(halves) == 1 else "each shown on its own"
        )
        whole.reason += f"; it joins two things no one sentence states together, {shown_as}"
        whole.dropped = not keep_unsupported
    return [*halves, whole]


def _verdict(judged: Claim, piece: str) -> Claim:
    """A yes/no verdict ``piece``, its statement ``judged``: shown with its sentence, or not.

    When no one sentence states it, it is left unchecked, to stand on the claims that carry it
    (:mod:`.yesno`).
    """
    judged.text = piece
    if judged.verdict == "supported":
        return judged
    return Claim(text=piece, verdict=None, factual=False, reason=UNSTATED, part=judged.part)
