"""Builders of the RDC tests: the bundled case, a fixed retriever, scripted moves and votes,
and a context over scripted specialists."""

from __future__ import annotations

import json
from collections.abc import Sequence
from importlib import resources
from typing import Any

from disputatio.graphs.rdc import RdcContext
from disputatio.settings import Settings
from disputatio.state.retrieval import Section
from disputatio.storage.ledger import InMemoryLedger
from disputatio.testing import FakeRetriever, ScriptedChatModel

SECTIONS = [
    Section(
        id="sec-brucella-1",
        source="notes/brucellosis.md",
        text="Brucellosis follows raw dairy.",
        score=0.9,
    ),
    Section(
        id="sec-still-1",
        source="notes/still.md",
        text="AOSD: ferritin often above 3000.",
        score=0.9,
    ),
    Section(
        id="sec-qfever-1", source="notes/qfever.md", text="Q fever: Coxiella, livestock.", score=0.9
    ),
]


class FixedRetriever(FakeRetriever):
    """Returns the same sections for every query (all unless ``k`` is asked); records queries."""

    def __init__(self, sections: list[Section] | None = None) -> None:
        chosen = SECTIONS if sections is None else sections
        super().__init__(chosen, k=len(chosen), threshold=0.25, match_all=True)


def scripted_context(
    settings: Settings, models: dict[str, ScriptedChatModel], **knobs: Any
) -> RdcContext:
    """A context whose specialists are ``models`` (in order), searching a :class:`FixedRetriever`.

    The entropy and value-of-information stops and the appeal are off and the ledger is in
    memory, unless ``knobs`` (other :class:`RdcContext` fields) say otherwise.
    """
    return RdcContext(
        models=models,
        retriever=FixedRetriever(),
        settings=settings,
        specialists=list(models),
        **{
            "entropy_stop": 0.0,
            "voi_stop": 0.0,
            "appeal": False,
            "ledger": InMemoryLedger(),
            **knobs,
        },
    )


def case_data() -> dict[str, Any]:
    text = (resources.files("disputatio") / "data" / "cases" / "rare_disease.json").read_text()
    return json.loads(text)


def claim(
    cid: str, provenance: list[str], bearings: dict[str, float] | None = None, quality: float = 0.8
) -> dict[str, Any]:
    return {
        "id": cid,
        "text": f"claim {cid}",
        "provenance": provenance,
        "quality": quality,
        "bearings": [{"hypothesis": h, "llr": v} for h, v in (bearings or {}).items()],
    }


def move(
    summary: str,
    claims: list[dict[str, Any]],
    relations: Sequence[tuple[str, str, str]] = (),
) -> dict[str, Any]:
    return {
        "summary": summary,
        "claims": claims,
        "relations": [{"source": s, "target": t, "kind": k} for s, t, k in relations],
    }


def ballot(*ranking: str) -> dict[str, Any]:
    return {"ranking": list(ranking), "rationale": "because"}
