"""The claim checker: every verdict path, each failing when its check is removed."""

from __future__ import annotations

import pytest

from disputatio.validators import claims as claims_mod
from disputatio.validators.base import ValidationContext, resolve_validators, run_validators
from disputatio.validators.claims import NOT_FOUND_ANSWER, check_answer
from disputatio.validators.sentences import numbers_with_units, split_sentences
from disputatio.validators.support import HybridSupport, LexicalSupport, guard
from disputatio.validators.support_validator import SupportValidator

TRAVEL = (
    "Daily allowances are paid per night away.\n"
    "Bergen: the daily allowance is 910 NOK. Tromsø: the daily allowance is 980 NOK.\n"
    "Contractors are not reimbursed for meals."
)
SENSOR = "The CTD-41 must be calibrated every 18 months. Its depth rating is 2,000 m."
SECTIONS = {
    "sec-travel": {"text": TRAVEL, "title": "Travel policy", "source": "/x/travel.md"},
    "sec-ctd": {"text": SENSOR, "heading_path": ["CTD-41 manual"], "source": "ctd.md"},
}


def verdicts(answer: str, **kw: object) -> list[tuple[str | None, bool]]:
    report = check_answer(answer, SECTIONS, **kw)  # type: ignore[arg-type]
    return [(c.verdict, c.dropped) for c in report.claims]


def test_supported_claim_carries_the_span_of_its_sentence() -> None:
    report = check_answer("The daily allowance in Bergen is 910 NOK [sec-travel].", SECTIONS)
    (claim,) = report.claims
    assert claim.verdict == "supported" and claim.citations == ["sec-travel"]
    ev = claim.evidence
    assert ev is not None and TRAVEL[ev.start : ev.end] == ev.sentence
    assert "910 NOK" in ev.sentence and report.grounded and not report.not_found
    assert report.answer == "The daily allowance in Bergen is 910 NOK [sec-travel]."


def test_another_citys_figure_is_not_an_answer() -> None:
    """Oslo appears nowhere: Bergen's 910 NOK must not answer for it."""
    report = check_answer("The daily allowance in Oslo is 910 NOK.", SECTIONS)
    assert report.not_found and report.answer == NOT_FOUND_ANSWER
    assert report.claims[0].verdict == "uncited" and report.claims[0].dropped


def test_contradicted_number_is_unsupported_and_dropped() -> None:
    report = check_answer(
        "The CTD-41 must be calibrated every 12 months [sec-ctd]. "
        "Its depth rating is 2,000 m [sec-ctd].",
        SECTIONS,
    )
    first, second = report.claims
    assert first.verdict == "unsupported" and first.dropped and "12" in first.reason
    assert second.verdict == "supported"
    assert report.answer == "Its depth rating is 2,000 m [sec-ctd]."


def test_changed_unit_and_negation_are_caught() -> None:
    assert guard("calibrated every 18 weeks", SENSOR)
    assert guard(
        "Contractors are reimbursed for meals.", "Contractors are not reimbursed for meals."
    )
    assert not guard("Contractors are not reimbursed for meals.", TRAVEL.splitlines()[-1])


def test_fabricated_label_is_removed_and_counted() -> None:
    report = check_answer(
        "Its depth rating is 2,000 m [CTD-41 Pressure Housing]. It is calibrated every 18 "
        "months [sec-nope].",
        SECTIONS,
    )
    assert report.fabricated_labels == ["CTD-41 Pressure Housing", "sec-nope"]
    assert "Pressure Housing" not in report.answer and "sec-nope" not in report.answer


def test_uncited_claim_is_attributed_and_says_so() -> None:
    report = check_answer("The CTD-41 must be calibrated every 18 months.", SECTIONS)
    (claim,) = report.claims
    assert claim.verdict == "supported" and claim.attributed and claim.citations == ["sec-ctd"]
    assert "attributed" in claim.reason
    assert report.answer.endswith("[sec-ctd].")


