"""The quick path says which part of a multi-part question the documents do not answer.

Unit tests of :mod:`disputatio.validators.parts` (reading a question's parts, which part a
claim can be for, the ``not_found`` claim a part gets) and one run of the ``rag`` graph with a
scripted answerer whose second claim nothing supports: the part it was for is said to be
unanswered, and with ``grounding.answer_parts`` off it silently is not.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from rag_fakes import text_funnel

from disputatio.graphs.rag import graph
from disputatio.nodes.rag.context import RagContext
from disputatio.settings import load_settings
from disputatio.state.claims import Claim, ClaimReport, Evidence
from disputatio.testing import ScriptedChatModel
from disputatio.validators.parts import claim_parts, mark_unanswered_parts
from disputatio.validators.questions import question_parts

POOL = "What is the water temperature of the Therapy Pool, and how deep is it?"


@pytest.mark.parametrize(
    ("question", "parts"),
    [
        (POOL, ["What is the water temperature of the Therapy Pool?", "How deep is it?"]),
        ("What is X? And when is Y due?", ["What is X?", "When is Y due?"]),
        (
            "How often are the rules reviewed, and in which month is the policy reviewed?",
            ["How often are the rules reviewed?", "In which month is the policy reviewed?"],
        ),
        (
            "What are the daily allowances in Bergen and in Stavanger?",
            [
                "What are the daily allowances in Bergen?",
                "What are the daily allowances in Stavanger?",
            ],
        ),
        # a yes/no question after a comma and "and" (six two-part questions of the sets)
        (
            "When is Summer Music Week, and is lunch provided?",
            ["When is Summer Music Week?", "Is lunch provided?"],
        ),
        (
            "What's the fee per term, and can I spread the payment?",
            ["What's the fee per term?", "Can I spread the payment?"],
        ),
    ],
)
def test_a_question_asking_two_things_is_read_as_two_questions(
    question: str, parts: list[str]
) -> None:
    assert question_parts(question) == parts


@pytest.mark.parametrize(
    "question",
    [
        "How often are the green bin and the blue bin emptied in Åsen?",
        "Is smoking allowed in the cabins and on deck?",
        "How long does the battery last?",
    ],
)
def test_a_question_asking_one_thing_is_one_part(question: str) -> None:
    assert question_parts(question) == [" ".join(question.split())]


def test_a_claim_naming_one_parts_own_words_is_that_parts() -> None:
    parts = [
        "What does it cost to hire a squash racket?",
        "What does it cost to hire a tennis racket?",
    ]
    assert claim_parts("A squash racket costs 30 NOK per booking.", parts) == {0}
    assert claim_parts("A tennis racket costs 40 NOK per hour.", parts) == {1}


def test_an_amount_only_one_part_asks_for_answers_that_part() -> None:
    parts = question_parts(
        "How much is an adult Gold membership per month, and how long am I bound to it?"
    )
    # the claim names the first part's words but states a duration, which only the second asks
    assert claim_parts("The Gold membership has a binding period of 6 months.", parts) == {1}
    assert claim_parts("The adult Gold membership costs 649 NOK per month.", parts) == {0}


def test_a_claim_naming_no_part_may_answer_any_part_it_can() -> None:
    parts = question_parts(POOL)
    assert claim_parts("The figure given is 34.", parts) == {0, 1}
    # but not a part asking a kind of amount it does not state ("how deep": a length) ...
    assert claim_parts("It is kept at 34 degrees Celsius.", parts) == {0}
    # ... or an amount where it states none
    assert claim_parts("The pool is popular with older swimmers.", parts) == {0}


def test_how_many_of_them_counts_what_was_named_before() -> None:
    parts = question_parts("How many km of slopes are groomed? How many of them are black?")
    assert claim_parts("Of these, 7 km are black.", parts) == {1}  # km: no count of "of"


def test_a_when_part_is_not_answered_by_a_claim_stating_no_time() -> None:
    parts = question_parts(
        "When is reception open in the main house, and when is it open in the annex?"
    )
    assert claim_parts("Guests arriving late collect their keys at the key safe.", parts) == set()
    assert claim_parts("Reception in the main house is open from 7:00 to 22:00.", parts) == {0}
    assert 1 in claim_parts("Reception in the annex is open from 7:00 to 21:00.", parts)
    assert 1 in claim_parts("The annex closes on Sundays.", parts)


def test_a_day_part_is_not_answered_by_a_claim_naming_no_day() -> None:
    """Set 19's c029 (run 30): "The director of the Community Choir is Graham Osei" was put
    under "Which day does the Community Choir meet?" (the choir's name is that part's words),
    and "Who directs it?" was said not to be answered."""
    parts = question_parts("Which day does the Community Choir meet, and who directs it?")
    assert claim_parts("The director of the Community Choir is Graham Osei.", parts) == {1}
    assert 0 in claim_parts("The Community Choir meets on Thursdays.", parts)


def test_how_quickly_asks_a_time_as_how_long_does() -> None:
    """Set 19's c038 (run 30): with "how quickly" read as no time, the reply's 10 working days
    went to "how long do I have to write" (its unique time), and "How quickly will I get an
    answer?" was said not to be answered."""
    parts = question_parts(
        "If I want to complain to the Head of School, how long do I have to write, and how "
        "quickly will I get an answer?"
    )
    assert 1 in claim_parts("You will receive a written reply within 10 working days.", parts)


