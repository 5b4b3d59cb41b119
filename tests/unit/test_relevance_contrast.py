"""A supported claim about a neighbouring thing (another modifier, number, range) is set aside."""

from __future__ import annotations

from disputatio.validators.amounts import asked_unit
from disputatio.validators.claims import NOT_FOUND_ANSWER, check_answer
from disputatio.validators.measures import number_contrast
from disputatio.validators.relevance import off_question
from disputatio.validators.replaced import contrast
from disputatio.validators.support import LexicalSupport

POLICY = (
    "Passwords for standard user accounts must be changed every 180 days. "
    "Administrator passwords must be changed every 90 days."
)
ROV = "The Havørn-300 has a depth rating of 3,000 m and weighs 3.8 tonnes in air."
TRAINING = (
    "ROV pilots must complete the pilot course, which lasts 5 days, within 6 months of being "
    "hired. Survey technicians must complete the CTD-41 operator course within 3 months of "
    "being hired."
)
SECTIONS = {
    "pol": {"text": POLICY, "title": "IT security policy"},
    "rov": {"text": ROV, "title": "ROV maintenance schedule"},
    "trn": {"text": TRAINING, "title": "Onboarding and training"},
}


def test_another_modifier_before_the_same_noun_is_a_contrast() -> None:
    found = contrast("How often must passwords for service accounts be changed?", POLICY)
    assert found == ("service accounts", "user accounts")


def test_another_object_after_the_same_preposition_is_a_contrast() -> None:
    assert contrast("What does the Havørn-300 ROV weigh in water?", ROV) == ("in water", "in air")


def test_the_words_of_the_question_in_the_evidence_are_no_contrast() -> None:
    assert (
        contrast("How often must passwords for standard user accounts be changed?", POLICY) is None
    )
    assert contrast("What does the Havørn-300 weigh in air?", ROV) is None


def test_a_word_of_the_section_title_counts_as_present() -> None:
    q = "How often must passwords for service accounts be changed?"
    assert contrast(q, POLICY, context="Service accounts") is None


def test_a_question_asking_for_days_is_not_answered_by_months() -> None:
    assert asked_unit("How many days does the CTD-41 operator course last?") == "day"
    q = "How many days does the CTD-41 operator course last?"
    assert off_question(q, "The CTD-41 operator course lasts 3 months.", TRAINING)
    assert not off_question(q, "The course lasts 5 days.", TRAINING)


def test_check_answer_refuses_a_neighbours_fact_and_says_why() -> None:
    question = "How often must passwords for service accounts be changed?"
    answer = "Passwords for standard user accounts must be changed every 180 days [pol]."
    plain = check_answer(answer, SECTIONS)
    assert plain.claims[0].verdict == "supported" and not plain.not_found
    report = check_answer(answer, SECTIONS, question=question, question_words=True)
    (claim, refusal) = report.claims
    assert claim.verdict == "supported" and claim.dropped
    assert "service accounts" in claim.reason and "user accounts" in claim.reason
    assert report.not_found and report.answer == NOT_FOUND_ANSWER
    assert refusal.verdict == "not_found"


def test_check_answer_keeps_a_claim_answering_the_question() -> None:
    question = "How often must passwords for standard user accounts be changed?"
    answer = "Passwords for standard user accounts must be changed every 180 days [pol]."
    report = check_answer(answer, SECTIONS, question=question)
    assert not report.not_found and not report.claims[0].dropped


def test_check_answer_keeps_an_off_question_claim_flagged_when_asked() -> None:
    report = check_answer(
        "The Havørn-300 weighs 3.8 tonnes in air [rov].",
        SECTIONS,
        question="What does the Havørn-300 ROV weigh in water?",
        keep_unsupported=True,
        question_words=True,
    )
    claim = report.claims[0]
    assert not claim.dropped and "in water" in claim.reason and not report.not_found


def test_a_yes_no_question_is_left_to_the_claims() -> None:
    report = check_answer(
        "The Havørn-300 weighs 3.8 tonnes in air [rov].",
        SECTIONS,
        question="Does the Havørn-300 weigh 3.8 tonnes in water?",
    )
    assert not report.not_found


def test_a_number_of_the_question_given_another_value_is_a_contrast() -> None:
    sentence = "At a sampling rate of 4 Hz, the battery pack lasts 70 hours."
    q = "How long does the battery pack last when sampling at 8 Hz?"
    assert off_question(q, "The pack lasts 70 hours at 4 Hz.", sentence)
    assert not off_question(q.replace("8 Hz", "4 Hz"), "The pack lasts 70 hours.", sentence)


def test_a_name_of_the_sections_lead_does_not_excuse_a_contrast() -> None:
    """Only titles and headings count as present: the lead names what the section mentions."""
    sections = {
        "cert": {
            "text": "Everyone must hold STCW Basic Safety Training. A seafarer's medical "
            "certificate is also required, and it must be renewed every 2 years.",
            "title": "Certificates",
        }
    }
    report = check_answer(
        "The STCW training certificate must be renewed every 2 years [cert].",
        sections,
        question="How often must the STCW training certificate be renewed?",
        question_words=True,
    )
    claim = report.claims[0]
    assert claim.dropped and "medical certificate" in claim.reason, claim.reason


def test_a_synonym_is_no_contrast_when_a_similarity_is_given() -> None:
    sentence = "Large uploads must be scheduled after 22:00."
    q = "After what time should big uploads be scheduled?"
    assert contrast(q, sentence) == ("big uploads", "large uploads")
    assert contrast(q, sentence, similar=lambda a, b: 0.8) is None
    assert contrast(q, sentence, similar=lambda a, b: 0.3) is not None


