"""Halting criteria (rounds, tokens, entropy, VoI), the appeal, and forfeited turns."""

from __future__ import annotations

from typing import Any

import pytest

from disputatio.argumentation import entropy_nats, rank_tests, rare_disease_case
from disputatio.graphs.rdc import RdcContext, graph
from disputatio.settings import Settings
from disputatio.storage.ledger import InMemoryLedger
from disputatio.testing import FakeRetriever, ScriptedChatModel

from .builders import ballot, case_data, claim, move, scripted_context

SPEAKERS = ["infectious", "autoimmune"]
EMPTY = move("nothing new", [])


def run(settings: Settings, scripts: dict[str, list[Any]], **knobs: Any) -> dict[str, Any]:
    models = {name: ScriptedChatModel(name=name, script=s) for name, s in scripts.items()}
    ctx = scripted_context(settings, models, **knobs)
    out = graph.invoke({"case": case_data()}, context=ctx)
    assert ctx.ledger.verify(out["ledger_thread"]).ok
    RECEIVED[out["ledger_thread"]] = models
    return out


RECEIVED: dict[str, dict[str, ScriptedChatModel]] = {}


def scripts_received(out: dict[str, Any], name: str) -> list[Any]:
    """Every prompt the model of ``name`` received in the run that produced ``out``."""
    return RECEIVED[out["ledger_thread"]][name].prompts


def votes_only() -> dict[str, list[Any]]:
    return {
        "infectious": [ballot("brucellosis", "q_fever", "adult_onset_still")],
        "autoimmune": [ballot("brucellosis", "adult_onset_still", "q_fever")],
    }


def test_seeded_entropy_and_best_eig_are_the_engines() -> None:
    example = rare_disease_case()
    post = example.posteriors()
    # the seeded case reproduces the engine's worked example (shared findings cancel)
    assert entropy_nats(post) == pytest.approx(0.97244, abs=1e-5)
    best = max(r.eig for r in rank_tests(post, example.tests, max_risk=0.5))
    assert 0.0 < best < 1.0


def test_entropy_threshold_stops_before_any_turn(unit_settings: Settings) -> None:
    # seeded entropy is 0.972 nats (see above): a threshold of 1.0 stops at round 1
    out = run(unit_settings, votes_only(), entropy_stop=1.0, max_rounds=3)
    assert out["halt_reason"] == "entropy"
    assert out["phase_log"] == ["seeding", "vote", "jury"]
    assert out["moves"] == []


def test_voi_threshold_stops_before_any_turn(unit_settings: Settings) -> None:
    # the best admissible test's EIG is below 1 nat (see above)
    out = run(unit_settings, votes_only(), voi_stop=1.0, max_rounds=3)
    assert out["halt_reason"] == "voi"
    assert out["phase_log"] == ["seeding", "vote", "jury"]


def test_entropy_drop_during_the_debate_stops_at_the_next_round(unit_settings: Settings) -> None:
    strong = move("culture grew Brucella", [claim("c", ["sec-brucella-1"], {"brucellosis": 5.0})])
    scripts = {
        "infectious": [strong, EMPTY, EMPTY, ballot("brucellosis")],
        "autoimmune": [EMPTY, EMPTY, EMPTY, ballot("brucellosis")],
    }
    out = run(unit_settings, scripts, entropy_stop=0.2, max_rounds=3)
    # one full round ran; its entropy is below 0.2, so round 2 never starts
    assert out["halt_reason"] == "entropy" and len(out["moves"]) == 6
    assert out["moves"][0]["entropy_after"] < 0.2 < out["moves"][0]["entropy_before"]


def test_round_budget(unit_settings: Settings) -> None:
    scripts = {name: [EMPTY] * 6 + [ballot("brucellosis")] for name in SPEAKERS}
    out = run(unit_settings, scripts, max_rounds=2)
    assert out["halt_reason"] == "budget_rounds"
    assert len(out["moves"]) == 2 * 3 * 2  # rounds × phases × speakers
    assert out["phase_log"].count("challenges") == 2


