"""Two faults of `make demo` (2026-12-02, second run): a subject swapped for "Q fever" was
shown as supported, and a pointer at the sections was left as "…, as mentioned in and."."""

from __future__ import annotations

from fake_judges import RecordingJudge

from disputatio.testing import FakeEmbeddings
from disputatio.validators.claim_kinds import without_shown_lead
from disputatio.validators.claims import check_answer
from disputatio.validators.names import letter_names
from disputatio.validators.support import JudgedSupport

CAUSE = (
    "Brucellosis is caused by bacteria of the genus Brucella, small Gram-negative coccobacilli "
    "that survive and multiply inside host cells, especially macrophages."
)
SECTIONS = {
    "bru": {"text": CAUSE + " Blood culture is the reference method.", "title": "brucellosis"},
    "qf": {"text": "Q fever is caused by the bacterium Coxiella burnetii.", "title": "Q Fever"},
}


def _checker() -> JudgedSupport:
    return JudgedSupport(FakeEmbeddings().embed_documents, RecordingJudge(1.0))  # type: ignore[arg-type]


def test_a_one_letter_name_must_be_in_the_evidence() -> None:
    """A near-verbatim copy (not even judged: ``trust``) with the subject swapped."""
    swapped = CAUSE.replace("Brucellosis", "Q fever")
    report = check_answer(f"{swapped[:-1]} [bru].", SECTIONS, checker=_checker(), attribute=False)
    claim = report.claims[0]
    assert claim.verdict == "unsupported" and claim.dropped and report.not_found
    assert "q fever" in claim.reason
    # its own section names it: supported there
    ok = check_answer("Q fever is caused by the bacterium Coxiella burnetii [qf].", SECTIONS)
    assert ok.claims[0].verdict == "supported"
    assert letter_names("Q fever and B cells, option B is right; A cat.") == ["q fever", "b cells"]


def test_a_pointer_at_the_sections_is_no_part_of_the_claim() -> None:
    report = check_answer(
        "Brucellosis is caused by bacteria of the genus Brucella [bru]. "
        "Brucellosis is caused by bacteria of the genus Brucella, as mentioned in [bru] and [qf]. "
        "According to [bru], blood culture is the reference method.",
        SECTIONS,
        checker=_checker(),
    )
    texts = [c.text for c in report.claims]
    assert texts == [
        "Brucellosis is caused by bacteria of the genus Brucella.",
        "Blood culture is the reference method.",
    ]  # the pointer's copy is a word-for-word repeat: shown once
    assert "mentioned in" not in report.answer and "According to" not in report.answer


def test_a_lead_in_naming_only_the_text_shown_is_no_part_of_the_claim() -> None:
    """The hand test (2026-12-02) showed "According to the information provided in the
    section, …" as the supported claim's text."""
    report = check_answer(
        "According to the information provided in the section, blood culture is the reference "
        "method [bru]. Based on the context, Q fever is caused by the bacterium Coxiella "
        "burnetii.",
        SECTIONS,
        checker=_checker(),
    )
    assert [c.text for c in report.claims] == [
        "Blood culture is the reference method.",
        "Q fever is caused by the bacterium Coxiella burnetii.",
    ]
    assert "According to" not in report.answer and "Based on" not in report.answer
    named = "According to the travel policy, the allowance is 910 NOK."
    assert without_shown_lead(named) == named


def test_a_claim_reported_from_a_named_section_is_checked_as_what_it_reports() -> None:
    """The fourth `make demo` of the day: "Section S4 also mentions that "X" was judged whole
    and dropped ("s4 is not in the section") although X is its section's sentence."""
    report = check_answer(
        'Section S4 also mentions that "Blood culture is the reference method [bru]. '
        'In section qf, it states that "Q fever is caused by the bacterium Coxiella burnetii." '
        "[qf]",
        SECTIONS,
        checker=_checker(),
    )
    assert [(c.text, c.verdict) for c in report.claims] == [
        ("Blood culture is the reference method.", "supported"),
        ("Q fever is caused by the bacterium Coxiella burnetii.", "supported"),
    ]


def test_a_preposition_left_bare_by_a_removed_label_is_taken_out() -> None:
    """The fifth `make demo` of the day showed "In, the text describes how …" (from "In
    [S1], the text …") and "The text in mentions that …" (from "The text in [S4] …")."""
    report = check_answer(
        "In [bru], the text states that blood culture is the reference method. "
        "The text in [qf] mentions that Q fever is caused by the bacterium Coxiella burnetii.",
        SECTIONS,
        checker=_checker(),
    )
    assert [c.text for c in report.claims] == [
        "Blood culture is the reference method.",
        "Q fever is caused by the bacterium Coxiella burnetii.",
    ]


def test_a_lead_naming_the_table_shown_is_no_part_of_the_claim() -> None:
    """Set 20's t003 (the hierarchical debate): "Support: From the table in section [id], the
    upper circle … 52 stairs." was judged with its lead and vetoed (P 0.48)."""
    stairs = "The upper circle can only be reached by 52 stairs, and there is no lift to it."
    sections = {"acc": {"text": stairs, "title": "Access and facilities"}}
    judge = RecordingJudge(0.0)  # says no to whatever it is asked
    checker = JudgedSupport(FakeEmbeddings().embed_documents, judge)  # type: ignore[arg-type]
    report = check_answer(
        "Support: From the table in section [acc], the upper circle can only be reached by "
        "52 stairs.",
        sections,
        checker=checker,
    )
    assert report.claims[0].text == "Support: The upper circle can only be reached by 52 stairs."
    assert all("table" not in claim for claim, _, _ in judge.asked)
