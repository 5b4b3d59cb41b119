"""Tests for disputatio.parsing.answers: MedRAG-style answer parsing and majority voting."""

from __future__ import annotations

import dataclasses
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from disputatio.parsing import ParsedAnswer, majority_vote, parse_answer

MC = {"A": "Aspirin", "B": "Metformin", "C": "Insulin glargine", "D": "Metformin and insulin"}
YNM = ["yes", "no", "maybe"]


# --- every pattern -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "choice", "pattern"),
    [
        (r"Reasoning... so the result is \boxed{B}.", "B", "boxed"),
        (r"$\boxed{\text{C}}$", "C", "boxed"),
        (r"\boxed{\textbf{(D)}}", "D", "boxed"),
        (r"\boxed{A. Aspirin}", "A", "boxed"),
        ("Answer Choice: C", "C", "answer_choice"),
        ("**Answer Choice:** (A)", "A", "answer_choice"),
        ('{"step_by_step_thinking": "...", "answer_choice": "D"}', "D", "answer_choice"),
        ("The correct answer is B.", "B", "correct_answer"),
        ("The correct answer is: C", "C", "correct_answer"),
        ("The correct answer is (A) Aspirin.", "A", "correct_answer"),
        ("The correct answer is option D", "D", "correct_answer"),
        ("I think the best answer is **B** because it lowers glucose.", "B", "correct_answer"),
        ("Final answer: D", "D", "final_answer"),
        ("My final answer is (C).", "C", "final_answer"),
        ("Therefore, B.", "B", "therefore"),
        ("Therefore the answer is A", "A", "therefore"),
        ("Thus, the correct... no. Thus, C is right.", "C", "therefore"),
        ("So the answer is D.", "D", "therefore"),
        ("The answer is B because it is first line.", "B", "answer_is"),
        ("Reasoning first.\nAnswer: A", "A", "answer_is"),
        ("Metformin lowers glucose.\n(B)\n", "B", "lone_letter"),
        ("B", "B", "lone_letter"),
        ("**C.**", "C", "lone_letter"),
    ],
)
def test_every_pattern(text: str, choice: str, pattern: str) -> None:
    assert parse_answer(text, MC) == ParsedAnswer(choice, "OK", pattern, choice)


def test_lowercase_letter_is_normalised() -> None:
    result = parse_answer("final answer: b.", MC)
    assert (result.choice, result.status) == ("B", "OK")


# --- priorities and last match -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "choice", "pattern"),
    [
        ("The correct answer is A.\n" + r"\boxed{C}", "C", "boxed"),
        ("Final answer: A\nAnswer Choice: B", "B", "answer_choice"),
        ("Therefore, A.\nThe correct answer is D.", "D", "correct_answer"),
        ("Therefore, A.\nFinal answer: C", "C", "final_answer"),
        ("B\nTherefore, the answer is A.", "A", "therefore"),
        ("The answer is B.\nTherefore, C.", "C", "therefore"),
    ],
)
def test_higher_priority_pattern_wins_wherever_it_is(text: str, choice: str, pattern: str) -> None:
    result = parse_answer(text, MC)
    assert (result.choice, result.pattern) == (choice, pattern)


@pytest.mark.parametrize(
    "text",
    [
        r"First \boxed{A}, on reflection \boxed{D}",
        "The correct answer is A. Wait, re-reading: the correct answer is D.",
        "Final answer: B\n...\nFinal answer: D",
        "Therefore, A.\nHmm.\nTherefore, D.",
    ],
)
def test_last_match_of_the_winning_pattern_is_used(text: str) -> None:
    assert parse_answer(text, MC).choice == "D"


# --- option text, yes/no/maybe -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "choice"),
    [
        ("The correct answer is Metformin.", "B"),
        ("The correct answer is metformin", "B"),
        ("The correct answer is Metformin and insulin.", "D"),  # longest option text wins
        ("Final answer: INSULIN   GLARGINE", "C"),
        (r"\boxed{\text{Aspirin}}", "A"),
    ],
)
def test_option_text_maps_to_its_letter(text: str, choice: str) -> None:
    result = parse_answer(text, MC)
    assert (result.choice, result.status) == (choice, "OK")