def test_without_attribution_an_uncited_claim_is_uncited() -> None:
    assert verdicts("The CTD-41 must be calibrated every 18 months.", attribute=False) == [
        ("uncited", True),
        ("not_found", False),
    ]


def test_miscited_claim_is_repaired_to_the_section_that_supports_it() -> None:
    report = check_answer("The CTD-41 must be calibrated every 18 months [sec-travel].", SECTIONS)
    assert report.claims[0].citations == ["sec-ctd"] and report.claims[0].attributed


def test_sentence_labels_resolve_to_their_section() -> None:
    report = check_answer(
        "Its depth rating is 2,000 m [S2.2].",
        SECTIONS,
        aliases={"S1": "sec-travel", "S2": "sec-ctd"},
    )
    assert report.claims[0].citations == ["sec-ctd"] and not report.claims[0].attributed


def test_keep_unsupported_flags_instead_of_dropping() -> None:
    report = check_answer("The battery lasts 30 hours [sec-ctd].", SECTIONS, keep_unsupported=True)
    assert report.claims[0].verdict == "unsupported" and not report.claims[0].dropped
    assert not report.grounded and "30 hours" in report.answer


def test_refusal_and_verdict_lines_are_not_judged_as_facts() -> None:
    report = check_answer("Answer: B\nThe documents do not say what Oslo's allowance is.", SECTIONS)
    kinds = [(c.verdict, c.factual) for c in report.claims]
    assert kinds == [(None, False), ("not_found", True)] and report.not_found
    assert report.answer.startswith("Answer: B")


def test_a_quoted_question_is_no_claim() -> None:
    """'The question "...?" is answered in [id]' restates what was asked (run 4, g020): not judged.

    The quoted question stays in its sentence (its "?" ends no sentence before a word in lower
    case); the sentence points at the documents and states nothing.
    """
    report = check_answer(
        'The question "How often must the CTD-41 be calibrated?" is answered in [sec-ctd]. '
        "The CTD-41 must be calibrated every 18 months [sec-ctd].",
        SECTIONS,
    )
    asked, said = report.claims[0], report.claims[-1]
    assert asked.text.startswith("The question") and "is answered in" in asked.text
    assert asked.verdict is None and not asked.factual
    assert said.verdict == "supported"
    assert [c.text for c in report.claims if c.verdict == "supported"] == [said.text]


def test_nothing_supported_keeps_the_verdict_line_and_says_not_found() -> None:
    report = check_answer("Answer: C\nThe battery lasts 30 hours.", SECTIONS)
    assert report.answer == f"Answer: C\n{NOT_FOUND_ANSWER}"


def test_support_validator_fails_on_an_answer_citing_nothing() -> None:
    """Before: 'citations: ok — the answer cites no section' passed an uncited answer."""
    ctx = ValidationContext(allowed_ids=list(SECTIONS), sections=SECTIONS)
    result = SupportValidator(attribute=False).validate("The battery lasts 30 hours.", ctx)
    assert not result.passed and result.revised_answer == NOT_FOUND_ANSWER
    ok = SupportValidator().validate("Its depth rating is 2,000 m [sec-ctd].", ctx)
    assert ok.passed and ok.score == 1.0 and ok.details["claims"][0]["verdict"] == "supported"


def test_later_validators_see_the_checked_answer() -> None:
    ctx = ValidationContext(allowed_ids=list(SECTIONS), sections=SECTIONS)
    checks = run_validators(
        resolve_validators(["support", "citations"]),
        "The CTD-41 is rated to 9,000 m [sec-ctd]. Its depth rating is 2,000 m [sec-ctd].",
        ctx,
    )
    assert checks[1].details["verified"] == ["sec-ctd"] and checks[1].passed
    assert checks[0].revised_answer == "Its depth rating is 2,000 m [sec-ctd]."


def test_the_support_validator_is_a_default() -> None:
    assert next(v.name for v in resolve_validators(None)) == "support"


