"""A sentence is read under the headings of its section's text (a parent chunk spans several)."""

from __future__ import annotations

from fake_judges import RecordingJudge

from disputatio.testing import FakeEmbeddings
from disputatio.validators.claims import check_answer
from disputatio.validators.headings import headings_in
from disputatio.validators.sentences import stem
from disputatio.validators.support import JudgedSupport, LexicalSupport
from disputatio.validators.windows import Windows

Q_FEVER = (
    "# Q Fever\n\nQ fever is a zoonotic infection.\n\n"
    "## History\n\nIt was first described in 1937.\n\n"
    "## Diagnosis\n\nTests are chosen by the stage of illness.\n"
    "- **Serology** by indirect immunofluorescence assay (IFA) is the main method.\n\n"
    "## Treatment\n\nDoxycycline is the treatment of choice.\n"
)
BRUCELLOSIS = (
    "BRUCELLOSIS\n===========\n\nA zoonosis.\n\nDIAGNOSIS\n---------\n\n"
    "Blood culture is the reference method.\n"
)


def test_headings_in_a_section_nest_and_replace_each_other() -> None:
    paths = [path for _, path in headings_in(Q_FEVER)]
    assert paths == ["Q Fever", "Q Fever History", "Q Fever Diagnosis", "Q Fever Treatment"]
    assert [path for _, path in headings_in(BRUCELLOSIS)] == [
        "BRUCELLOSIS",
        "BRUCELLOSIS DIAGNOSIS",
    ]


def test_a_window_is_read_under_its_own_heading() -> None:
    windows = Windows({"q": {"text": Q_FEVER}})
    serology = Q_FEVER.index("**Serology**")
    assert "Q Fever Diagnosis" in windows.context_of("q", serology)
    assert "Diagnosis" not in windows.context_of("q", Q_FEVER.index("It was first"))


def test_a_claim_resting_on_its_sentence_and_heading_is_supported() -> None:
    """``make demo`` (2026-12-04) left "Q fever is diagnosed through serology" unsupported."""
    report = check_answer(
        "Q fever is diagnosed through serology [q].",
        {"q": {"text": Q_FEVER}},
        checker=LexicalSupport(),
    )
    claim = report.claims[0]
    assert claim.verdict == "supported"
    assert claim.evidence is not None and "Serology" in claim.evidence.sentence
    # the heading names the topic, not the fact: another method is still not supported
    other = check_answer(
        "Q fever is diagnosed through blood culture [q].",
        {"q": {"text": Q_FEVER}},
        checker=LexicalSupport(),
    )
    assert other.claims[0].verdict != "supported"


def test_a_noun_in_sis_shares_its_stem_with_its_verb() -> None:
    assert stem("diagnosis") == stem("diagnosed") == stem("diagnoses")
    assert stem("analysis") == stem("analysed")


def test_the_judge_reads_the_headings_a_window_stands_under() -> None:
    """The judge is shown the headings above the window in its section, not the section's
    title alone: a list item under "## Larchfield Park" names its site only there (w006,
    held-out set 21)."""
    judge = RecordingJudge(1.0)
    checker = JudgedSupport(FakeEmbeddings().embed_documents, judge)  # type: ignore[arg-type]
    report = check_answer(
        "Q fever is diagnosed through serology [q].", {"q": {"text": Q_FEVER}}, checker=checker
    )
    assert report.claims[0].verdict == "supported"
    contexts = [context for _, _, context in judge.asked]
    assert contexts and all("Diagnosis" in c for c in contexts)
    assert not any("Treatment" in c or "History" in c for c in contexts)


def test_a_subsections_first_sentence_names_what_it_goes_on_about() -> None:
    """ab029 (held-out set 27): "Please bring a towel" is about swimming at Orchard camps."""
    text = (
        "# Camps\n\nOrchard runs camps in every holiday.\n\n## Trips\n\nMillpond has a coach.\n\n"
        "## Swimming\n\nAt Orchard camps, the children go swimming every Friday. Swimming is "
        "included. Please bring a swimming costume, a towel and a bag for wet things.\n"
    )
    windows = Windows({"k": {"text": text}})
    towel = text.index("Please bring")
    assert "orchard" in windows.context_of("k", towel).split("Swimming", 1)[1].casefold()
    assert "millpond" not in windows.context_of("k", towel).casefold()
    claim = "At the Orchard camp, bring a swimming costume, a towel and a bag for wet things [k]."
    report = check_answer(claim, {"k": {"text": text}}, checker=LexicalSupport())
    assert report.claims[0].verdict == "supported"
