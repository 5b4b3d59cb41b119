"""A claim beside a copy of its own sentence, and word-for-word repeats (validators.repeats)."""

from __future__ import annotations

from disputatio.state.claims import Claim, Evidence
from disputatio.validators.claims import check_answer
from disputatio.validators.repeats import restated

RIDERS = "Riders must be at least 16 years old."
SECTIONS = {
    "bike": {
        "title": "Bike share",
        "text": f"A day pass costs 60 NOK. {RIDERS} Helmets are recommended.",
    }
}


def _claim(text: str, sentence: str, start: int, part: str | None = None) -> Claim:
    ev = Evidence(section_id="bike", start=start, end=start + len(sentence), sentence=sentence,
                  score=1.0)  # fmt: skip
    return Claim(text=text, citations=["bike"], verdict="supported", evidence=ev, part=part)


def test_a_claim_beside_a_copy_of_its_sentence_is_dropped_and_the_copy_kept() -> None:
    para = _claim("The age requirement for a bike share rider is 16 years old.", RIDERS, 25)
    copy = _claim(RIDERS, RIDERS, 25)
    assert restated([para, copy]) == 1
    assert para.dropped and "copies its sentence" in para.reason
    assert not copy.dropped


def test_claims_on_other_sentences_or_parts_are_left_alone() -> None:
    other = _claim("A day pass is 60 NOK.", "A day pass costs 60 NOK.", 0)
    copy = _claim(RIDERS, RIDERS, 25)
    elsewhere = _claim("Riders are 16 or older.", RIDERS, 25, part="part 2")
    assert restated([other, copy, elsewhere]) == 0
    assert not (other.dropped or elsewhere.dropped)


def test_a_claim_resting_on_more_sentences_than_the_copy_is_kept() -> None:
    para = _claim("Riders of 16 pay 60 NOK a day.", RIDERS, 25)
    para.more_evidence = [_claim("", "A day pass costs 60 NOK.", 0).evidence]  # type: ignore[list-item]
    assert restated([para, _claim(RIDERS, RIDERS, 25)]) == 0


def test_check_answer_shows_the_copy_once_not_its_paraphrase_beside_it() -> None:
    """t002 of the hand test: the answer said the age twice, once in the documents' words."""
    report = check_answer(
        f"The age requirement for a bike share rider is 16 years old [bike]. {RIDERS} [bike]",
        SECTIONS,
    )
    kept = [c.text for c in report.claims if not c.dropped]
    assert kept == [RIDERS], report.claims
    assert report.answer.count("16") == 1


CALIBRATION = "The CTD-41 is calibrated every 18 months at the manufacturer."
MANUAL = {"ctd": {"title": "CTD-41 manual", "text": f"3. CALIBRATION\n{CALIBRATION}"}}


def _on(text: str, start: int, end: int) -> Claim:
    sentence = MANUAL["ctd"]["text"][start:end]
    ev = Evidence(section_id="ctd", start=start, end=end, sentence=sentence, score=1.0)
    return Claim(text=text, citations=["ctd"], verdict="supported", evidence=ev)


def test_a_claim_on_a_heading_and_the_copied_sentence_is_dropped() -> None:
    """A new user's trial: a paraphrase rested on "3. CALIBRATION" and the sentence beside
    it, its copy was shown too, and the copy rule (the same span only) kept both."""
    at = MANUAL["ctd"]["text"].index(CALIBRATION)
    para = _on("The CTD-41 calibration interval is 18 months.", 0, len(MANUAL["ctd"]["text"]))
    copy = _on(CALIBRATION, at, at + len(CALIBRATION))
    assert restated([para, copy]) == 1 and para.dropped and not copy.dropped


def test_a_claim_on_the_copied_sentence_and_a_short_sentence_is_kept() -> None:
    text = f"Serology confirms it\n{CALIBRATION}"  # a short line, no heading: a fact of its own
    at = text.index(CALIBRATION)
    both = Evidence(section_id="ctd2", start=0, end=len(text), sentence=text, score=1.0)
    alone = Evidence(section_id="ctd2", start=at, end=len(text), sentence=CALIBRATION, score=1.0)
    para = Claim(text="Serology confirms the 18-month calibration.", verdict="supported",
                 evidence=both)  # fmt: skip
    copy = Claim(text=CALIBRATION, verdict="supported", evidence=alone)
    assert restated([para, copy]) == 0 and not para.dropped
