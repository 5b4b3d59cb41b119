"""A supported claim that answers a neighbouring question is set aside, each rule on its own."""

from __future__ import annotations

from disputatio.validators.asked import (
    asked_kind,
    asked_unit,
    asks_for_value,
    asks_quantity,
    kind_mismatch,
    unanswered,
)
from disputatio.validators.claims import NOT_FOUND_ANSWER, check_answer
from disputatio.validators.relevance import contrast, off_question, shares_topic
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


def test_a_quantity_question_needs_a_claim_stating_one() -> None:
    assert asks_quantity("How long does the battery last?")
    assert asks_quantity("Above what weight does a lift need a second signaller?")
    assert not asks_quantity("Which hardware key are administrators issued?")
    assert unanswered("How long does the battery last?", ["The sensor is powered by the pack."])
    assert not unanswered("How long does the battery last?", ["The pack lasts 40 hours."])
    assert not unanswered("How often are drills held?", ["Drills are held monthly."])


def test_a_question_naming_a_kind_of_amount_needs_a_claim_stating_one() -> None:
    """As "how much is the fee" does. Set 19's c003 (run 30): "What's the fee per term?" was
    not read as asking a price. (Its claim, "The table shows the fee for one term of 11
    lessons", still passes: "11 lessons" is a number like a bare "275".)"""
    q = "What's the fee per term?"
    assert asked_kind(q) == "money"
    assert unanswered(q, ["The table shows the fee for each term."])
    assert not unanswered(q, ["The fee for one term of 11 lessons is 275 GBP."])
    assert unanswered("What is the depth of the pool?", ["The pool has a deep end."])


def test_yes_no_questions_are_not_asked_for_a_value() -> None:
    assert not asks_for_value("Is deletion at 6q24.2-26 associated with shorter survival?")
    assert asks_for_value("How often must passwords for service accounts be changed?")


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


def test_the_unit_asked_may_follow_a_qualifying_word() -> None:
    assert asked_unit("After how many dive hours are the seals replaced?") == "hour"
    assert asked_unit("How many failed login attempts lock an account?") is None


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


def test_a_two_part_question_is_not_refused_for_its_other_parts_amount() -> None:
    """ "By when …, and how often …?": a claim answering the first part stays."""
    q = "By when must a near miss be reported, and how often are the reports reviewed?"
    assert not unanswered(q, ["Near misses must be reported before the end of the shift."])
    assert unanswered("How often are the reports reviewed?", ["Reports go to the master."])


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


def test_a_claim_whose_sentence_shares_no_word_with_the_question_is_set_aside() -> None:
    q = "How many hours of profiling does one charge of the battery pack give?"
    damage = "Any damage to the case must be reported to the workshop within 48 hours."
    why = off_question(q, damage, damage)
    assert "shares no word" in why
    battery = "One charge of the battery pack gives 40 hours of profiling."
    assert not off_question(q, battery, battery)


def test_units_and_question_words_are_no_shared_topic() -> None:
    q = "How long does the pump run?"
    assert not shares_topic(q, "The survey lasts 3 hours.")
    assert shares_topic(q, "The pump runs for 3 hours.")


def test_a_synonym_is_a_shared_topic_when_a_similarity_is_given() -> None:
    q = "How long is a new starter mentored?"
    sentence = "Every new employee is given a buddy for the first 3 months."
    assert not shares_topic("How long is a trainee mentored?", sentence)
    assert shares_topic(
        "How long is a trainee mentored?",
        sentence,
        similar=lambda a, b: 0.9 if {a, b} == {"trainee", "employee"} else 0.0,
    )
    assert shares_topic(q, sentence)  # "new" is shared


def test_a_two_part_question_is_left_to_its_parts_words() -> None:
    q = "When did the incident happen, and who reported it to the authority?"
    claim = "The grab fell on 17 October 2023."
    assert not off_question(q, claim, claim, "Incident report 2291")  # no "when" rule for it


def test_a_claim_sharing_no_word_with_any_part_of_a_two_part_question_is_set_aside() -> None:
    """k037 (held-out set 2): the bulletin's closing line padded a two-part answer."""
    q = "By when must a near miss be reported in SafeDeck, and how often are the reports reviewed?"
    padding = "Questions about this bulletin go to the Marine Superintendent."
    assert "shares a word" in off_question(q, padding, padding, "Safety bulletin 2024-03")
    review = "The near-miss reports are reviewed every month by the safety committee."
    assert not off_question(q, review, review)


def test_a_two_part_question_reads_the_sections_title_as_well() -> None:
    """e003 (set 17): "To join, you must be at least 16 …" answers "how old … to sign up"."""
    q = "What does the Lead Climbing Course cost, and how old do you need to be to sign up?"
    age = "To join, you must be at least 16 and have held a Green Card for three months."
    assert off_question(q, age, age)
    assert not off_question(q, age, age, "Courses: Lead Climbing Course")


def test_a_quantity_phrase_may_carry_a_modifier() -> None:
    assert asks_quantity("Above what noise level is hearing protection required?")
    assert asks_quantity("At what water temperature is the suit worn?")
    assert unanswered(
        "Above what noise level is hearing protection required on deck?",
        ["Hearing protection is required in the engine room at all times."],
    )


