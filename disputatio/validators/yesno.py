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

A verdict set aside leaves its part undecided, and the answer says so (:func:`mark_undecided`):
"No, your 14-year-old cannot take the Gullholm ferry on her own." above two true sentences
about child fares (set 23's o011, a question the documents do not answer) used to be shown as
the fares alone, which read as if they settled the question. The line names the question (or
its part), never the verdict's statement: a statement no sentence was found to state is not
repeated to the reader, even negated.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Sequence

from disputatio.state.claims import Claim, ClaimReport
from disputatio.validators.asked import is_yes_no_question
from disputatio.validators.claim_kinds import is_factual, without_label
from disputatio.validators.parts import claim_parts, part_label
from disputatio.validators.pointers import without_shown_lead
from disputatio.validators.questions import question_parts
from disputatio.validators.support import SupportChecker

#: "Yes, " / "No: " / "Maybe; " before a verdict's statement.
_YESNO_HEAD_RE = re.compile(r"^\s*(?:yes|no|maybe)\s*[,:;]\s*(?=\S)", re.I)
#: The reason of a verdict whose statement no one sentence states (carried or not, later).
UNSTATED = "a yes/no verdict no one sentence states: it stands on the claims that carry it"
#: The start of the reason of a verdict its part's claims do not carry (:func:`drop_uncarried`).
UNCARRIED = "a yes/no verdict the supported claims do not carry"
#: The line standing for a one-part question whose yes/no verdict was set aside. It says
#: only what the checker knows: no shown sentence states the verdict, though the sentences
#: after it may decide the question ("… and at Heathside not at all", ae032, held-out set 30),
#: where "the documents do not answer this question either way" read as false above them. No
#: "yes" or "no" in it: a reader, or a scorer, must not take it for either.
UNDECIDED = "The documents do not state the answer to this question directly."
#: The same for one part of a question of several.
UNDECIDED_PART = "The documents do not state the answer to this part directly: {part}"


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
    sentences = [e.sentence for f in own for e in f.all_evidence]
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
            claim.reason = f"{UNCARRIED} (the judge: P={p:.2f})"


def mark_undecided(question: str, report: ClaimReport) -> int:
    """Say in ``report`` that the documents do not decide each set-aside verdict's question.

    For a verdict :func:`drop_uncarried` set aside, a ``not_found`` claim goes after it and a
    line into ``report.answer``: first for a one-part question (what follows is what the
    documents do say), last for a part of several, the one yes/no part it may answer (as
    :func:`~disputatio.validators.parts.mark_unanswered_parts` does, which then leaves that part
    to it). A verdict whose part cannot be told is left as it is.

    Args:
        question: The question the answer is for.
        report: The checked answer (changed in place).

    Returns:
        How many lines were added.
    """
    parts = question_parts(question)
    added = 0
    for verdict in [c for c in report.claims if c.dropped and c.reason.startswith(UNCARRIED)]:
        found = claim_parts(verdict.text, parts) if len(parts) > 1 else {0}
        if len(found) > 1:  # a yes or a no answers a yes/no part
            found = {i for i in found if is_yes_no_question(parts[i])}
        if len(found) != 1:
            continue
        (i,) = found
        text = UNDECIDED_PART.format(part=parts[i]) if len(parts) > 1 else UNDECIDED
        if any(c.text == text for c in report.claims):
            continue
        line = Claim(
            text=text,
            verdict="not_found",
            reason=f"its yes/no verdict was set aside: {verdict.reason}",
            # a part, never the whole answer: beside it stands what the documents do say
            part=part_label(i) if len(parts) > 1 else verdict.part or part_label(0),
        )
        report.claims.insert(report.claims.index(verdict) + 1, line)
        if len(parts) > 1:
            report.answer = f"{report.answer}\n{text}" if report.answer else text
        else:
            report.answer = f"{text}\n{report.answer}" if report.answer else text
        added += 1
    if added:
        report.counts["not_found"] = report.counts.get("not_found", 0) + added
    return added
