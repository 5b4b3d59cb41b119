"""Each accepted RDC claim is judged against the sentences of what it cites."""

from __future__ import annotations

from typing import Any

from disputatio.graphs.rdc import RdcContext, graph
from disputatio.settings import Settings
from disputatio.storage.ledger import InMemoryLedger
from disputatio.testing import ScriptedChatModel

from .builders import FixedRetriever, ballot, case_data, move


def said(cid: str, text: str, provenance: list[str], llr: float = 1.0) -> dict[str, Any]:
    """A claim with its own text, bearing on brucellosis."""
    return {
        "id": cid,
        "text": text,
        "provenance": provenance,
        "quality": 0.8,
        "bearings": [{"hypothesis": "brucellosis", "llr": llr}],
    }


def run(settings: Settings, first_move: dict[str, Any]) -> dict[str, Any]:
    speaker = ScriptedChatModel(
        name="infectious",
        script=[first_move, move("nothing", []), move("nothing", []), ballot("brucellosis")],
    )
    other = ScriptedChatModel(
        name="autoimmune",
        script=[move("nothing", []), move("nothing", []), move("nothing", []), ballot("q_fever")],
    )
    ctx = RdcContext(
        models={"infectious": speaker, "autoimmune": other},
        retriever=FixedRetriever(),
        settings=settings,
        specialists=["infectious", "autoimmune"],
        max_rounds=1,
        entropy_stop=0.0,
        voi_stop=0.0,
        appeal=False,
        ledger=InMemoryLedger(),
    )
    return graph.invoke({"case": case_data()}, context=ctx)


def test_claims_carry_verdicts_against_what_they_cite(unit_settings: Settings) -> None:
    out = run(
        unit_settings,
        move(
            "dairy and cheese",
            [
                said("c1", "Brucellosis follows raw dairy.", ["sec-brucella-1"]),
                said("c2", "Brucellosis follows raw dairy within 3 days.", ["sec-brucella-1"]),
                said(
                    "c3", "The patient regularly eats unpasteurised goat cheese.", ["goat_cheese"]
                ),
            ],
        ),
    )
    by_node = {c["node"]: c for c in out["claims"]}
    assert set(by_node) == {"t1.infectious.c1", "t1.infectious.c2", "t1.infectious.c3"}
    supported = by_node["t1.infectious.c1"]
    assert supported["verdict"] == "supported"
    assert supported["evidence"]["section_id"] == "sec-brucella-1"
    assert supported["evidence"]["sentence"] == "Brucellosis follows raw dairy."
    assert by_node["t1.infectious.c2"]["verdict"] == "unsupported"  # "3 days" is in no sentence
    assert by_node["t1.infectious.c3"]["verdict"] == "supported"  # the case evidence's text
    assert by_node["t1.infectious.c3"]["evidence"]["section_id"] == "goat_cheese"
    assert all(c["speaker"] == "infectious" and c["turn"] == 1 for c in out["claims"])
    # the verdict names the admitted evidence that rests on no sentence
    v = out["verdict"]
    assert "t1.infectious.c2" in v["unsupported_evidence"]
    assert "t1.infectious.c1" not in v["unsupported_evidence"]


def test_a_claim_its_section_does_not_state_is_unsupported(unit_settings: Settings) -> None:
    # sec-qfever-1 is shown in this turn, but says nothing of ticks or spring
    out = run(
        unit_settings,
        move("fever", [said("c1", "Q fever is caught from ticks in spring.", ["sec-qfever-1"])]),
    )
    (claim,) = out["claims"]
    assert claim["verdict"] == "unsupported"
    assert out["verdict"]["unsupported_evidence"] == ["t1.infectious.c1"]
