"""After-the-fact citation: an answer that copied a shown section, uncited, gets that section."""

from __future__ import annotations

from typing import Any

from debate_fakes import scripted
from langchain_core.messages import HumanMessage

from disputatio.nodes.citations import attribute_sentences, named_labels, place_citations
from disputatio.nodes.debate.workers import repair_citations
from disputatio.validators.citations import CitationCheck

Q_FEVER = (
    "Coxiella burnetii is a small obligate intracellular bacterium that multiplies inside "
    "host cells, in an acidic vacuole derived from the lysosome."
)
BRUCELLA = (
    "Brucellosis is acquired from unpasteurised dairy products and presents with undulant "
    "fever, sweats and joint pain."
)
SHOWN = [("s-q", Q_FEVER), ("s-b", BRUCELLA)]


def test_a_copied_sentence_cites_the_section_it_came_from() -> None:
    text, ids = attribute_sentences(
        "Verdict: Q fever.\nThe organism multiplies inside host cells in an acidic vacuole "
        "derived from the lysosome. Brucellosis comes from unpasteurised dairy products with "
        "undulant fever!",
        SHOWN,
    )
    assert ids == ["s-q", "s-b"]
    assert "from the lysosome [s-q]." in text and "undulant fever [s-b]!" in text
    assert text.startswith("Verdict: Q fever.\n")  # too short to attribute, left as written


def test_sentences_the_sections_do_not_support_stay_uncited() -> None:
    answer = "Treatment is doxycycline for two weeks in adults without contraindications."
    assert attribute_sentences(answer, SHOWN) == (answer, [])


def test_a_sentence_that_cites_already_is_left_alone() -> None:
    answer = "It multiplies inside host cells in an acidic vacuole from the lysosome [s-b]."
    assert attribute_sentences(answer, SHOWN) == (answer, [])


def test_only_the_sections_shown_can_be_attributed() -> None:
    copied = "It multiplies inside host cells in an acidic vacuole derived from the lysosome."
    assert attribute_sentences(copied, [("s-b", BRUCELLA)]) == (copied, [])


def _repair(reply: str, answer: str) -> tuple[CitationCheck, dict[str, Any]]:
    """Repair ``answer`` (shown both sections) with a writer whose repair reply is ``reply``."""
    llm = scripted("w", reply)
    shown = [{"id": sid, "text": body} for sid, body in SHOWN]
    check, usage, _ = repair_citations(
        llm, [HumanMessage("question")], answer, shown, agent="w", role="worker"
    )
    assert llm.calls == 1 and usage["w"]["calls"] == 1  # one call, never more
    return check, usage


def test_a_failed_repair_falls_back_to_attribution() -> None:
    copied = "Verdict: Q fever.\nIt multiplies inside host cells, in an acidic vacuole."
    check, _ = _repair("I cannot name the labels.", copied)
    assert check.verified == ["s-q"]
    assert check.text.endswith("in an acidic vacuole [s-q].")


def test_labels_are_read_bracketed_or_not_in_the_order_named() -> None:
    labels = ["S1", "S2", "S3", "S12"]
    assert named_labels("[S3] and S1, also [S12]", labels) == ["S3", "S1", "S12"]
    assert named_labels("S2-like S21 NONE", labels) == []  # no label is a part of a word


def test_a_named_section_is_cited_at_the_sentence_it_supports_most() -> None:
    answer = "Verdict: Q fever.\nIt grows in host cells. The vacuole is acidic, from the lysosome."
    text, ids = place_citations(answer, [("S1", Q_FEVER), ("S2", BRUCELLA)])
    assert ids == ["S1"]  # it shares one word ('fever') with the brucellosis section: too few
    assert text == (
        "Verdict: Q fever.\nIt grows in host cells. The vacuole is acidic, from the lysosome [S1]."
    )


def test_two_sections_on_one_sentence_are_both_cited() -> None:
    answer = "Q fever multiplies in host cells; brucellosis comes from dairy."
    text, ids = place_citations(answer, [("S1", Q_FEVER), ("S2", BRUCELLA)])
    assert ids == ["S1", "S2"]
    assert text.endswith("from dairy [S1] [S2].")


def test_a_repair_names_labels_and_keeps_the_answer() -> None:
    check, _ = _repair("[S2] [S1]", "Verdict: brucellosis.\nIt comes from unpasteurised dairy.")
    assert check.verified == ["s-b"]  # S1 (Q fever) shares nothing with the answer
    assert check.text == "Verdict: brucellosis.\nIt comes from unpasteurised dairy [s-b]."
