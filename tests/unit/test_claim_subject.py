"""A joined sentence splits into claims only where each part has a subject of its own."""

from __future__ import annotations

from fake_judges import RecordingJudge

from disputatio.testing import FakeEmbeddings
from disputatio.validators.claim_kinds import lacks_subject, split_compound
from disputatio.validators.claims import check_answer
from disputatio.validators.compound import subject_of
from disputatio.validators.sentences import content_words
from disputatio.validators.support import JudgedSupport

SECTIONS = {
    "qf": {
        "text": "Q fever is transmitted through air and contact with infected animals and, less "
        "commonly, through unpasteurised milk.",
        "title": "Q fever",
    },
}


def test_a_verb_phrase_sharing_the_subject_is_not_split_off() -> None:
    """The third ``make demo`` of 2026-12-02 split "It … is caused by *B. melitensis*, and is
    transmitted through milk …" at ", and": its second half, "Is transmitted through milk and
    dairy products, unlike Q fever, …", a claim without a subject, was lifted by the judge on a
    Q fever sentence."""
    joined = (
        "It is caused by a different species, *Brucella melitensis*, and is transmitted "
        "through milk and dairy products, unlike Q fever."
    )
    assert split_compound(joined) == [joined]
    assert lacks_subject("is transmitted through milk") and not lacks_subject("It is spread")
    two = "The pool is heated to 28 degrees, and it is open until 21:00 on weekdays."
    assert len(split_compound(two)) == 2
    checker = JudgedSupport(FakeEmbeddings().embed_documents, RecordingJudge(1.0))  # type: ignore[arg-type]
    report = check_answer(joined, SECTIONS, checker=checker)
    assert not any(c.text.startswith("Is transmitted") for c in report.claims)


class WordJudge:
    """A judge that says yes only when the window (and its section) holds every claim word."""

    def __call__(self, claim: str, window: str, context: str) -> float:
        return float(content_words(claim) <= content_words(f"{window} {context}"))


def test_a_second_verb_of_the_subject_is_checked_as_a_claim_of_its_own() -> None:
    """``make demo``, 2026-12-04: "… Q fever is caused by *Coxiella burnetii* and is diagnosed by
    culture on blood or serum" was shown supported on the sentence naming its cause alone."""
    sections = {
        "qf": {
            "text": "Q fever is caused by the bacterium *Coxiella burnetii*. Culture is hazardous "
            "and rarely attempted; serology is the main method of diagnosis.",
            "title": "Q fever",
        }
    }
    joined = "Q fever is caused by *Coxiella burnetii* and is diagnosed by culture on blood."
    assert split_compound(joined) == [
        "Q fever is caused by *Coxiella burnetii*.",
        "Q fever is diagnosed by culture on blood.",
    ]
    checker = JudgedSupport(FakeEmbeddings().embed_documents, WordJudge())  # type: ignore[arg-type]
    report = check_answer(f"{joined[:-1]} [qf].", sections, checker=checker)
    verdicts = {c.text.split(" [")[0]: c.verdict for c in report.claims if c.citations}
    assert verdicts == {
        "Q fever is caused by *Coxiella burnetii*.": "supported",
        "Q fever is diagnosed by culture on blood.": "unsupported",
    }


def test_an_inference_drawn_with_which_means_is_checked_as_a_claim_of_its_own() -> None:
    """ab017 (held-out set 27): the judge lifted "… 1 adult for every 8 children aged 4 to 7,
    which means there are 1 adult per child" on the ratio's sentence."""
    sections = {
        "club": {
            "text": "At both venues we keep at least one adult for every 8 children aged 4 to 7.",
            "title": "The club: staffing",
        }
    }
    joined = (
        "The club has one adult for every 8 children aged 4 to 7, "
        "which means each child has a carer."
    )
    assert split_compound(joined) == [
        "The club has one adult for every 8 children aged 4 to 7.",
        "Each child has a carer.",
    ]
    checker = JudgedSupport(FakeEmbeddings().embed_documents, WordJudge())  # type: ignore[arg-type]
    report = check_answer(f"{joined[:-1]} [club].", sections, checker=checker)
    verdicts = {c.text.split(" [")[0]: c.verdict for c in report.claims if c.citations}
    assert verdicts == {
        "The club has one adult for every 8 children aged 4 to 7.": "supported",
        "Each child has a carer.": "unsupported",
    }


def test_a_subject_is_only_carried_from_the_clause_just_before_the_join() -> None:
    # the verb's clause is not the last: "you" is not the subject of "is charged"
    whole = "If you have not arrived in time, the lesson counts as missed and is charged in full."
    assert split_compound(whole) == [whole]
    assert subject_of('It states that "SATB1 is a homeodomain protein') == "SATB1"
    assert subject_of("An adult card is valid for 5 years") == "An adult card"


def test_a_bare_and_without_a_subject_to_give_leaves_the_other_joins_alone() -> None:
    """Held-out set 17's e003 (recheck, 2026-12-04): "… and have held" has no subject to take
    ("you need to be": no verb to read it by), so the ", and" before it still splits."""
    text = (
        "The Lead Climbing Course costs 1,650 NOK, and you need to be at least 16 and have held "
        "a Green Card for at least three months to join."
    )
    assert split_compound(text) == [
        "The Lead Climbing Course costs 1,650 NOK.",
        "You need to be at least 16 and have held a Green Card for at least three months to join.",
    ]


def test_a_carried_subject_agrees_with_the_verb() -> None:
    """A BioASQ draft: "These results show that selumetinib could be …, and have directly led to
    …": "have" is the results', not selumetinib's; the sentence stays whole."""
    text = (
        "These results show that selumetinib could be an alternative to chemotherapy, and have "
        "directly led to the development of two studies."
    )
    assert split_compound(text) == [text]


def test_but_only_restricts_the_statement_before_it() -> None:
    """l024 (held-out set 26): "…, but only for 18 and over" is no fact of its own."""
    text = "The sauna is available for guests of the Harbour hotel, but only for 18 and over."
    assert split_compound(text) == [text]
    assert len(split_compound("The sauna opens at 10:00, but the pool opens at 07:00.")) == 2