def test_token_budget_stops_before_the_next_turn(unit_settings: Settings) -> None:
    scripts = {name: [EMPTY, ballot("brucellosis")] for name in SPEAKERS}
    out = run(unit_settings, scripts, max_rounds=3, token_budget=1)
    assert out["halt_reason"] == "budget_tokens"
    assert len(out["moves"]) == 1


def test_split_vote_opens_an_appeal_on_the_top_conflict_pair(unit_settings: Settings) -> None:
    appeal_move = move("appeal", [claim("p", ["sec-still-1"], {"adult_onset_still": 0.5})])
    scripts = {
        "infectious": [EMPTY, EMPTY, EMPTY, ballot("brucellosis"), EMPTY, ballot("brucellosis")],
        "autoimmune": [
            EMPTY,
            EMPTY,
            EMPTY,
            ballot("adult_onset_still", "brucellosis", "q_fever"),
            appeal_move,
            ballot("brucellosis", "adult_onset_still", "q_fever"),
        ],
    }
    out = run(unit_settings, scripts, max_rounds=1, appeal=True, appeal_threshold=0.0)
    assert out["phase_log"][-4:] == ["vote", "appeal", "vote", "jury"]
    # the pair is (differential top, the hypothesis the votes favour among the others): its
    # challenger's advocate speaks first, then the leader's
    appeal = [(m["phase"], m["speaker"]) for m in out["moves"] if m["phase"] == "appeal"]
    assert appeal == [("appeal", "autoimmune"), ("appeal", "infectious")]
    prompt = str(scripts_received(out, "autoimmune"))
    assert "brucellosis (leading) against adult_onset_still" in prompt
    # the jury reads the second vote only: unanimous tops
    assert out["verdict"]["disagreement"]["votes"] == {
        "infectious": "brucellosis",
        "autoimmune": "brucellosis",
    }


def test_votes_are_normalised_probability_vectors(unit_settings: Settings) -> None:
    vector = {
        "probabilities": [
            {"hypothesis": "Brucellosis", "probability": 0.6},
            {"hypothesis": "q_fever", "probability": 0.2},
            {"hypothesis": "nonsense", "probability": 0.5},
        ],
        "rationale": "r",
    }
    scripts = {"infectious": [EMPTY] * 3 + [vector], "autoimmune": [EMPTY] * 3 + [vector]}
    out = run(unit_settings, scripts, max_rounds=1)
    votes = [v for v in out["votes"] if v["speaker"] == "infectious"]
    dist = votes[-1]["distribution"]
    # unknown names dropped, the rest renormalised, unnamed hypotheses at 0
    assert dist == pytest.approx({"brucellosis": 0.75, "q_fever": 0.25, "adult_onset_still": 0.0})
    assert votes[-1]["ranking"] == ["brucellosis", "q_fever"]
    assert out["verdict"]["pooled_vote"] == pytest.approx(dist)


def test_a_model_without_a_valid_move_forfeits_its_turn(unit_settings: Settings) -> None:
    scripts = {
        "infectious": ["not json", "still not json", "nope", EMPTY, EMPTY, ballot("brucellosis")],
        "autoimmune": [EMPTY, EMPTY, EMPTY, "garbage", "garbage", "garbage"],
    }
    out = run(unit_settings, scripts, max_rounds=1)
    forfeits = [r for r in out["rejected"] if r["what"] == "move"]
    assert [f["speaker"] for f in forfeits] == ["infectious"]
    assert out["verdict"]["disagreement"]["abstained"] == ["autoimmune"]
    assert out["phase_log"][-1] == "jury"