def test_the_pronoun_i_begins_no_name() -> None:
    """Set 19's c012 (run 30): "cancel" in "if I cancel a booking" was read as the end of a
    name ("I cancel"), so the claim about cancelling named no part of its own."""
    parts = question_parts(
        "How far ahead can I book a practice room? And what happens if I cancel a booking a "
        "few hours before it starts?"
    )
    claim = "If a booking is cancelled less than 24 hours ahead, it is charged in full."
    assert 1 in claim_parts(claim, parts)


def _supported(text: str) -> Claim:
    evidence = Evidence(section_id="s1", start=0, end=len(text), sentence=text, score=0.9)
    return Claim(text=text, citations=["s1"], verdict="supported", evidence=evidence)


def test_a_part_no_kept_claim_answers_gets_a_not_found_claim_and_a_line() -> None:
    kept = _supported("The water temperature of the Therapy Pool is kept at 34 degrees Celsius.")
    invented = Claim(text="The Therapy Pool is 1.4 metres deep.", citations=["s1"],
                     verdict="unsupported", dropped=True)  # fmt: skip
    report = ClaimReport(answer=kept.text + " [s1]", claims=[kept, invented])
    assert mark_unanswered_parts(POOL, report) == ["How deep is it?"]
    added = report.claims[-1]
    assert added.verdict == "not_found" and added.part == "part 2"
    assert report.answer.splitlines()[-1] == added.text and "How deep is it?" in added.text
    assert kept.part == "part 1"
    assert report.counts["not_found"] == 1


def test_a_dropped_claim_is_shown_under_the_part_it_tried_to_answer() -> None:
    question = "How much is a squash racket to hire, and how much is a tennis racket?"
    kept = _supported("A squash racket costs 30 NOK per booking.")
    invented = Claim(text="A tennis racket costs 40 NOK.", verdict="unsupported", dropped=True)
    report = ClaimReport(answer=kept.text, claims=[kept, invented])
    assert mark_unanswered_parts(question, report) == ["How much is a tennis racket?"]
    assert (kept.part, invented.part) == ("part 1", "part 2")


def test_an_answered_or_already_refused_part_gets_nothing() -> None:
    temperature = _supported("The Therapy Pool is kept at 34 degrees Celsius.")
    depth = _supported("The Therapy Pool is 1.4 metres deep.")
    both = ClaimReport(answer="…", claims=[temperature, depth])
    assert mark_unanswered_parts(POOL, both) == [] and len(both.claims) == 2
    refusal = Claim(text="The documents do not say how deep the pool is.", verdict="not_found")
    said = ClaimReport(answer="…", claims=[temperature.model_copy(), refusal])
    assert mark_unanswered_parts(POOL, said) == [] and len(said.claims) == 2


def test_an_answer_that_answers_nothing_or_a_one_part_question_is_left_alone() -> None:
    nothing = ClaimReport(answer="The documents do not answer this question.", not_found=True)
    assert mark_unanswered_parts(POOL, nothing) == [] and nothing.claims == []
    one = ClaimReport(answer="…", claims=[_supported("The pool is kept at 34 degrees Celsius.")])
    assert mark_unanswered_parts("How warm is the pool?", one) == []


TEXT = (
    "The water temperature of the Therapy Pool is kept at 34 degrees Celsius. "
    "The Therapy Pool is open to members over 60 on weekday mornings."
)
DRAFT = (
    "The water temperature of the Therapy Pool is kept at 34 degrees Celsius [S1]. "
    "The Therapy Pool is 1.4 metres deep [S1]."
)


def _run(tmp_path: Path, answer_parts: bool) -> dict:
    settings = load_settings(
        home=tmp_path, grounding={"checker": "lexical", "answer_parts": answer_parts}
    )
    corpus = text_funnel(TEXT, "pools.md", settings)
    answerer = ScriptedChatModel(script=[DRAFT])
    ctx = RagContext(settings=settings, retriever=corpus, models={"answerer": answerer})
    out = graph.invoke({"question": POOL, "threshold": 0.0}, context=ctx)
    assert answerer.calls == 1 and POOL in str(answerer.prompts[0][-1].content)
    return out


def test_the_quick_path_says_which_part_the_documents_do_not_answer(tmp_path: Path) -> None:
    out = _run(tmp_path, answer_parts=True)
    assert "34 degrees" in out["answer"] and "1.4" not in out["answer"]
    assert out["answer"].splitlines()[-1].endswith("How deep is it?")
    not_found = [c for c in out["claims"] if c["verdict"] == "not_found"]
    assert [c["part"] for c in not_found] == ["part 2"]
    assert out["not_found"] is False  # the first part is answered


def test_without_answer_parts_the_unanswered_part_goes_unsaid(tmp_path: Path) -> None:
    out = _run(tmp_path, answer_parts=False)
    assert "How deep" not in out["answer"]
    assert not [c for c in out["claims"] if c["verdict"] == "not_found"]


def test_a_word_of_a_name_is_no_name_without_the_rest_of_it() -> None:
    """Malta fever is not Q fever (``make demo``): "fever" alone named the second part."""
    parts = question_parts("How is brucellosis diagnosed, and how does it differ from Q fever?")
    assert len(parts) == 2
    assert claim_parts("Brucellosis is also known as Malta fever.", parts) == {0}
    assert claim_parts("Q fever is caused by Coxiella burnetii.", parts) == {1}
    assert claim_parts("It is also known as Malta fever.", parts) == {0, 1}  # names no part