class _Embedding(LexicalSupport):
    """A lexical checker with an embedding in which 'big' and 'large' are one word."""

    def embed(self, texts: list[str]) -> list[list[float]]:
        return [[1.0, 0.0] if t in ("big", "large") else [0.0, 1.0] for t in texts]


def test_check_answer_asks_the_checkers_embedding_about_synonyms() -> None:
    sections = {"it": {"text": "Large uploads must be scheduled after 22:00.", "title": "IT"}}
    question = "After what time should big uploads be scheduled?"
    answer = "Large uploads must be scheduled after 22:00 [it]."
    asked = {"question": question, "question_words": True}
    assert check_answer(answer, sections, **asked).not_found  # type: ignore[arg-type]
    report = check_answer(answer, sections, checker=_Embedding(), **asked)  # type: ignore[arg-type]
    assert not report.not_found


def test_replaced_words_are_not_checked_by_default() -> None:
    """Off by default (docs/grounding.md: on three held-out sets it refused more answers than
    near misses); numbers and units still are."""
    answer = "Passwords for standard user accounts must be changed every 180 days [pol]."
    question = "How often must passwords for service accounts be changed?"
    assert not check_answer(answer, SECTIONS, question=question).not_found
    course = "How many days does the CTD-41 operator course last?"
    assert check_answer(
        "The CTD-41 operator course lasts 3 months [trn].", SECTIONS, question=course
    ).not_found


def test_a_dimension_the_evidence_never_measures_is_a_contrast() -> None:
    from disputatio.validators.relevance import dimension_contrast

    long_pool = "The Competition Pool is 25 metres long and has eight lanes."
    assert dimension_contrast("How wide is the Competition Pool?", long_pool) == (
        "width",
        "length",
    )
    assert dimension_contrast("How long is the Competition Pool?", long_pool) is None
    assert (
        dimension_contrast("What is the minimum password length?", "at least 14 characters long.")
        is None
    )
    # named, though not measured: "the depth at the fuel dock is 1.8 metres"
    assert dimension_contrast("How deep is it?", "It is 3 m long; the depth is 1.8 metres.") is None
    report = check_answer(
        "The Competition Pool is 25 metres long [s1].",
        {"s1": {"text": long_pool}},
        question="How wide is the Competition Pool?",
    )
    assert report.not_found and "width" in report.claims[0].reason


SHOE_ROW = "| Climbing shoes, children | EU 26 to 35 | 40 NOK |"


def test_a_labelled_number_outside_the_range_labelled_alike_is_off_question() -> None:
    # e024, held-out set 17: no unit ties 24 to the sizes; the word "EU" before both does
    why = off_question(
        "My son wears EU size 24 climbing shoes. How much is shoe hire for him?",
        "Climbing shoes for children cost 40 NOK per visit.",
        SHOE_ROW,
    )
    assert "EU size 24" in why and "26 to 35" in why


def test_a_labelled_number_inside_the_range_or_labelled_otherwise_is_no_contrast() -> None:
    claim = "Climbing shoes for children cost 40 NOK per visit."
    inside = "My son wears EU size 30 climbing shoes. How much is shoe hire for him?"
    assert off_question(inside, claim, SHOE_ROW) == ""
    # the range is labelled by other words than the question's number
    other = "My son is in room 24. How much is shoe hire for him?"
    assert off_question(other, claim, SHOE_ROW) == ""


VIOLINS = (
    "Violins come in four sizes: quarter size for ages 4 to 6, half size for ages 7 to 9, "
    "three-quarter size for ages 10 and 11, and full size from age 12."
)
EIGHT = "My daughter is 8 and is just starting the violin. What size violin will she need to hire?"


def test_a_claim_for_ages_that_leave_the_asker_out_is_off_question() -> None:
    # c004, held-out set 19: the sentence's ranges hold 8, the claim's own range does not
    claim = "She will need a quarter size violin, which is suitable for ages 4 to 6."
    assert "ages 4 to 6" in off_question(EIGHT, claim, VIOLINS)


def test_a_claim_for_ages_that_hold_the_asker_is_kept() -> None:
    assert off_question(EIGHT, "She will need a half size violin, for ages 7 to 9.", VIOLINS) == ""
    assert off_question(EIGHT, "She will need a half size violin.", VIOLINS) == ""


PARKING = "The Market Square car park charges 1.20 GBP for the first hour."


def test_the_first_hours_charge_does_not_answer_for_two_hours() -> None:
    # c014, held-out set 19: "the first hour" is one hour, not the two asked about
    two = "How much will I pay in the Market Square car park if I stay for two hours?"
    assert "2 hour" in off_question(two, PARKING, PARKING)
    one = "How much will I pay in the Market Square car park for one hour?"
    assert off_question(one, PARKING, PARKING) == ""


def test_the_askers_case_inside_a_within_bound_is_no_contrast() -> None:
    """ac012 (held-out set 28): joined 10 days ago; "within 14 days of joining" answers it."""
    rule = "You can cancel within 14 days of joining for a full refund."
    assert number_contrast("I joined 10 days ago. Can I get my money back?", rule) is None
    assert number_contrast("I joined 20 days ago. Can I get my money back?", rule)


def test_a_rates_count_is_no_contrast_with_the_askers_amount() -> None:
    """ac006 (held-out set 28): 40 minutes late, charged "for each started 30 minutes"."""
    rate = "Bikes returned late are charged 5.00 GBP for each started 30 minutes."
    assert number_contrast("I was 40 minutes late. How much extra will I pay?", rate) is None
    assert number_contrast("I was 40 minutes late. How much extra?", "Returns within 30 minutes")