def test_voi_is_not_a_criterion_without_admissible_tests(unit_settings: Settings) -> None:
    models = {
        name: ScriptedChatModel(name=name, script=[EMPTY] * 3 + [ballot("brucellosis")])
        for name in SPEAKERS
    }
    ctx = scripted_context(
        unit_settings,
        models,
        voi_stop=10.0,
        max_risk=0.01,  # every test of the case is riskier than this
        max_rounds=1,
    )
    out = graph.invoke({"case": case_data()}, context=ctx)
    assert out["halt_reason"] == "budget_rounds"
    assert out["verdict"]["test_plan"] == [] and len(out["verdict"]["excluded_tests"]) == 3


def test_the_debate_halts_when_the_entropy_stops_dropping(unit_settings: Settings) -> None:
    scripts = {name: [EMPTY] * 6 + [ballot("brucellosis")] for name in SPEAKERS}
    settings = unit_settings.model_copy(
        update={"rdc": unit_settings.rdc.model_copy(update={"stall_turns": 2})}
    )
    out = run(settings, scripts, max_rounds=3, min_entropy_drop=0.01)
    assert out["halt_reason"] == "entropy_drop"
    assert len(out["moves"]) == 2  # two turns without a drop, then the halt
    assert out["verdict"]["turns"] == 2


def test_cross_examination_is_pointed_at_the_graphs_hotspots(unit_settings: Settings) -> None:
    """The moderator names the hotspots (here an attack cycle) in cross-examination only."""
    cycle = move(
        "two readings of the serology",
        [claim("x", ["sec-brucella-1"], {"brucellosis": 0.4}), claim("y", ["sec-still-1"])],
        [("x", "y", "attacks"), ("y", "x", "attacks")],
    )
    scripts = {
        "infectious": [cycle, EMPTY, EMPTY, ballot("brucellosis")],
        "autoimmune": [EMPTY, EMPTY, EMPTY, ballot("brucellosis")],
    }
    out = run(unit_settings, scripts, max_rounds=1, turns_per_phase=1)
    assert [m["phase"] for m in out["moves"]][:3] == ["challenges", "rebuttal", "cross_examination"]
    prompts = [str(p[-1].content) for p in scripts_received(out, "infectious")]
    prompts += [str(p[-1].content) for p in scripts_received(out, "autoimmune")]
    cross = [p for p in prompts if "Examine these hotspots first" in p]
    assert len(cross) == 1, "only the cross-examination turn is pointed at hotspots"
    assert "t1.infectious.x (cycle)" in cross[0] and "t1.infectious.y (cycle)" in cross[0]


def test_a_failing_corpus_search_costs_the_turn_its_sections_not_the_debate(
    unit_settings: Settings,
) -> None:
    """Every turn's search fails: the debate still runs to its verdict, each turn's ledger
    tool-call entry records the failure, and case evidence stays citable."""
    case_claim = move("dairy", [claim("c", ["goat_cheese"], {"brucellosis": 0.5})])
    scripts = {
        "infectious": [case_claim, EMPTY, EMPTY, ballot("brucellosis")],
        "autoimmune": [EMPTY, EMPTY, EMPTY, ballot("brucellosis")],
    }
    models = {name: ScriptedChatModel(name=name, script=s) for name, s in scripts.items()}
    ledger = InMemoryLedger()
    ctx = RdcContext(
        models=models,
        retriever=FakeRetriever(fails_with=ConnectionError("corpus database is down")),
        settings=unit_settings,
        specialists=list(scripts),
        ledger=ledger,
        entropy_stop=0.0,
        voi_stop=0.0,
        appeal=False,
        max_rounds=1,
        turns_per_phase=1,
    )
    out = graph.invoke({"case": case_data()}, context=ctx)
    assert out["verdict"]["turns"] == len(out["moves"]) == 3
    assert out["moves"][0]["nodes"] == ["t1.infectious.c"]  # case evidence still citable
    calls = [e.payload for e in ledger.entries(out["ledger_thread"]) if e.kind == "tool_call"]
    assert len(calls) == 3
    assert all("ConnectionError: corpus database is down" in c["error"] for c in calls)
