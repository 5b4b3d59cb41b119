"""The claim checker's verdicts: support, citations, attribution, dropping, validators."""

from __future__ import annotations

import pytest
from claims_sections import SECTIONS, TRAVEL

from disputatio.validators import claims as claims_mod
from disputatio.validators.base import ValidationContext, resolve_validators, run_validators
from disputatio.validators.claims import NOT_FOUND_ANSWER, check_answer
from disputatio.validators.support import HybridSupport
from disputatio.validators.support_validator import SupportValidator


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


def test_fabricated_label_is_removed_and_counted() -> None:
    report = check_answer(
        "Its depth rating is 2,000 m [CTD-41 Pressure Housing]. It is calibrated every 18 "
        "months [sec-nope].",
        SECTIONS,
    )
    assert report.fabricated_labels == ["CTD-41 Pressure Housing", "sec-nope"]
    assert "Pressure Housing" not in report.answer and "sec-nope" not in report.answer


def test_an_address_in_brackets_is_what_the_claim_states_not_a_label() -> None:
    """ac015 (held-out set 28): "[email: hello@…]" was removed as a label, leaving "The email
    address is." shown supported."""
    sections = {"c": {"text": "Contact us. Email: hello@freewheel-coop.example"}}
    report = check_answer("The email address is [email: hello@freewheel-coop.example].", sections)
    assert report.fabricated_labels == []
    assert report.claims[0].text == "The email address is hello@freewheel-coop.example."
    assert report.claims[0].verdict == "supported"


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
