"""A piece leaning on the one before ("It …", "…, and members pay …") takes its name."""

from __future__ import annotations

from disputatio.state.claims import Claim, Evidence
from disputatio.validators.claims import check_answer
from disputatio.validators.leaning import read_about
from disputatio.validators.subjects import bridged_subjects, leans_on, named_subjects
from disputatio.validators.support import LexicalSupport
from disputatio.validators.windows import Windows

_ROOMS = (
    "Meeting rooms\n\n| Room | Site | Seats | Members pay per hour |\n|---|---|---|---|\n"
    "| Heron Room | Ropewalk | 4 | 15 GBP |\n| Kestrel Room | Tannery | 8 | 20 GBP |\n"
)
_SECTIONS = {"s1": {"text": _ROOMS, "title": "Meeting rooms"}}


def _verdicts(answer: str) -> dict[str, tuple[str | None, str]]:
    report = check_answer(answer, _SECTIONS, checker=LexicalSupport())
    return {c.text: (c.verdict, c.reason) for c in report.claims}


def test_the_second_half_of_a_split_sentence_is_read_with_the_first_halfs_name() -> None:
    got = _verdicts("The Heron Room seats 4 people, and members pay 15 GBP per hour [s1].")
    verdict, reason = got["Members pay 15 GBP per hour."]  # shown as written
    assert verdict == "supported"
    assert "Heron Room" in reason


def test_a_pronoun_is_read_with_the_name_of_the_sentence_before() -> None:
    got = _verdicts("The Heron Room is at Ropewalk [s1]. Members pay 15 GBP per hour there [s1].")
    assert got["Members pay 15 GBP per hour there."][0] == "supported"


def test_the_name_before_does_not_lend_a_figure_of_another_row() -> None:
    got = _verdicts("The Heron Room seats 4 people, and members pay 20 GBP per hour [s1].")
    assert got["Members pay 20 GBP per hour."][0] != "supported"  # 20 GBP is the Kestrel Room's


def test_a_sentence_that_neither_points_back_nor_continues_is_read_as_written() -> None:
    got = _verdicts("The Heron Room seats 4 people [s1]. Members pay 15 GBP per hour [s1].")
    assert got["Members pay 15 GBP per hour."][0] != "supported"


def test_a_piece_naming_what_came_before_has_its_own_subject() -> None:
    before = "The community manager at Tannery is Dev Lindqvist."
    assert not leans_on("Tannery's reception closes at 17:30.", before, continues=True)
    assert leans_on("The reception there closes at 17:30.", before, continues=False)
    assert leans_on("members pay 15 GBP per hour.", before, continues=True)
    assert not leans_on("Members pay 15 GBP per hour.", before, continues=False)


def test_a_piece_whose_subject_is_a_pronoun_leans_though_it_names_something() -> None:
    """ "It includes … A4 …" is about the Hot Desk before it, not about A4 (i016, set 24)."""
    before = "At Ropewalk, a Hot Desk costs 215 GBP per month."
    assert leans_on("It includes 100 pages of A4 per month.", before, continues=False)
    assert not leans_on("The Kestrel Room includes a screen there.", before, continues=False)
    assert not leans_on("It is cheaper than the Hot Desk at Tannery.", before, continues=False)


def test_he_and_she_point_back_at_the_person_named_before() -> None:
    """ "He should get back to you …" is the depot manager named before it (j006, set 25)."""
    before = "The depot manager at Kiln Road is Owen Hartigan."
    assert leans_on("He should get back to you within 5 working days.", before, continues=False)
    assert leans_on("She answers within 5 working days.", before, continues=False)


def test_the_subjects_of_a_sentence_are_its_runs_of_name_words() -> None:
    assert named_subjects("The community manager at Tannery is Dev Lindqvist.") == [
        "Tannery",
        "Dev Lindqvist",
    ]
    assert named_subjects("At Ropewalk, a Hot Desk costs 215 GBP per month.") == [
        "Ropewalk",
        "Hot Desk",
    ]


_HOURS = {
    "s2": {
        "text": "Reception at Tannery is staffed from 09:00 to 17:30. "
        "Reception at Ropewalk is staffed from 08:30 to 18:00.",
        "title": "Access hours",
    }
}


