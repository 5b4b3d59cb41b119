"""Held-out set 38's findings (run 50): rows, prices, abbreviations, negated clauses, day parts."""

from __future__ import annotations

from disputatio.validators.asked import states_price, unanswered
from disputatio.validators.dayparts import asked_parts, daypart_contrast
from disputatio.validators.listed import other_listed_amount
from disputatio.validators.names import spelled
from disputatio.validators.opposites import negation_differs
from disputatio.validators.parts import can_answer
from disputatio.validators.relevance import off_question, shares_topic
from disputatio.validators.sentences import split_sentences
from disputatio.validators.tables import cells_spoken_of, is_row, readings

EVENTS = (
    "Event | Date | Where | Starts | Adult | Member | Under 15\n"
    "Outdoor screening: The Orchard at Kellmere (PG) | Saturday 12 September | Castle Gardens"
    " | 8 pm | 8.00 GBP | 6.00 GBP | 4.00 GBP\n"
    "Silent Night: The Lighthouse Keeper's Daughter (1926, U) with live piano | Friday 2"
    " October | The Lyric | 7.30 pm | 14.00 GBP | 11.00 GBP | 7.00 GBP"
)


def test_a_long_plain_text_row_is_a_sentence_of_its_own() -> None:
    """am030: rows of 60 characters or more were joined as one wrapped sentence."""
    sentences = [s.sentence for s in split_sentences(EVENTS)]
    assert sentences == EVENTS.split("\n")
    # a hard-wrapped line of prose still carries on
    wrapped = "The autumn season runs from Monday 7 September to Thursday 31 December\nand ends."
    assert len(split_sentences(wrapped)) == 1


def test_a_plain_text_table_is_read_with_its_first_row_as_headers() -> None:
    """am030: "Event | Date | Where | …" heads the rows under it, as a pipe table's header does."""
    spans = split_sentences(EVENTS)
    assert all(is_row(s.sentence) for s in spans)
    read = readings(spans)
    assert (spans[0].start, spans[0].end) not in read  # the header row
    silent = read[(spans[2].start, spans[2].end)]
    assert "| Date: Friday 2 October |" in silent and "| Starts: 7.30 pm |" in silent
    assert not is_row("Cash or card | both are taken")  # two cells: no table
    assert not is_row("The café is open.")


def test_of_two_rows_only_the_one_the_claim_names_is_read_for_a_negation() -> None:
    """am040: "Under 15: not admitted" of the Halloween row beside the festival's row."""
    halloween = "| Event: Halloween double bill | Starts: 9 pm | Under 15: not admitted |"
    festival = "| Event: Tamberley Short Film Festival, day pass | Starts: 11 am | Under 15: free |"
    claim = "The Tamberley Short Film Festival is a free event, so there is no day pass for it."
    assert cells_spoken_of(claim, f"{halloween}\n{festival}") == festival
    assert negation_differs(claim, f"{halloween}\n{festival}")
    # no row named: both stay
    assert cells_spoken_of("It is free.", f"{halloween}\n{festival}") == f"{halloween}\n{festival}"


def test_a_time_of_day_is_no_price() -> None:
    """am020: "The New Year's Eve gala at the Lyric costs 9.30 pm." states no price."""
    question = "How much are tickets for the New Year's Eve gala at the Lyric?"
    assert not states_price("The New Year's Eve gala at the Lyric costs 9.30 pm.")
    assert "price" in unanswered(question, ["The New Year's Eve gala at the Lyric costs 9.30 pm."])
    assert states_price("The fee is the same as for adults.")
    assert states_price("Entry is free before 7 pm.")
    assert unanswered(question, ["Tickets for the gala cost 25.00 GBP."]) == ""


def test_an_abbreviation_shares_the_topic_of_its_words() -> None:
    """am025: "this year's AGM" is about "the annual general meeting"."""
    sentence = "The annual general meeting is held every October in the Lyric auditorium."
    assert spelled("AGM", sentence)
    assert shares_topic("When is this year's AGM?", sentence)
    assert not spelled("AGM", "A general meeting is held every October.")
    assert not shares_topic("When is this year's AGM?", "Tickets cost 8.00 GBP at the door.")


def test_a_negated_clause_naming_another_thing_does_not_negate_the_claim() -> None:
    """am022: "…, and Cheap Tuesday prices do not apply" is not about the broadcasts' prices."""
    sentence = (
        "Tickets for the broadcasts cost 16.00 GBP, or 14.00 GBP for members and 8.00 GBP for"
        " under 18s, and Cheap Tuesday prices do not apply."
    )
    claim = "A ticket for a broadcast from the Kestrel Opera House is 16.00 GBP."
    assert not negation_differs(claim, sentence)
    # the clause counts when the claim names what it negates, or when it names nothing
    assert negation_differs("Cheap Tuesday prices apply to the broadcasts.", sentence)
    assert negation_differs(
        "Dogs are welcome in the café.", "The café opens at 9 am, and dogs are not allowed."
    )


def test_a_claim_for_the_evening_does_not_answer_a_question_about_a_matinee() -> None:
    """am017: the sofas' evening price for a Sunday 2 pm matinee."""
    question = (
        "My partner and I would love one of the sofas at the Lyric for the Sunday 2 pm matinee."
        " How much is a sofa for that showing?"
    )
    claim = "The 6 two-seat sofas cost 18.00 GBP per sofa for evening screenings."
    assert asked_parts(question) >= {"afternoon"}
    assert daypart_contrast(question, claim)
    assert "evening" in off_question(question, claim, claim)
    # a kind named "Evening", a part of the day the question shares, or none asked: no contrast
    assert daypart_contrast(question, "Evening Members pay 18.00 GBP.") is None
    assert daypart_contrast("Is the 7.45 pm showing full?", claim) is None
    assert daypart_contrast("How much is a sofa?", claim) is None


def test_a_claim_listing_amounts_labels_each_with_its_own_item() -> None:
    """am027: the claim's 6.00 GBP is "for each extra child", not for the 20 of 180.00 GBP."""
    sentence = (
        "The package costs 180.00 GBP for up to 20 children and 6.00 GBP for each extra child,"
        " up to 40 children, and at least one adult must stay for every 10 children."
    )
    claim = (
        "The party package for 18 children costs 180.00 GBP for up to 20 children and 6.00 GBP"
        " for each extra child, up to 40 children."
    )
    assert other_listed_amount(claim, sentence) == ""
    # an amount the claim gives to another item's number is still refused
    assert "180 gbp for 20" in other_listed_amount(
        "It costs 6.00 GBP for up to 20 children.", sentence
    )
    fees = "The fee is 42.00 GBP for Grade 1, 48.00 GBP for Grades 2 and 3, 56.00 GBP for Grade 4."
    assert other_listed_amount("The fee is 48.00 GBP for Grade 3 and 56.00 GBP for Grade 2.", fees)


def test_a_date_and_a_time_of_day_are_no_count() -> None:
    """am025: "how many members have to be there" is not answered by when the meeting is."""
    part = "how many members have to be there for it to go ahead?"
    assert not can_answer(part, "In 2026 it is on Monday 19 October at 7 pm.")
    assert can_answer(part, "At least 20 members must be present.")
    assert can_answer(part, "There are two sessions on 12 May.")
    assert can_answer("How many days does it last?", "It lasts 3 days.")
