"""Private agent memory: diaries in the LangGraph store across cases, used for priors."""

from __future__ import annotations

from typing import Any

import pytest
from langgraph.store.memory import InMemoryStore

from disputatio.argumentation import DebateGraph
from disputatio.graphs.rdc import build_graph
from disputatio.nodes.rdc.memory import NAMESPACE, agent_priors
from disputatio.settings import Settings
from disputatio.testing import ScriptedChatModel

from .builders import ballot, case_data, claim, move, scripted_context

CLAIM = move("dairy", [claim("c", ["sec-brucella-1"], {"brucellosis": 0.7}, quality=0.8)])
EMPTY = move("nothing", [])


def _run(settings: Settings, store: InMemoryStore, votes: dict[str, str], **knobs: Any) -> Any:
    models = {
        "infectious": ScriptedChatModel(
            name="infectious", script=[CLAIM, EMPTY, ballot(votes["infectious"])]
        ),
        "autoimmune": ScriptedChatModel(
            name="autoimmune", script=[EMPTY, ballot(votes["autoimmune"])]
        ),
    }
    ctx = scripted_context(settings, models, max_rounds=1, turns_per_phase=1, tenant="t1", **knobs)
    out = build_graph().compile(store=store).invoke({"case": case_data()}, context=ctx)
    seed = ctx.ledger.entries(out["ledger_thread"])[0]
    out["seeded_priors"] = seed.payload["agent_priors"]  # what the run read from the diaries
    return out


def test_diaries_persist_across_cases_and_set_the_priors(unit_settings: Settings) -> None:
    store = InMemoryStore()
    # case 1 (gold: brucellosis): infectious right, autoimmune wrong
    first = _run(unit_settings, store, {"infectious": "brucellosis", "autoimmune": "q_fever"})
    diary = store.search((NAMESPACE, "t1", "autoimmune"))
    assert len(diary) == 1 and diary[0].key == first["verdict"]["run_id"]
    entry = diary[0].value
    assert entry["correct"] is False and entry["vote_top"] == "q_fever" and entry["turns"] == 1
    mine = store.search((NAMESPACE, "t1", "infectious"))[0].value
    assert mine["correct"] is True and mine["accepted"] == 1 and mine["gain"] > 0
    assert mine["turns"] == 2
    # priors: (correct + 1) / (graded + 1); the gain per turn of the agent's past turns
    priors = agent_priors(store, "t1", ["infectious", "autoimmune", "newcomer"])
    assert priors["autoimmune"]["reliability"] == 0.5
    assert priors["infectious"]["reliability"] == 1.0
    assert priors["infectious"]["gain"] == pytest.approx(mine["gain"] / 2)
    assert priors["newcomer"] == {"reliability": 1.0, "gain": 0.0, "cases": 0.0}
    assert agent_priors(store, "other-tenant", ["autoimmune"])["autoimmune"]["cases"] == 0.0
    # case 2: the second run reads the diaries (its state carries the priors)
    second = _run(unit_settings, store, {"infectious": "brucellosis", "autoimmune": "q_fever"})
    assert len(store.search((NAMESPACE, "t1", "autoimmune"))) == 2
    assert first["seeded_priors"]["autoimmune"]["cases"] == 0.0
    assert second["seeded_priors"]["autoimmune"] == {"reliability": 0.5, "gain": 0.0, "cases": 1.0}


def test_a_wrong_track_record_lowers_the_quality_of_an_agents_claims(
    unit_settings: Settings,
) -> None:
    store = InMemoryStore()
    # two graded cases in which infectious voted wrong: reliability (0 + 1) / (2 + 1) = 1/3
    for run in ("r1", "r2"):
        store.put((NAMESPACE, "t1", "infectious"), run, {"correct": False, "turns": 1, "gain": 0})
    out = _run(unit_settings, store, {"infectious": "brucellosis", "autoimmune": "brucellosis"})
    node = DebateGraph.from_dict(out["graph"]).node("t1.infectious.c")
    assert node.quality == pytest.approx(0.8 / 3)
    # memory off: the record is ignored
    off = _run(
        unit_settings,
        InMemoryStore(),
        {"infectious": "brucellosis", "autoimmune": "brucellosis"},
        memory=False,
    )
    assert DebateGraph.from_dict(off["graph"]).node("t1.infectious.c").quality == 0.8