def test_a_piece_pointing_back_rests_on_a_sentence_about_what_it_points_at() -> None:
    answer = "The manager is at Tannery [s2]. The reception there is staffed until {} [s2]."
    right = check_answer(answer.format("17:30"), _HOURS, checker=LexicalSupport())
    borrowed = check_answer(answer.format("18:00"), _HOURS, checker=LexicalSupport())
    assert right.claims[1].verdict == "supported"
    assert borrowed.claims[1].verdict == "unsupported"  # 18:00 is Ropewalk's
    assert "Tannery" in borrowed.claims[1].reason


def test_it_is_not_supported_by_a_sentence_about_another_event() -> None:
    text = (
        "The Storvik Lake Regatta is held on the first Saturday of July. The fishing competition "
        "is held on the second Sunday of August and starts at 07:00 from pontoon A."
    )
    sections = {"e1": {"text": text, "title": "Events"}}
    answer = (
        "The Storvik Lake Regatta is held on the first Saturday of July [e1]. "
        "It starts at 07:00 from pontoon A [e1]."
    )
    report = check_answer(answer, sections, checker=LexicalSupport())
    assert [c.verdict for c in report.claims[:2]] == ["supported", "unsupported"]


def test_it_rests_on_a_sentence_naming_its_subject_by_a_common_noun() -> None:
    lead = "The Puppy Foundation course is for puppies aged 10 to 18 weeks"
    text = f"{lead}. The course costs 95 GBP."
    answer = f"{lead} [s1]. It costs 95 GBP [s1]."
    report = check_answer(answer, {"s1": {"text": text}}, checker=LexicalSupport())
    assert [c.verdict for c in report.claims] == ["supported", "supported"]


def test_a_name_lent_does_not_lift_what_its_sentence_does_not_state() -> None:
    """i030 (held-out set 24): "The soup is vegetarian." read as about the Lunch and Learn."""
    text = "At a Lunch and Learn, a member gives a talk and the price includes soup and bread."
    windows = Windows({"s1": {"text": text, "title": "Events"}})
    evidence = Evidence(section_id="s1", start=0, end=len(text), sentence=text, score=0.9)

    def lifted(claim: str) -> Claim:  # a judge lifting every reading onto the sentence
        return Claim(text=claim, citations=["s1"], verdict="supported", evidence=evidence)

    before = "The Lunch and Learn at Tannery costs 5 GBP."
    for piece, stated in [
        ("The soup is vegetarian.", False),
        ("Its price includes soup and bread.", True),
    ]:
        whole = Claim(text=piece, citations=["s1"], verdict="unsupported")
        read = read_about(whole, ["Learn"], before, lifted, windows, keep_unsupported=False)
        assert (read is not None and read.verdict == "supported") is stated, piece


def test_it_rests_on_a_sentence_whose_subject_noun_follows_a_modifier() -> None:
    """at007 (held-out set 45): "All extra practice, including silent practice …" is about
    the practice the piece before named; "The fishing competition …" is still about something
    else after "The … Regatta …" (the test above)."""
    text = (
        "Silent practice on the Ketterby simulator may be booked for up to 2 hours at a time. "
        "All extra practice, including silent practice on the simulator, must be booked in the "
        "tower diary at least 48 hours ahead."
    )
    answer = (
        "You can book silent practice on the Ketterby simulator for up to 2 hours at a time [t1]. "
        "You must put it in the tower diary at least 48 hours ahead [t1]."
    )
    report = check_answer(
        answer, {"t1": {"text": text, "title": "Practice"}}, checker=LexicalSupport()
    )
    assert [c.verdict for c in report.claims] == ["supported", "supported"]


def test_a_definite_description_naming_nothing_is_read_with_the_piece_before() -> None:
    """at025 (held-out set 45): "The entry fee …" is the fee of the competition named before."""
    before = "The entry for the Guild Striking Competition is by 19 September."
    assert "Guild Striking Competition" in bridged_subjects(
        "The entry fee is 30.00 GBP a team.", before
    )
    assert not bridged_subjects("The Novice Competition is free.", before)
    assert not bridged_subjects("A team has eight ringers.", before)
    assert not leans_on("The entry fee is 30.00 GBP a team.", before, continues=False)
