"""A yes/no verdict making a statement is judged, or carried by the claims of its part."""

from __future__ import annotations

from disputatio.testing import FakeEmbeddings
from disputatio.validators.claims import check_answer
from disputatio.validators.parts import mark_unanswered_parts
from disputatio.validators.support import JudgedSupport
from disputatio.validators.yesno import UNDECIDED, UNDECIDED_PART, mark_undecided, statement

PARK = (
    "The latest arrival time is 21:00 at Heronmere and 22:00 at Thornbeck. "
    "Late departure is not offered at Thornbeck Forest Park. "
    "At check-in we need the registration number of every vehicle that will be on the park."
)
SECTIONS = {"arrive": {"text": PARK, "title": "Arrival and departure"}}
#: Set 22's s010 (run 34): a "yes" the documents contradict, above three true sentences about
#: something else.
S010 = (
    "Yes, we can book a late check-out at Thornbeck. "
    "The latest arrival time is 22:00 at Thornbeck [arrive]. "
    "At check-in, we need the registration number of every vehicle that will be on the park."
)

STATED = "We can book a late check-out at Thornbeck."


class ScriptedJudge:
    """Says yes to every claim but ``verdict`` (then: ``carries``); records what it was asked."""

    def __init__(self, verdict: str = "", carries: bool = False) -> None:
        self.verdict = verdict
        self.carries = carries
        self.asked: list[tuple[str, str]] = []

    def __call__(self, claim: str, passage: str, context: str = "") -> float:
        self.asked.append((claim, passage))
        return 0.9 if claim != self.verdict or self.carries else 0.1


def _checker(judge: ScriptedJudge) -> JudgedSupport:
    return JudgedSupport(FakeEmbeddings().embed_documents, judge)


def test_the_statement_of_a_verdict_is_what_follows_its_yes_or_no() -> None:
    assert statement("Verdict: No, you cannot spread the payment.") == (
        "You cannot spread the payment."
    )
    assert statement("Yes, we can book a late check-out at Thornbeck.") == (
        "We can book a late check-out at Thornbeck."
    )
    assert statement("Yes, based on the information provided, papilin is secreted.") == (
        "Papilin is secreted."
    )
    for nothing in ("Yes, it is.", "Yes.", "No lunch is provided.", "Maybe; so."):
        assert statement(nothing) is None


def test_a_verdict_the_claims_after_it_do_not_state_is_set_aside() -> None:
    judge = ScriptedJudge(STATED)
    report = check_answer(S010, SECTIONS, checker=_checker(judge))
    verdict = report.claims[0]
    assert verdict.dropped and "do not carry" in verdict.reason
    assert "Yes" not in report.answer and "22:00" in report.answer
    # the judge read the verdict's statement against the supported claims' own sentences
    claim, passage = judge.asked[-1]
    assert claim == STATED
    assert "The latest arrival time is 21:00" in passage and "registration number" in passage
    assert "Late departure" not in passage


def test_a_verdict_the_claims_after_it_state_together_stands() -> None:
    judge = ScriptedJudge(STATED, carries=True)
    report = check_answer(S010, SECTIONS, checker=_checker(judge))
    verdict = report.claims[0]
    assert not verdict.dropped and not verdict.factual
    assert report.answer.startswith("Yes, we can book a late check-out at Thornbeck.")


def test_a_verdict_one_sentence_states_is_a_supported_claim_with_its_evidence() -> None:
    said = "Yes, the latest arrival time is 22:00 at Thornbeck."
    report = check_answer(said, SECTIONS, checker=_checker(ScriptedJudge()))
    (verdict,) = report.claims
    assert verdict.factual and verdict.verdict == "supported" and verdict.evidence is not None
    assert "22:00 at Thornbeck" in verdict.evidence.sentence
    assert report.answer.startswith("Yes, the latest arrival time is 22:00 at Thornbeck [arrive]")


