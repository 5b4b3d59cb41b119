"""The asker's own negated condition in a claim, and clauses read in their sentence's scope."""

from __future__ import annotations

from disputatio.validators.clause_windows import clauses_of
from disputatio.validators.opposites import NEGATED, denied_words, without_denials
from disputatio.validators.sentences import split_sentences
from disputatio.validators.support import LexicalSupport

OUTING_ROW = (
    "| Spring Outing to the Tamsdale valley | Saturday 16 May | Coach from Market Hill | "
    "8.00 am | 22.00 GBP for members, 28.00 GBP for non-members |"
)
FRIEND_ASKS = (
    "A friend of mine who doesn't ring wants to come along on the Spring Outing coach. "
    "What will she pay?"
)
FRIEND_PAYS = (
    "The friend of mine who doesn't ring will pay the non-member price of 28.00 GBP for the "
    "Spring Outing."
)
COURTS = (
    "For members, a squash court costs 6 EUR per 40 minutes and a badminton court costs 8 EUR "
    "per hour, and lights cost 2 EUR."
)
NON_MEMBER_ASKS = (
    "How much does a badminton court cost for someone who is not a member of the sports centre?"
)
NON_MEMBER_PAYS = "A badminton court costs 8 EUR per hour for someone who is not a member."


def test_the_words_a_question_negates_are_its_denied_words() -> None:
    assert denied_words(FRIEND_ASKS) == {"ring"}
    assert denied_words(NON_MEMBER_ASKS) == {"member"}
    assert denied_words("What does a Playing Member pay?") == frozenset()
    assert denied_words("What can't I bring to the courts?") == frozenset()  # no condition


def test_a_purpose_clause_is_no_denial() -> None:
    """ "so that I don't lose it" says why, not who (at016, held-out set 45)."""
    assert denied_words("Where do I leave my key so that I don't lose it?") == frozenset()
    assert denied_words("Where does a ringer who doesn't lose keys leave one?") == {"lose"}


def test_an_echo_of_the_askers_negation_does_not_negate_the_claim() -> None:
    """at013 (held-out set 45): the asker said who the friend is; the claim, what she pays."""
    plain = LexicalSupport()
    told = plain.for_question(FRIEND_ASKS)
    assert plain.score_many(FRIEND_PAYS, [OUTING_ROW], [""])[0].reason == NEGATED
    assert told.score_many(FRIEND_PAYS, [OUTING_ROW], [""])[0].reason == ""


def test_the_negation_stays_where_the_window_states_the_word() -> None:
    """x024 (set 11): "For members, …" speaks of members; the claim is about non-members."""
    told = LexicalSupport().for_question(NON_MEMBER_ASKS)
    (score,) = told.score_many(NON_MEMBER_PAYS, [COURTS], [""])
    assert score.reason == NEGATED
    assert without_denials(NON_MEMBER_PAYS, COURTS, frozenset({"member"})) == NON_MEMBER_PAYS


def test_a_non_word_does_not_state_the_word() -> None:
    """ "non-members" is no statement about members: the echoed negation is dropped."""
    dropped = without_denials(NON_MEMBER_PAYS, "Non-members pay 8 EUR.", frozenset({"member"}))
    assert dropped == "A badminton court costs 8 EUR per hour for someone who is a member."


def test_only_the_echoed_negation_is_dropped() -> None:
    """The claim's own "cannot" still negates it."""
    claim = "Someone who isn't a member cannot book a court."
    kept = without_denials(claim, "Anyone can book a court.", frozenset({"member"}))
    assert kept == "Someone who is a member cannot book a court."
    told = LexicalSupport().for_question("Can someone who isn't a member book a court?")
    assert told.score_many(claim, ["Anyone can book a court."], [""])[0].reason == NEGATED


def test_a_clause_of_a_scoped_sentence_is_read_with_its_scope() -> None:
    """x024: "a badminton court costs 8 EUR per hour" alone would state it for everyone."""
    (span,) = split_sentences(COURTS)
    windows = [text for _, _, text in clauses_of(span)]
    assert windows == [COURTS[: COURTS.index(", and lights")]]
    assert all(text.startswith("For members") for text in windows)


def test_a_clause_of_an_unscoped_sentence_stands_alone() -> None:
    (span,) = split_sentences(
        "The squash courts are on the first floor, the badminton hall is beside the pool, "
        "and the gym is on the ground floor."
    )
    windows = [text for _, _, text in clauses_of(span)]
    assert "the badminton hall is beside the pool" in windows
