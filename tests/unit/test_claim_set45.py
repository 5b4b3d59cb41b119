"""Rules found on held-out set 45 (corpus_bellringing, run 57)."""

from __future__ import annotations

from disputatio.state.claims import Claim, Evidence
from disputatio.validators.guards import guard
from disputatio.validators.pairs import split_names
from disputatio.validators.relevance import drop_off_question

KEEPERS = (
    "The Steeple Keeper at Ketterby is Hamish Oduya-Pell. The Steeple Keeper at St Wendreda's "
    "can be reached through the Tower Captain."
)


def test_a_claim_joining_names_of_two_sentences_is_not_supported_by_them() -> None:
    """at029: the sentence holding the name is about Ketterby, not St Wendreda's."""
    claim = "The Steeple Keeper at St Wendreda's is Hamish Oduya-Pell."
    assert split_names(claim, KEEPERS)
    assert guard(claim, KEEPERS)
    assert not guard("The Steeple Keeper at Ketterby is Hamish Oduya-Pell.", KEEPERS)


def test_names_of_one_thing_across_two_sentences_are_not_split() -> None:
    """w009 and l011 (earlier sets): plural forms and weekdays name nothing else."""
    parties = (
        "Larchfield Park hosts Wild Parties for children aged 4 to 11. A Wild Party is for 8 to "
        "20 children and costs 24 GBP per child."
    )
    chef = (
        "The Chart Room at the Harbour hotel is open for dinner from 18:00 to 21:30, Tuesday to "
        "Sunday, and is closed on Mondays. The head chef is Marisol Okonjo."
    )
    assert not split_names("The Wild Party at Larchfield Park costs 24 GBP per child.", parties)
    claim = "The head chef of the Chart Room at the Harbour hotel is Marisol Okonjo."
    assert not split_names(claim, chef)


def _claim(text: str) -> Claim:
    evidence = Evidence(section_id="s", sentence=text, start=0, end=len(text), score=1.0)
    return Claim(text=text, citations=["s"], verdict="supported", evidence=evidence)


def test_a_word_of_a_name_in_lower_case_is_a_word_the_question_shares() -> None:
    """at040: "come up the tower" shares "tower" with "children under 8 cannot climb the tower",
    though the question also names the Tower Open Day."""
    question = "Can my 7-year-old come up the tower with me on the Tower Open Day?"
    answer = _claim("Children under 8 cannot climb the tower.")
    drop_off_question(question, [answer], {})
    assert not answer.dropped
    phone = _claim("The Tower Open Day phone line is answered on Mondays.")
    drop_off_question("Can my 7-year-old come on the Tower Open Day?", [phone], {})
    assert phone.dropped and "name" in phone.reason
