"""A joined sentence splits into claims only where each part has a subject of its own."""

from __future__ import annotations

from disputatio.testing import FakeEmbeddings
from disputatio.validators.claim_kinds import lacks_subject, split_compound
from disputatio.validators.claims import check_answer
from disputatio.validators.support import JudgedSupport

SECTIONS = {
    "qf": {
        "text": "Q fever is transmitted through air and contact with infected animals and, less "
        "commonly, through unpasteurised milk.",
        "title": "Q fever",
    },
}


class YesJudge:
    """A judge that lifts every claim it is asked about (as the 1.5B did in the demo)."""

    def __call__(self, claim: str, window: str, context: str) -> float:
        return 1.0


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
    checker = JudgedSupport(FakeEmbeddings().embed_documents, YesJudge())  # type: ignore[arg-type]
    report = check_answer(joined, SECTIONS, checker=checker)
    assert not any(c.text.startswith("Is transmitted") for c in report.claims)
