"""A yes/no verdict that makes a statement: judged itself, or carried by the claims after it.

"Yes, we can book a late check-out at Thornbeck." (set 22's s010, run 34) restates the
question as a statement. It used to be no claim at all (``claim_kinds.is_factual``): it stood on
any supported claim of the answer, and three true sentences about the latest *arrival* time
carried a "yes" the documents contradict ("Late departure is not offered at Thornbeck"). Set
20's t018 ("Yes, there is a dress code …", a question the documents do not answer) stood on
sentences about children's seats the same way.

Now the verdict's statement (the words after "Yes,") is judged like any claim
(:func:`statement`); supported, it is shown with its own sentence. When no one sentence states
it, it may still be the conclusion of the claims after it ("Yes, papilin is secreted." above
"Papilin is an extracellular matrix glycoprotein"): a judged checker reads the supported claims'
sentences of its part together and says whether they state it (:func:`drop_uncarried`). A
checker with no judge keeps the old rule (any supported claim carries it). A verdict stating
nothing of its own ("Yes, it is.") is left as before: the claims after it are the answer.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Sequence

from disputatio.state.claims import Claim
from disputatio.validators.claim_kinds import is_factual, without_label
from disputatio.validators.pointers import without_shown_lead
from disputatio.validators.support import SupportChecker

#: "Yes, " / "No: " / "Maybe; " before a verdict's statement.
_YESNO_HEAD_RE = re.compile(r"^\s*(?:yes|no|maybe)\s*[,:;]\s*(?=\S)", re.I)
#: The reason of a verdict whose statement no one sentence states (carried or not, later).
UNSTATED = "a yes/no verdict no one sentence states: it stands on the claims that carry it"


def statement(text: str) -> str | None:
    """The statement a yes/no verdict makes ("Yes, X." → "X."), when it states something.

    Returns:
        The statement, capitalised; None for no yes/no verdict or one stating nothing to check
        ("Yes, it is.").
    """
    body = without_label(text)
    head = _YESNO_HEAD_RE.match(body)
    if head is None:
        return None
    rest = body[head.end() :]
    # "Yes, based on the information provided, X." states X (as a claim's lead-in is read)
    rest = without_shown_lead(rest[:1].upper() + rest[1:])
    return rest if is_factual(rest) else None


def strict(checker: SupportChecker) -> SupportChecker:
    """``checker`` for a verdict's statement: a sentence supports it on its score alone.

    A verdict restates the question, and the shown sentences are those sharing the question's
    words: a grey-zone window shares them by construction, and there the judge's lift is least
    to be trusted (set 20's t018: "There is a dress code for evening performances at the
    Harcourt Stage." lifted onto "Most evening performances start at 19:30 …", a question the
    documents do not answer). The judge may still veto a window that reaches the threshold;
    below it, the claims after the verdict must carry it (:func:`drop_uncarried`).
    """
    grey, threshold = getattr(checker, "grey", None), getattr(checker, "threshold", None)
    if grey is None or threshold is None or grey >= threshold:
        return checker
    raised = copy.copy(checker)
    raised.grey = threshold  # type: ignore[attr-defined]
    return raised


def carried_by(verdict: Claim, facts: Sequence[Claim], checker: SupportChecker) -> float | None:
    """P(the supported claims of ``verdict``'s part state its statement, read together).

    Returns:
        The judge's P(yes); None when the checker has no judge (the old rule then applies).
    """
    carries = getattr(checker, "carries", None)
    said = statement(verdict.text)
    if carries is None or said is None:
        return None
    own = [f for f in facts if verdict.part is None or f.part in (None, verdict.part)]
    sentences = [e.sentence for f in own for e in (f.evidence, *f.more_evidence) if e]
    return float(carries(said, sentences)) if sentences else 0.0


def drop_uncarried(kept: Sequence[Claim], facts: Sequence[Claim], checker: SupportChecker) -> None:
    """Set aside each yes/no verdict (unstated by any one sentence) its part's claims do not carry.

    Args:
        kept: The answer's kept claims.
        facts: Its supported factual claims.
        checker: The support checker; its judge (``carries``) decides, where it has one.
    """
    threshold = getattr(checker, "judge_threshold", 0.5)
    for claim in kept:
        if claim.factual or claim.reason != UNSTATED:
            continue
        p = carried_by(claim, facts, checker)
        if p is not None and p < threshold:
            claim.dropped = True
            claim.reason = (
                f"a yes/no verdict the supported claims do not carry (the judge: P={p:.2f})"
            )
