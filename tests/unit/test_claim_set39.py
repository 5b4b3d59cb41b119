"""Held-out set 39's findings (run 51): a row's columns, lists, prices, who cancels, pointers."""

from __future__ import annotations

from disputatio.validators.actors import actor_contrast
from disputatio.validators.asked import asks_price, states_price, unanswered
from disputatio.validators.claim_kinds import is_pointer
from disputatio.validators.compound import split_compound
from disputatio.validators.extras import no_extra
from disputatio.validators.relevance import off_question
from disputatio.validators.tables import other_cell

PARKING = (
    "| Facility: Parking | Quince Row: None; Tanyard Street car park"
    " | Heronsford: Free in the farmyard, 8 cars |"
)


def test_a_claim_does_not_take_one_apiarys_name_and_the_others_figure() -> None:
    """an002: "Tanyard Street" is in Quince Row's cell, "free … 8 cars" in Heronsford's."""
    claim = (
        "The Tanyard Street pay-and-display car park is free in the farmyard, with room for 8 cars."
    )
    assert "Quince Row" in other_cell(claim, PARKING)
    # the figure and the name in one cell pass
    assert not other_cell("Heronsford has free parking for 8 cars in the farmyard.", PARKING)


def test_a_records_two_attributes_are_not_two_of_a_kind() -> None:
    """One-word labels ("Venue", "Price") head a record's attributes; a claim joins them."""
    row = "| Workshop: Candle Making | Venue: Tollgate Hall | Price: 20 GBP |"
    assert not other_cell("Candle Making at Tollgate Hall costs 20 GBP.", row)


def test_a_list_before_its_verb_is_no_claim_of_its_own() -> None:
    """an013: "The entry fees for the light, medium, and dark honey classes … come to …"."""
    sentence = (
        "The entry fees for the light, medium, and dark honey classes at the Honey Show"
        " will come to 1.50 GBP each."
    )
    assert split_compound(sentence) == [sentence]
    # two statements still split, where the tagger finds a verb before the join or not
    for text in (
        "At other times, email it@kestrelyard.example, and we answer within 1 working day.",
        "The gas kiln fires once a month, on the last Friday, and work must be on the shelf.",
        "Town bus routes 3 and 7 stop outside the Stage, and route 12 stops at Canal Wharf.",
    ):
        assert len(split_compound(text)) == 2, text
    assert split_compound("Adults pay 5.00 GBP a year, and children pay 3.00 GBP a year.") == [
        "Adults pay 5.00 GBP a year.",
        "Children pay 3.00 GBP a year.",
    ]


def test_a_price_put_off_to_a_newsletter_is_no_price() -> None:
    """an014: "The price per 25 kg sack … is announced in the August newsletter." states none."""
    question = (
        "How much will a 25 kg sack of sugar for autumn feeding cost through the association's"
        " bulk order this year?"
    )
    claim = (
        "The price per 25 kg sack of sugar for autumn feeding is announced in the August"
        " newsletter."
    )
    assert asks_price(question)
    assert not states_price(claim)
    assert "price" in unanswered(question, [claim])
    assert states_price("The price per 25 kg sack is 21.00 GBP.")
    assert states_price("The fee is the same as last year.")


def test_the_organisers_cancelling_does_not_answer_an_asker_who_cancels() -> None:
    """an024: "If a course is cancelled by the association, …" for "I … need to cancel"."""
    question = (
        "I've booked the Candle Making workshop but need to cancel, and it's still three weeks"
        " away. Do I get my money back?"
    )
    theirs = "If a course is cancelled by the association, the full price is refunded."
    assert actor_contrast(question, theirs) == "the association"
    assert "cancelling by the association" in off_question(question, theirs, theirs)
    assert actor_contrast(question, "If we cancel a course, you get a full refund.")
    # an asker who is "we" may hear "if we cancel" as their own (s044, held-out set 22)
    ours = "If we cancel our pitch six weeks before we're due to arrive, what do we get back?"
    assert not actor_contrast(ours, "We get the full amount back if we cancel because of illness.")
    assert actor_contrast(ours, theirs)
    # the asker's own rule, and a question about the organiser's cancelling, pass
    assert not actor_contrast(question, "If you cancel at least 14 days before, you get it back.")
    assert not actor_contrast(
        "If the association cancels my course, do I get my money back?", theirs
    )


def test_a_sentence_about_the_text_is_no_claim() -> None:
    """an024: "The text discusses the booking and cancellation of …" was kept as supported."""
    assert is_pointer("The text discusses the booking and cancellation of the workshop.")
    assert is_pointer("The provided text only describes how to book.")
    assert not is_pointer("The text describes the rule that members pay 5.00 GBP.")
    assert not is_pointer(  # ae019: it goes on to state the rule
        "The text discusses the rules for the waiting list, including the need for a co-worker."
    )


def test_a_base_price_does_not_answer_how_much_extra() -> None:
    """an026: "A slot costs 6.00 GBP." for "… run over the end of my slot, how much extra …?"."""
    question = (
        "If I run over the end of my 3-hour slot in the extraction room, how much extra am I"
        " charged?"
    )
    slot = "A slot costs 6.00 GBP, and each member may book no more than 4 slots in a season."
    assert "extra charge" in off_question(question, "A slot costs 6.00 GBP.", slot)
    # a price said to come on top answers it, in its sentence or its cell's header
    topping = "A printed photo topping costs 6 EUR extra."
    assert not no_extra("How much extra is a printed photo topping?", topping)
    assert not no_extra("What is the extra cost of the trip?", "18 GBP Extra cost")
    assert not no_extra("How much is a slot?", "A slot costs 6.00 GBP.")