@pytest.mark.parametrize(
    ("text", "choice", "pattern"),
    [
        (r"\boxed{yes}", "yes", "boxed"),
        ("Answer Choice: No", "no", "answer_choice"),
        ("Final answer: MAYBE.", "maybe", "final_answer"),
        ("Therefore, yes.", "yes", "therefore"),
        ("The answer is no because the trial was underpowered.", "no", "answer_is"),
        ("Evidence is mixed.\nMaybe\n", "maybe", "lone_letter"),
        # MedRAG's PubMedQA prompt lists the labels as A/B/C: letters map by position.
        ("Answer Choice: B", "no", "answer_choice"),
        ("Final answer: C", "maybe", "final_answer"),
    ],
)
def test_yes_no_maybe(text: str, choice: str, pattern: str) -> None:
    result = parse_answer(text, YNM)
    assert (result.choice, result.status, result.pattern) == (choice, "OK", pattern)


def test_yes_no_maybe_as_a_lettered_mapping() -> None:
    result = parse_answer("The correct answer is yes.", {"A": "yes", "B": "no", "C": "maybe"})
    assert (result.choice, result.status) == ("A", "OK")


# --- failures ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "pattern", "raw"),
    [
        (r"\boxed{F}", "boxed", "F"),
        (r"\boxed{42}", "boxed", "42"),
        ("Answer Choice: E", "answer_choice", "E"),
        ("The correct answer is F.", "correct_answer", "F"),
        ("Reasoning.\nE\n", "lone_letter", "E"),
        (r"Final answer: A, but \boxed{Z}", "boxed", "Z"),  # strict priority: the box decides
    ],
)
def test_invalid_choice(text: str, pattern: str, raw: str) -> None:
    assert parse_answer(text, MC) == ParsedAnswer(None, "INVALID_CHOICE", pattern, raw)


def test_invalid_label_for_yes_no_maybe() -> None:
    result = parse_answer(r"\boxed{probably}", YNM)
    assert (result.status, result.raw) == ("INVALID_CHOICE", "probably")


@pytest.mark.parametrize(
    "text",
    [
        "",
        "I am not sure what to answer here.",
        "Therefore, a patient with diabetes should be monitored.",
        "Therefore, I think more data is needed.",
        "The correct answer depends on the renal function.",
        "What is the correct answer?",
    ],
)
def test_parse_failed(text: str) -> None:
    assert parse_answer(text, MC) == ParsedAnswer(None, "PARSE_FAILED")


def test_prose_word_that_equals_a_label_is_not_an_answer() -> None:
    assert parse_answer("Therefore, no further treatment is needed.", YNM).status == "PARSE_FAILED"


@pytest.mark.parametrize("text", [None, 3, b"A"])
def test_error_on_non_string(text: object) -> None:
    assert parse_answer(text, MC).status == "ERROR"  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "text", ["ERROR: model timed out", "  ERROR", "[error] 500", "Error: boom"]
)
def test_error_markers(text: str) -> None:
    result = parse_answer(text, MC)
    assert (result.choice, result.status, result.pattern) == (None, "ERROR", None)


def test_error_analysis_prose_is_not_an_error_marker() -> None:
    assert parse_answer("Error analysis aside, the correct answer is B.", MC).status == "OK"


def test_result_is_frozen() -> None:
    result = parse_answer("Final answer: A", MC)
    assert result.ok
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.choice = "B"  # type: ignore[misc]


@pytest.mark.parametrize("options", [{}, [], [""]])
def test_empty_options_are_rejected(options: dict[str, str] | list[str]) -> None:
    with pytest.raises(ValueError, match="options"):
        parse_answer("A", options)


def test_string_options_are_rejected() -> None:
    with pytest.raises(TypeError, match="options"):
        parse_answer("A", "ABCD")


# --- majority vote -----------------------------------------------------------------------------


def test_majority_vote_counts() -> None:
    assert majority_vote(["A", "B", "B", None, "C"]) == "B"


