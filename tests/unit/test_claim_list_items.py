"""A list's last item is not split off its sentence as a claim of its own."""

from __future__ import annotations

import pytest

from disputatio.validators.claim_kinds import is_factual, split_compound
from disputatio.validators.claims import check_answer
from disputatio.validators.clauses import has_verb

pytest.importorskip("spacy")

STILL = (
    "Q fever belongs in the differential diagnosis of fever of unknown origin, together with "
    "brucellosis, another livestock-associated infection, and non-infectious conditions such "
    "as adult-onset Still's disease."
)


def test_the_last_item_of_a_list_stays_in_its_sentence() -> None:
    """``make demo`` (2026-12-04) showed "Non-infectious conditions such as adult-onset
    Still's disease." as a supported claim: the list's ", and" was read as a join of two
    facts."""
    assert split_compound(STILL) == [STILL]
    gapped = "The weekly pass costs €58 for one zone, €72 for two zones, and €89 for all zones."
    assert split_compound(gapped) == [gapped]
    report = check_answer(STILL, {"qf": {"text": STILL, "title": "Q fever"}})
    assert [c.text for c in report.claims] == [STILL]
    assert report.claims[0].verdict == "supported"


def test_a_clause_after_a_list_still_splits() -> None:
    """The rule keeps a verbless last item only: a clause of its own is a claim of its own."""
    two = "Q fever is caused by C. burnetii, a small bacterium, and it spreads through dust."
    assert split_compound(two) == [
        "Q fever is caused by C. burnetii, a small bacterium.",
        ("It spreads through dust."),
    ]
    fares = (
        "A 2-hour lesson in a car costs 74 GBP, and a 2-hour lesson on a motorcycle costs 82 GBP."
    )
    assert len(split_compound(fares)) == 2


def test_the_tagger_tells_a_verb_from_a_plural() -> None:
    assert not has_verb("every 6 weeks in Åsen")
    assert has_verb("it stays open until 18:00")


def test_a_list_heading_is_no_claim() -> None:
    """``make demo`` (2026-12-04, session 49) showed "Focal complications [id]:" as a claim."""
    assert not is_factual("Focal complications:") and not is_factual("Treatment [s1]:")
    assert is_factual("Brucellosis is diagnosed by culture:")  # a statement before its list
    assert is_factual("The dose is 100 mg:")
