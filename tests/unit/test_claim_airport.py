"""Right drafts the claim check refused on held-out set 9 (an airport's documents, run 15).

Re-checked on 2026-12-02 (``benchmarks/grounding_recheck.py``), three right answers were
refused for the way the 1.5B wrote them, not for what they said:

* v017: "The checkpoint 1 opens at 04:15 and each passenger may carry one lighter, …" joins
  two facts of two sentences without a comma, and copies "Checkpoint 1" in lower case, so the
  number guard read its 1 as an amount the sentence does not state;
* v023: "This is specified in the section on liquids, which states that "Liquids, gels and
  aerosols … 100 ml each."" quotes its sentence, but was dropped as a pointer.
"""

from __future__ import annotations

from disputatio.validators.claim_kinds import reported, split_compound
from disputatio.validators.claims import check_answer
from disputatio.validators.support import guard

SECURITY = (
    "Checkpoint 1 in Terminal A opens at 04:15 and closes after the last domestic departure. "
    "Liquids, gels and aerosols in the cabin must be in containers of no more than 100 ml "
    "each. Laptops may stay in the bag. Each passenger may carry one lighter, which must be "
    "carried on the person and not in the cabin bag."
)
SECTIONS = {"sec": {"text": SECURITY, "title": "Security and liquids"}}


def test_two_facts_joined_by_and_before_a_new_subject_are_two_claims() -> None:
    joined = (
        "The checkpoint opens at 04:15 and each passenger may carry one lighter, which must be "
        "carried on the person."
    )
    assert split_compound(joined) == [
        "The checkpoint opens at 04:15.",
        "Each passenger may carry one lighter, which must be carried on the person.",
    ]
    # a list of things joined by "and" is not split
    assert len(split_compound("Fever and chills are common and all patients must rest.")) == 2
    assert split_compound("The course covers safety and all the use of cranes.") == [
        "The course covers safety and all the use of cranes."
    ]


def test_a_lower_case_copy_of_an_identifier_is_no_amount() -> None:
    window = SECURITY.split(". ")[0] + "."
    assert guard("The checkpoint 1 opens at 04:15.", window) == ""
    assert "2" in guard("The checkpoint 2 opens at 04:15.", window)
    # an amount stays an amount
    assert "6" in guard("The crane is rated 6 tonnes.", "Crane 6 is rated 10 tonnes.")


def test_a_pointer_quoting_its_sentence_is_the_quoted_claim() -> None:
    pointer = (
        'This is specified in the section on liquids, which states that "Liquids, gels and '
        'aerosols in the cabin must be in containers of no more than 100 ml each."'
    )
    assert reported(pointer).startswith("Liquids, gels and aerosols")
    assert reported("This is specified in the section on liquids.") == (
        "This is specified in the section on liquids."
    )
    report = check_answer(f"The limit is 100 ml. {pointer}", SECTIONS)
    [quote] = [c for c in report.claims if c.text.startswith("Liquids")]
    assert quote.verdict == "supported" and not quote.dropped and "100 ml" in report.answer


def test_a_claim_said_to_be_stated_in_a_named_section_is_its_quote() -> None:
    """Set 18's f016 (the hierarchical debate, 2026-12-04): "The earliest lesson start time on
    a Sunday is explicitly stated in the "Pick-up and drop-off" section: "<the sentence>"" was
    checked whole and dropped, and the part said the documents do not answer it."""
    sentence = (
        "Liquids, gels and aerosols in the cabin must be in containers of no more than 100 ml each."
    )
    said = (
        f'Support: The liquid limit is explicitly stated in the "Cabin bags" section: "{sentence}"'
    )
    assert reported(said) == sentence
    assert (
        reported(f'This is explicitly stated in the section on liquids: "{sentence}"') == sentence
    )
    report = check_answer(f"{said} [s]", {"s": {"text": SECURITY, "title": "Security"}})
    assert [c.verdict for c in report.claims] == ["supported"] and "100 ml" in report.answer


def test_a_quote_over_two_sentences_is_two_claims_on_their_sentences() -> None:
    """Set 18's f012 (2026-12-04): 'The relevant information is provided in section [S1],
    where it states: "<sentence 1> <sentence 2>"' — the first piece was checked with its
    pointer and an open quote, the second with a stray closing quote."""
    first, second = SECURITY.split(". ")[1:3]
    lead = "The relevant information is provided in section [sec], where it states:"
    text = f'{lead} "{first}. {second}."'
    report = check_answer(text, SECTIONS)
    assert [c.text for c in report.claims] == [f"{first}.", f"{second}."]
    assert all(c.verdict == "supported" for c in report.claims)


def test_the_joined_draft_of_v017_answers_both_parts() -> None:
    draft = (
        "The checkpoint 1 opens at 04:15 and each passenger may carry one lighter, which must be "
        "carried on the person and not in the cabin bag."
    )
    report = check_answer(draft, SECTIONS)
    kept = [c for c in report.claims if c.factual and not c.dropped]
    assert [c.verdict for c in kept] == ["supported", "supported"]
    assert "04:15" in report.answer and "one lighter" in report.answer