def test_majority_vote_tie_goes_to_earliest_first_occurrence() -> None:
    # C and A both appear twice; C's first occurrence (index 0) precedes A's (index 1).
    assert majority_vote(["C", "A", "A", "C", "B"]) == "C"
    assert majority_vote(["B", "A"]) == "B"


def test_majority_vote_ignores_missing_answers() -> None:
    # None and "" are skipped: "A" (1 vote) beats nothing.
    assert majority_vote([None, "", None, "A"]) == "A"
    assert majority_vote([None, ""]) is None
    assert majority_vote([]) is None


# --- properties --------------------------------------------------------------------------------

#: Prose the reply may hold around its answer; a reply *opening* with an error marker
#: ("ERROR", "[error]", "error:") is an error report by design, not prose (hypothesis found
#: "ERROR\\boxed{A}" on 2026-12-03).
_ERROR_MARKER = re.compile(r"\s*(?:ERROR\b|(?i:\[error\]|error\s*:))")
_PROSE = st.text(st.characters(exclude_characters="\\"))
_LEAD = _PROSE.filter(lambda text: not _ERROR_MARKER.match(text + "\\"))


@given(before=_LEAD, after=_PROSE, letter=st.sampled_from(sorted(MC)))
def test_boxed_letter_in_random_prose_parses_to_that_letter(
    before: str, after: str, letter: str
) -> None:
    result = parse_answer(f"{before}\\boxed{{{letter}}}{after}", MC)
    assert (result.choice, result.status, result.pattern) == (letter, "OK", "boxed")


@given(text=st.text(), options=st.sampled_from([MC, YNM]))
def test_parse_answer_is_total_and_consistent(
    text: str, options: dict[str, str] | list[str]
) -> None:
    result = parse_answer(text, options)
    labels = set(options)
    if result.status == "OK":
        assert result.choice in labels
        assert result.pattern is not None
    else:
        assert result.choice is None


@pytest.mark.parametrize("text", ["\\boxed{" * 3000, "the answer is " * 3000, "(" * 5000])
def test_pathological_input_fails_cleanly(text: str) -> None:
    assert parse_answer(text, MC).status == "PARSE_FAILED"


def test_a_reply_naming_exactly_one_option_text_is_read_as_that_option() -> None:
    options = {"A": "Brucella abortus", "B": "Brucella melitensis", "C": "Brucella suis"}
    reply = "Brucella melitensis is the main host for humans and the most common cause [S1]."
    assert parse_answer(reply, options) == ParsedAnswer(
        "B", "OK", "only_option_named", "Brucella melitensis"
    )
    both = "Brucella melitensis is more common than Brucella suis."
    assert parse_answer(both, options).status == "PARSE_FAILED"
    nested = {"A": "Insulin", "B": "Insulin glargine"}
    assert parse_answer("Start insulin glargine at night.", nested).choice == "B"
    # word labels are not option texts: their own last-resort rule reads them
    assert parse_answer("yes, it is", ["yes", "no"]).pattern == "leading_label"


@pytest.mark.parametrize(
    ("text", "choice"),
    [
        ("Yes, metformin lowers the risk in this cohort.", "yes"),
        ("**No.** The trial found no difference.", "no"),
        ("maybe - the evidence is mixed", "maybe"),
    ],
)
def test_leading_word_label_is_the_last_resort(text: str, choice: str) -> None:
    result = parse_answer(text, YNM)
    assert (result.choice, result.status, result.pattern) == (choice, "OK", "leading_label")


def test_leading_label_yields_to_any_answer_line() -> None:
    result = parse_answer("No doubt about it.\nThe answer is yes.", YNM)
    assert (result.choice, result.pattern) == ("yes", "answer_is")


@pytest.mark.parametrize("text", ["Notably, the trial was small.", "Yesterday's data differ."])
def test_leading_label_needs_the_whole_word(text: str) -> None:
    assert parse_answer(text, YNM).status == "PARSE_FAILED"


def test_leading_label_is_only_for_word_labels() -> None:
    assert parse_answer("A patient with fever.", MC).status == "PARSE_FAILED"