def test_a_question_asking_a_unit_needs_a_claim_in_that_unit() -> None:
    q = "How many hours does one charge of the battery pack give?"
    assert unanswered(q, ["Profiling is suspended when the sea state is above 4."])
    assert not unanswered(q, ["The sea state limit is 4.", "One charge gives 40 hours."])


def test_a_how_long_question_is_not_answered_by_a_bare_frequency() -> None:
    q = "How long are the weekly copies kept in the archive?"
    assert unanswered(q, ["A full copy is sent to the archive every week."])
    assert not unanswered(q, ["Weekly copies are kept for 6 months."])


def test_the_unit_one_part_asks_is_not_asked_of_the_other_part() -> None:
    q = "How far ahead must the form arrive, and within how many days must expenses be claimed?"
    claim = "The form must arrive at least 6 weeks before departure."
    assert not off_question(q, claim, claim)
    single = "Within how many days must the form arrive?"
    assert off_question(single, claim, claim)


def test_a_question_naming_a_kind_of_amount_is_not_answered_by_another_kind() -> None:
    q = "What minimum face velocity must the cabinets reach?"
    assert asked_kind(q) == "speed"
    claim = "The cabinets are certified every 12 months."
    assert "speed" in off_question(q, claim, claim)
    speed = "The cabinets must reach a face velocity of 3 knots."
    assert not off_question(q, speed, speed)
    assert asked_kind("How heavy is the cabinet?") == "weight"
    assert asked_kind("When are the cabinets certified?") is None
    assert asked_kind("How far ahead must assistance be booked?") is None  # a time, not a length


def test_a_who_question_needs_a_claim_naming_someone() -> None:
    q = "Who is the student representative on the committee?"
    assert unanswered(q, ["The student representative on the committee serves for 1 year."])
    assert not unanswered(q, ["The student representative is Dana Okafor."])


def test_a_unit_after_one_qualifying_word_is_the_unit_asked() -> None:
    q = "How many working days in advance must records be ordered?"
    claim = "Records must be ordered at least 5 working days before the visit."
    assert not unanswered(q, [claim])
    assert not off_question(q, claim, claim)
    assert unanswered(q, ["Records must be ordered at least 2 weeks before the visit."])


def test_a_count_is_not_answered_by_a_measure() -> None:
    """r010 (held-out set 7): "how many swimmers" is not answered by a water temperature."""
    q = "How many swimmers may one lifeguard supervise in the Therapy Pool?"
    warm = "The water of the Therapy Pool is kept at 34 degrees Celsius."
    assert "how many swimmers" in off_question(q, warm, warm)
    count = "One lifeguard may supervise 12 swimmers in the Therapy Pool."
    assert not off_question(q, count, count)
    # a count beside a measure, and a frequency asked as "how many times", still answer
    assert not off_question(
        q, "Up to 12 swimmers under 10 years.", "Up to 12 swimmers under 10 years."
    )
    often = "The Therapy Pool is inspected every 6 months."
    assert not off_question("How many times is the Therapy Pool inspected?", often, often)


def test_a_how_long_question_is_not_answered_by_another_kind_of_amount() -> None:
    """w002 (held-out set 10): a pool's length asked, its temperature given."""
    q = "How long is the Panorama outdoor pool?"
    warm = "The Panorama outdoor pool is heated to 33 degrees Celsius all winter."
    assert "how long" in off_question(q, warm, warm)
    for answer in ("The Panorama outdoor pool is 25 m long.", "A session lasts 45 minutes."):
        assert not kind_mismatch(q, answer)  # a length or a time answers "how long"
    assert not kind_mismatch(q, "The 25 m pool is kept at 33 degrees Celsius.")


def test_a_which_company_question_needs_a_claim_naming_one() -> None:
    """w024 (held-out set 10): "which company" is answered by a name, as "who" is."""
    q = "Which company flies the rescue helicopter at Brunnhorn?"
    assert unanswered(q, ["The rescue helicopter is flown by the helicopter operator."])
    assert not unanswered(q, ["The rescue helicopter is flown by Alpin Air Rescue."])
    assert not unanswered("Which slope is the longest?", ["The Gamsabfahrt is the longest."])


def test_a_when_question_needs_a_claim_stating_a_time_a_day_or_a_month() -> None:
    q = "When is the gym closed?"
    assert "when" in unanswered(q, ["The gym is closed if the water quality is poor."])
    for answer in ("The gym is closed from 3 August.", "The gym is closed on Sundays."):
        assert not unanswered(q, [answer])


def test_a_what_is_the_name_question_needs_a_claim_naming_someone() -> None:
    """x009 (held-out set 11): "a senior lecturer from another faculty" is no name."""
    q = "What is the name of the senior lecturer who chairs the appeals panel?"
    assert unanswered(q, ["The panel is chaired by a senior lecturer from another faculty."])
    assert not unanswered(q, ["The appeals panel is chaired by Dr Mira Holt."])


def test_an_age_question_is_not_answered_by_a_price() -> None:
    """Held-out set 14 (a037): "Up to what age …" answered with the children's price."""
    q = "Up to what age do children pay the children's price for mini golf?"
    assert "age" in unanswered(q, ["The children's price for mini golf is 40 NOK per round."])
    assert not unanswered(q, ["Children under 12 pay the children's price."])
    assert not unanswered("How old must a rider be?", ["Riders must be at least 16 years old."])
    assert not unanswered(
        "At what age is a child card converted?", ["It is converted when the holder turns 13."]
    )


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
