"""Held-out set 40's findings (run 52): plain-text headings, contacts, frequencies, siblings."""

from __future__ import annotations

from fake_judges import RecordingJudge

from disputatio.testing import FakeEmbeddings
from disputatio.validators.asked import states_stretch, unanswered
from disputatio.validators.claims import check_answer
from disputatio.validators.contacts import contact_contrast
from disputatio.validators.headings import headings_in
from disputatio.validators.relevance import off_question
from disputatio.validators.siblings import paragraph, sibling_name, sibling_place
from disputatio.validators.support import JudgedSupport

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


EVENTS = (
    "SPECIAL EVENTS\n\n"
    "Perseids Meteor Night: Wednesday 12 August 2026 at Hartsfell, 10 pm to 2 am.\n"
    "Adult 8.00 GBP, under 16 4.00 GBP, members free.\n"
    "Bring a reclining chair or a mat; the society lends out 10 deckchairs, first come.\n\n"
    "Geminids Meteor Night: Sunday 13 December 2026 at Hartsfell, 9 pm to 1 am.\n"
    "Adult 8.00 GBP, under 16 4.00 GBP, members free.\n"
)
GEMINIDS = "Will the society lend me a deckchair at the Geminids Meteor Night?"


def test_a_paragraph_about_a_sibling_event_does_not_answer() -> None:
    """ao029: the Perseids' deckchairs for a question about the Geminids Meteor Night."""
    chairs = EVENTS.index("Bring a")
    block = paragraph(EVENTS, chairs, chairs + 20)
    assert block.startswith("Perseids") and "Geminids" not in block
    assert sibling_name(GEMINIDS, block) == ("Geminids Meteor Night", "Perseids Meteor Night")
    assert sibling_name(GEMINIDS.replace("Geminids", "Perseids"), block) is None
    both = "Are deckchairs lent at the Perseids Meteor Night and the Geminids Meteor Night?"
    assert sibling_name(both, block) is None  # the question names the other one too
    assert sibling_name("Are deckchairs lent at Meteor Nights?", block) is None  # no name
    centre = "What are the opening hours of the Holloway Outpatient Centre?"
    assert sibling_name(centre, "Blood tests at the Holloway Centre run from 08:00.") is None
    # the asker's own kind is not what is asked about (ao038)
    fees = "Beginners' Course\nPrice: 60.00 GBP, or 40.00 GBP for Observing Members."
    assert sibling_name("I'm an Associate Member. What will it cost me?", fees) is None
    assert sibling_name("What do Associate Members pay for it?", fees)
    # each word of the name in the paragraph names it (ad028, held-out set 29)
    assert sibling_name("Is the Night Meteor Geminids full?", f"{block} Geminids") is None
    checker = JudgedSupport(FakeEmbeddings().embed_documents, RecordingJudge(1.0))  # type: ignore[arg-type]
    sections = {"s": {"text": EVENTS, "title": "Events"}}
    answer = "Yes, the society lends out 10 deckchairs, first come [s]."
    report = check_answer(answer, sections, checker=checker, question=GEMINIDS)
    assert not [c for c in report.claims if c.verdict == "supported" and not c.dropped]
    assert any("Perseids Meteor Night" in c.reason for c in report.claims)
    perseids = GEMINIDS.replace("Geminids", "Perseids")
    kept = check_answer(answer, sections, checker=checker, question=perseids)
    assert any(c.verdict == "supported" and not c.dropped for c in kept.claims)
    two = f"{GEMINIDS[:-1]}, and what does the Perseids Meteor Night cost?"  # b025: one per part
    both = check_answer(answer, sections, checker=checker, question=two)
    assert any(c.verdict == "supported" and not c.dropped for c in both.claims)


NIGHTS = (
    "SPECIAL EVENTS\n\n"
    "Perseids Meteor Night: Wednesday 12 August 2026 at Hartsfell, 10 pm to 2 am.\n\n"
    "Observe the Moon Night: Saturday 17 October 2026 on the Cobble Lane roof terrace, 7 pm to"
    " 9 pm.\nFree for everyone; no booking needed.\n\n"
    "Christmas Lecture: Tuesday 15 December 2026 at Cobble Lane, 7.30 pm.\n"
)
DOORS = "What time do the doors open for public nights at Hartsfell?"


def test_a_paragraph_of_another_place_does_not_answer() -> None:
    """ao023: the Moon Night's hours on the Cobble Lane roof for the doors at Hartsfell."""
    hours = NIGHTS.index("7 pm to")
    block = paragraph(NIGHTS, hours, hours + 13)
    assert sibling_place(DOORS, block, NIGHTS) == ("hartsfell", "cobble")
    assert sibling_place(DOORS.replace("Hartsfell", "Cobble Lane"), block, NIGHTS) is None
    # the two must stand alike in the text around ("at Hartsfell", "at Cobble Lane")
    assert sibling_place(DOORS, block, block) is None
    # a place the text around does not name so is left alone (d035, held-out set 16)
    tablets = "Repeat prescriptions are ready after 2 working days at the Ashcombe Road Hospital."
    assert sibling_place("Pick-up at the Elmsworth branch: how long?", tablets, tablets) is None
    # a paragraph of a whole kind names each place
    both = "Doors open at 7 pm at both sites.\nEvents at Cobble Lane end by 9 pm."
    assert sibling_place(DOORS, both, NIGHTS) is None