def test_a_verdict_stating_a_wrong_number_is_not_shown_on_a_true_claim() -> None:
    """The old rule let a verdict's own number through unchecked ("Yes, … 36 GBP …", t013)."""
    said = "Yes, the latest arrival time is 23:30 at Thornbeck. At check-in we need the "
    said += "registration number of every vehicle that will be on the park [arrive]."
    report = check_answer(
        said,
        SECTIONS,
        checker=_checker(ScriptedJudge("The latest arrival time is 23:30 at Thornbeck.")),
    )
    assert "23:30" not in report.answer and "registration number" in report.answer


def test_without_a_judge_any_supported_claim_carries_the_verdict() -> None:
    """The lexical checker has no judge to read the claims together: the old rule stands."""
    report = check_answer(S010, SECTIONS)
    assert report.answer.startswith("Yes, we can book a late check-out at Thornbeck.")
    assert not report.claims[0].factual


def test_a_verdict_is_not_lifted_onto_a_sentence_sharing_the_question_words() -> None:
    """Set 20's t018: a lenient judge lifted "There is a dress code for evening performances
    at the Harcourt Stage." onto a sentence about their start times (a grey-zone score)."""
    secs = {"s": {"text": "Most evening performances at the Harcourt Stage start at 19:30."}}
    said = "There is a dress code for evening performances at the Harcourt Stage."
    lenient = _checker(ScriptedJudge())  # says yes to everything
    as_claim = check_answer(said, secs, checker=lenient).claims[0]
    assert as_claim.verdict == "supported"  # the judge's lift, from the grey zone
    report = check_answer(f"Yes, {said[0].lower()}{said[1:]}", secs, checker=lenient)
    assert not report.claims[0].factual and report.claims[0].evidence is None


def test_a_set_aside_verdict_leaves_its_question_undecided_and_says_so() -> None:
    """Set 23's o011: a "no" the fares did not carry read as if they settled the question."""
    question = "Can we book a late check-out at Thornbeck?"
    report = check_answer(S010, SECTIONS, checker=_checker(ScriptedJudge(STATED)))
    assert mark_undecided(question, report) == 1
    assert report.answer.startswith(UNDECIDED + "\n") and "22:00" in report.answer
    line = report.claims[1]  # right after the verdict it stands for
    assert report.claims[0].dropped and line.verdict == "not_found"
    assert line.part == "part 1"  # the verdict's part, not the whole answer: the fares stand
    assert "late check-out" not in line.text  # the unsupported statement is not repeated
    assert mark_undecided(question, report) == 0  # once


def test_a_carried_verdict_is_no_undecided_question() -> None:
    report = check_answer(S010, SECTIONS, checker=_checker(ScriptedJudge(STATED, carries=True)))
    assert mark_undecided("Can we book a late check-out at Thornbeck?", report) == 0
    assert not any(c.verdict == "not_found" for c in report.claims)


def test_an_undecided_part_is_named_and_the_other_part_is_not_marked() -> None:
    question = "What is the latest arrival time at Thornbeck, and can we check out late there?"
    answer = (
        "The latest arrival time is 22:00 at Thornbeck [arrive]. "
        "Yes, we can check out late at Thornbeck."
    )
    judge = ScriptedJudge("We can check out late at Thornbeck.")
    report = check_answer(answer, SECTIONS, checker=_checker(judge))
    assert mark_undecided(question, report) == 1
    assert report.answer.endswith(UNDECIDED_PART.format(part="Can we check out late there?"))
    mark_unanswered_parts(question, report)  # the first part is answered, the second said
    assert sum(c.verdict == "not_found" for c in report.claims) == 1


def test_the_debate_says_an_undecided_question_too() -> None:
    from disputatio.nodes.debate.finalize import _mark_parts

    question = "Can we book a late check-out at Thornbeck?"
    report = check_answer(S010, SECTIONS, checker=_checker(ScriptedJudge(STATED)))
    claims = [c.model_dump(mode="json") for c in report.claims]
    answer, marked = _mark_parts(question, report.answer, claims)
    assert answer.startswith(UNDECIDED) and [c["text"] for c in marked].count(UNDECIDED) == 1
