"""Held-out set 40's findings (run 52): plain-text headings, contacts, frequencies."""

from __future__ import annotations

from disputatio.validators.asked import states_stretch, unanswered
from disputatio.validators.contacts import contact_contrast
from disputatio.validators.headings import headings_in
from disputatio.validators.relevance import off_question

COURSES = (
    "FELLBRIDGE ASTRONOMICAL SOCIETY - COURSES\n\n"
    "COURSES IN 2026 TO 2027\n\n"
    "Observatory Induction\n"
    "A two-hour session at Hartsfell on the first Friday of each month.\n\n"
    "Ashworth Telescope Training\n"
    "Two evenings at Hartsfell, 3 hours each, with the Observatory Director.\n"
    "Price: 15.00 GBP, for Observing Members aged 18 and over.\n\n"
    "Membership: membership@fellbridgeastro.org.uk\n"
    "Cancelling a course place: fees are refunded in full up to 14 days before.\n\n"
    "Adults 5 GBP\n"
    "Children 3 GBP\n"
)


def test_a_line_naming_an_item_heads_the_lines_under_it() -> None:
    """ao028: "Price: 15.00 GBP, …" stands under "Ashworth Telescope Training"."""
    found = headings_in(COURSES)
    price = COURSES.index("Price: 15.00")
    in_force = [path for end, path in found if end <= price][-1]
    assert in_force.endswith("COURSES IN 2026 TO 2027 Ashworth Telescope Training")
    assert "Observatory Induction" not in in_force  # a heading of its level replaces the last
    # a contact line, a line with figures and a line without text under it head nothing
    titles = " | ".join(path for _, path in found)
    assert "Membership" not in titles and "Adults" not in titles and "Children" not in titles


def test_an_email_address_is_no_phone_number() -> None:
    """ao017: "The Observatory Director's phone number is observatory@…" for a phone number."""
    question = "What's the phone number for the Observatory Director?"
    claim = "The Observatory Director's phone number is observatory@fellbridgeastro.org.uk."
    assert "phone number" in off_question(question, claim, claim)
    assert not contact_contrast(question, "Call the office on 01632 960 210.")
    assert contact_contrast("What is the email address of the office?", "Call 01632 960 210.")
    assert not contact_contrast("How do I reach the director?", claim)
    both = "What is the team's telephone number, and what email address should I write to?"
    assert not contact_contrast(both, claim)  # y042, held-out set 12: one part asks each


def test_a_frequency_is_no_stretch_of_time() -> None:
    """ao035: "… reviews the risk assessments … every 12 months" for "How long have I got …?"."""
    question = "I tripped over a tripod leg last night. How long have I got to report it?"
    review = "The Health and Safety Officer reviews the risk assessments every 12 months."
    assert not states_stretch(review)
    assert "how long" in unanswered(question, [review])
    assert states_stretch("Accidents must be reported within 48 hours.")
    assert states_stretch("Sessions run every 2 weeks for 3 months.")