def test_without_the_number_guard_a_swapped_number_would_pass(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The guard, not word overlap, is what catches a swapped number."""
    answer = "The CTD-41 must be calibrated every 12 months [sec-ctd]."
    assert check_answer(answer, SECTIONS).claims[0].verdict == "unsupported"
    monkeypatch.setattr("disputatio.validators.support.guard", lambda *a, **k: "")
    assert check_answer(answer, SECTIONS).claims[0].verdict == "supported"
    assert claims_mod  # the module under test


def test_hybrid_checker_embeds_each_text_once() -> None:
    seen: list[str] = []

    def embed(texts: list[str]) -> list[list[float]]:
        seen.extend(texts)
        return [[1.0, float(len(t) % 3)] for t in texts]

    checker = HybridSupport(embed, threshold=0.5)
    check_answer("Its depth rating is 2,000 m [sec-ctd].", SECTIONS, checker=checker)
    check_answer("Its depth rating is 2,000 m [sec-ctd].", SECTIONS, checker=checker)
    assert len(seen) == len(set(seen)) > 0


def test_sentence_spans_and_numbers() -> None:
    text = "Dr. Berg wrote e.g. this. Lifts above 4 tonnes need two signallers!\n- NOK 910 a day"
    assert [s.sentence for s in split_sentences(text)] == [
        "Dr. Berg wrote e.g. this.",
        "Lifts above 4 tonnes need two signallers!",
        "NOK 910 a day",
    ]
    assert numbers_with_units("1,200 hours, 1,5 m, 20% and an 18-month interval") == [
        ("1200", "hour"),
        ("1.5", "m"),
        ("20", "percent"),
        ("18", "month"),
    ]
    assert LexicalSupport().threshold > 0


def test_a_sections_lead_lends_its_names_not_its_words() -> None:
    """The lead names the subject; its other words must not make a heading line evidence."""
    doc = {
        "s": {"text": "# Brucellosis\n\nBrucellosis is confirmed by blood culture.\nIt is rare."}
    }
    report = check_answer("Brucellosis is confirmed by blood culture.", doc)
    assert report.claims[0].evidence is not None
    assert report.claims[0].evidence.sentence == "Brucellosis is confirmed by blood culture."
    # a claim naming the subject, about a later sentence that does not name it
    manual = {
        "m": {"text": "The CTD-41 is a profiler. It is blue.\nThe battery pack lasts 70 hours."}
    }
    assert check_answer("The CTD-41 battery pack lasts 70 hours.", manual).claims[0].verdict == (
        "supported"
    )
    assert check_answer("The CTD-41 battery pack weighs 3 kg.", manual).not_found


def test_a_number_is_not_borrowed_from_a_sentence_about_something_else() -> None:
    """g022: the A-frame's load must not come from the sentence about the crane."""
    text = (
        "The A-frame on M/V Kvitbjørn has a safe working load of 10 tonnes. "
        "The stern crane on M/V Sjøstjerne has a safe working load of 6 tonnes."
    )
    assert guard("The A-frame on M/V Sjøstjerne has a safe working load of 6 tonnes.", text)
    assert not guard("The stern crane on M/V Sjøstjerne has a safe working load of 6 tonnes.", text)
    # a sentence naming nothing takes its subject from the one before
    assert not guard(
        "The CTD-41 battery pack lasts 70 hours.",
        "The CTD-41 is a profiler. The pack lasts 70 hours.",
    )
    # ... but one naming something else of its own does not lend it its number (k028)
    assert guard("The safe working load of the stern crane on M/V Kvitbjørn is 6 tonnes.", text)


def test_bounds_are_not_negations_and_title_numbers_are_names() -> None:
    assert not guard("Its maximum speed is 1.0 m/s.", "It is lowered at no more than 1.0 m/s.")
    assert guard("Its speed is 1.0 m/s.", "It is not lowered at 1.0 m/s.")
    assert not guard(
        "Incident 2291 cost 48,000 NOK.", "The repair cost 48,000 NOK.", "Incident 2291"
    )
    assert guard("Incident 2290 cost 48,000 NOK.", "The repair cost 48,000 NOK.", "Incident 2291")


def test_a_yes_no_verdict_stands_only_on_a_supported_claim() -> None:
    secs = {"s": {"text": "Papilin is an extracellular matrix glycoprotein secreted by hemocytes."}}
    verdict = "Yes, the protein papilin is secreted into the matrix."  # a statement: 4+ words
    carried = check_answer(f"{verdict} It is secreted by hemocytes [s].", secs)
    assert [c.verdict for c in carried.claims] == [None, "supported"]
    assert carried.answer.startswith(verdict)
    alone = check_answer("Yes, papilin is secreted. It glows in the dark.", secs)
    assert alone.not_found and not alone.answer.startswith("Yes")


def test_a_hard_wrapped_sentence_is_one_sentence() -> None:
    """The demo's Bang sentence is wrapped over two lines of brucellosis.txt."""
    text = (
        "BRUCELLOSIS\n===========\n"
        "The Danish veterinarian Bernhard Bang identified the pathogen, now\n"
        "called Brucella abortus, in 1897, and Alice Evans later argued for pasteurisation.\n"
    )
    spans = split_sentences(text)
    assert [s.sentence.split()[0] for s in spans] == ["BRUCELLOSIS", "===========", "The"]
    claim = "Bernhard Bang identified the pathogen, now called Brucella abortus, in 1897."
    assert check_answer(claim, {"b": {"text": text}}).claims[0].verdict == "supported"


def test_a_verdict_making_a_statement_is_judged_and_markup_is_no_prose() -> None:
    secs = {"s": {"text": "Brucellosis is confirmed by blood culture and serology."}}
    report = check_answer(
        "Verdict: Brucellosis is diagnosed by tea leaves and prayer [s].\n</section>", secs
    )
    assert report.claims[0].verdict == "unsupported" and report.not_found
    assert "</section>" not in report.answer
    short = check_answer("Verdict: B\nBrucellosis is confirmed by blood culture [s].", secs)
    assert [c.factual for c in short.claims] == [False, True]


def test_a_sentence_pointing_at_the_documents_is_no_claim() -> None:
    """g014: "This information is found in the section…" passed a lenient judge as supported."""
    from disputatio.testing import FakeEmbeddings
    from disputatio.validators.support import JudgedSupport

    yes = JudgedSupport(FakeEmbeddings().embed_documents, lambda c, w, x: 1.0)
    pointer = "This information is found in the section about the travel policy [sec-travel]."
    report = check_answer(pointer, SECTIONS, checker=yes)
    assert (report.claims[0].verdict, report.claims[0].factual) == (None, False)
    assert report.not_found and report.answer == NOT_FOUND_ANSWER
    stated = "It is stated that the daily allowance in Bergen is 910 NOK [sec-travel]."
    (claim,) = check_answer(stated, SECTIONS).claims
    assert claim.factual and claim.verdict == "supported"
    # u033 (held-out set 8): "The section [id] provides information on …" states nothing either
    about = "The section [sec-travel] provides information on the travel policy for staff."
    report = check_answer(about, SECTIONS, checker=yes)
    assert (report.claims[0].verdict, report.claims[0].factual) == (None, False)
    assert report.not_found
    # ... unless it goes on to state something (h029): then it is a claim, checked as one
    from disputatio.validators.claim_kinds import is_pointer

    assert not is_pointer(
        "The section provides information about passwords, including that the last 10 "
        "passwords cannot be reused."
    )
    assert not is_pointer("The text gives details: the allowance is 910 NOK.")


def test_a_possessive_name_is_the_name() -> None:
    """ "the CTD-41's case" names the CTD-41: the section names it without the 's."""
    assert not guard(
        "Damage to the CTD-41's case must be reported within 48 hours.",
        "Any damage to the case must be reported within 48 hours.",
        "CTD-41 manual",
    )


def test_one_as_a_pronoun_is_no_amount() -> None:
    """r003 (held-out set 7): "one of the courts" picks a court; it does not count one."""
    sentence = "A squash court costs 120 NOK for 45 minutes."
    assert not guard(
        "To play squash on one of the courts, you pay 120 NOK for 45 minutes.", sentence
    )
    assert numbers_with_units("The one on the left is open; no one swims alone.") == []
    # "one" counting something is still a number the sentence must hold
    assert numbers_with_units("One court costs 120 NOK.") == [("1", None), ("120", "nok")]
    assert guard("Two courts cost 120 NOK for 45 minutes.", sentence)


def test_the_two_standing_for_things_named_before_is_no_amount() -> None:
    """``make demo``: "the main difference between the two is …" was refused for a number 2."""
    assert numbers_with_units("The main difference between the two is the organism.") == []
    assert numbers_with_units("The two courses cost 5 NOK.") == [("2", None), ("5", "nok")]
    assert numbers_with_units("The two of them pay 50 NOK.") == [("2", None), ("50", "nok")]


def test_a_claim_stated_twice_is_shown_once() -> None:
    """The 1.5B repeated one sentence four times in ``make demo``'s answer."""
    said = "The CTD-41 must be calibrated every 18 months [sec-ctd]."
    report = check_answer(f"{said} {said}\n- Phase I\n{said}", SECTIONS)
    kept = [c for c in report.claims if c.factual and not c.dropped]
    assert [c.text for c in kept] == ["The CTD-41 must be calibrated every 18 months."]
    assert report.answer.count("18 months") == 1


def test_a_verdict_line_repeated_as_a_claim_is_shown_once() -> None:
    """``make demo`` (2026-12-02) showed "Brucellosis is diagnosed through …" twice: once as
    the answer's "Verdict: …" line and once as the first claim under it."""
    said = "Contractors are not reimbursed for meals"
    report = check_answer(
        f"Verdict: {said} [sec-travel].\nSupport:\n- {said} [sec-travel].", SECTIONS
    )
    kept = [c for c in report.claims if c.factual and not c.dropped]
    assert [c.text.removeprefix("Verdict: ") for c in kept] == [f"{said}."]
    assert report.answer.count("reimbursed") == 1


def test_a_verdict_line_is_judged_without_its_label() -> None:
    """ "Verdict:" is the answer's layout; the word is in no sentence."""
    report = check_answer(
        "Verdict: Contractors are not reimbursed for meals [sec-travel].", SECTIONS
    )
    (claim,) = report.claims
    assert claim.factual and claim.verdict == "supported" and not claim.dropped
    assert report.answer.startswith("Verdict: Contractors")


def test_a_sentence_answering_two_sub_questions_is_kept_under_each() -> None:
    said = "The CTD-41 must be calibrated every 18 months [sec-ctd]."
    report = check_answer(f"How often?\n{said}\nWhat interval?\n{said}", SECTIONS)
    assert report.answer.count("18 months") == 2


def test_a_claim_reporting_the_documents_is_checked_as_what_they_are_said_to_state() -> None:
    """``make demo``: "States that Q fever is caused by …" is the claim "Q fever is caused by …"."""
    report = check_answer("States that the CTD-41 must be calibrated every 18 months.", SECTIONS)
    [claim] = [c for c in report.claims if c.factual]
    assert claim.text == "The CTD-41 must be calibrated every 18 months."
    assert claim.verdict == "supported" and report.answer.startswith("The CTD-41")


def test_a_sentence_describing_the_documents_is_no_claim() -> None:
    report = check_answer(
        "The CTD-41 must be calibrated every 18 months [sec-ctd]. "
        "Describes how the CTD-41 is calibrated [sec-ctd].",
        SECTIONS,
    )
    assert "Describes" not in report.answer
    [pointer] = [c for c in report.claims if c.text.startswith("Describes")]
    assert pointer.dropped and not pointer.factual


def test_a_summary_reporting_another_answer_is_checked_as_what_that_answer_states() -> None:
    """``make demo``: "The latest answer supports the claim that …" is that claim."""
    report = check_answer(
        "The latest answer supports the claim that the CTD-41 must be calibrated every 18 "
        "months [sec-ctd].",
        SECTIONS,
    )
    [claim] = [c for c in report.claims if c.factual]
    assert claim.text.startswith("The CTD-41 must be calibrated")
    assert claim.verdict == "supported"


def test_an_answer_disputing_another_is_not_shown_as_a_supported_claim() -> None:
    """``make demo``: "… contradicts the claim that X" was judged on X and shown supported."""
    report = check_answer(
        "The latest answer contradicts the claim that the CTD-41 must be calibrated every 18 "
        "months [sec-ctd].",
        SECTIONS,
    )
    claim = report.claims[0]
    assert claim.text.startswith("The latest answer contradicts")
    assert claim.dropped and not claim.factual and claim.verdict is None
    assert not [c for c in report.claims if c.verdict == "supported"]
    assert "contradicts" not in report.answer


def test_a_contrast_joined_by_whereas_is_two_claims_each_judged() -> None:
    """``make demo``: "Q fever is caused by …, whereas brucellosis is caused by …" was one claim,
    judged supported on the brucellosis sentence alone."""
    report = check_answer(
        "The depth rating of the SBE-9 is 6,800 m, whereas the CTD-41 must be calibrated every "
        "18 months [sec-ctd].",
        SECTIONS,
    )
    got = [(c.text, c.verdict) for c in report.claims if c.factual]
    assert got == [
        ("The depth rating of the SBE-9 is 6,800 m.", "unsupported"),
        ("The CTD-41 must be calibrated every 18 months.", "supported"),
    ]


@pytest.mark.parametrize(
    ("lead", "factual"),
    [
        ("Brucellosis and Q fever are diagnosed in the following ways [s1]:", False),
        ("The tests are as follows:", False),
        ("Its symptoms include:", False),
        ("Q fever, caused by Coxiella burnetii, spreads in the following ways:", True),
        ("The two tests taking 5 days are the following:", True),
    ],
)
def test_a_lead_in_to_a_list_is_judged_only_when_it_states_something(
    lead: str, factual: bool
) -> None:
    secs = {"s1": {"text": "Brucellosis is diagnosed by blood cultures and serology."}}
    item = "- Brucellosis is diagnosed by blood cultures and serology [s1]."
    first = check_answer(f"{lead}\n{item}", secs).claims[0]
    assert first.factual is factual
    assert (first.verdict is None) is not factual


def test_a_markdown_comment_does_not_stand_for_the_documents_lead() -> None:
    """Held-out set 16: "<!-- Invented content … -->" opened the section, so the names of its
    real first sentence ("the Quayside Surgery in Elmsworth") were not the section's."""
    from disputatio.validators.windows import Windows

    text = (
        "<!-- Invented content for a benchmark. None of this is real. -->\n"
        "# Opening hours\n\nThe group has two sites: the Ashcombe Road Hospital and the "
        "Quayside Surgery in Elmsworth.\n\n## Quayside Surgery\n\nOn Saturdays it is open "
        "from 09:00 to 12:30."
    )
    context = Windows({"s": {"text": text}}).context["s"]
    assert {"elmsworth", "quayside", "surgery"} <= set(context.split())


def test_a_documents_title_line_names_its_subject_by_its_first_word_too() -> None:
    """u012 (set 8): a plain-text title in capitals, "HOLMVIK WATER AND WASTE - …", names the
    company its owner line belongs to; a sentence's first word is no name elsewhere."""
    text = (
        "HOLMVIK WATER AND WASTE - CUSTOMER SERVICE AND COMPLAINTS\n\n"
        "Customer charter, revised 1 January 2027.\n\n"
        "CONTACT\n\nOwner: Customer Service Manager, Ingrid Solheim."
    )
    sections = {"c": {"text": text, "title": "customer_service_and_complaints"}}
    claim = "The Customer Service Manager at Holmvik Water and Waste is Ingrid Solheim [c]."
    assert check_answer(claim, sections).claims[0].verdict == "supported"
    other = {"c": {"text": text.replace("HOLMVIK", "FJORDBY"), "title": "complaints"}}
    assert check_answer(claim, other).claims[0].verdict != "supported"
