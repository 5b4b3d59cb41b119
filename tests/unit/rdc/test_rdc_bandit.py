"""LinUCB speaker selection: serialisable state, exact replay, checkpointer compatibility."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest
from langgraph.checkpoint.memory import InMemorySaver

from disputatio.argumentation import LinUCB
from disputatio.graphs.rdc import build_graph
from disputatio.nodes.rdc import speakers
from disputatio.settings import Settings
from disputatio.testing import ScriptedChatModel

from .builders import ballot, case_data, claim, move, scripted_context

ARMS = ["infectious", "autoimmune", "epidemiology"]


def test_replayed_bandit_equals_the_incrementally_updated_one() -> None:
    rng = np.random.default_rng(7)
    live = LinUCB(ARMS, speakers.CONTEXT_DIM, alpha=0.5)
    state = speakers.new_bandit(0.5)
    for _ in range(20):
        x = rng.uniform(0, 1, speakers.CONTEXT_DIM).tolist()
        arm = live.select(x)
        reward = float(rng.normal())
        live.update(arm, x, reward)
        state = speakers.with_observation(state, arm, x, reward)
    state = json.loads(json.dumps(state))  # what a checkpointer would store
    rebuilt = speakers.rebuild(ARMS, state)
    x = rng.uniform(0, 1, speakers.CONTEXT_DIM).tolist()
    assert rebuilt.upper_bounds(x) == pytest.approx(live.upper_bounds(x))


def test_turn_reward_is_entropy_drop_minus_cost() -> None:
    # 0.4 nats dropped, 2,000 tokens at COST_PER_KTOKENS each
    expected = 0.4 - 2.0 * speakers.COST_PER_KTOKENS
    assert speakers.turn_reward(0.9, 0.5, 2000) == pytest.approx(expected)
    assert speakers.turn_reward(0.9, 0.9, 0) == 0.0


def test_recent_gain_is_the_mean_drop_of_the_arms_last_turns() -> None:
    state = speakers.new_bandit(1.0, prior_gain={"b": 0.25})
    for drop in (0.1, 0.2, 0.3, 0.6):
        state = speakers.with_observation(state, "a", [0.0] * speakers.CONTEXT_DIM, 0.0, drop)
    assert speakers.recent_gain(state, "a") == pytest.approx((0.2 + 0.3 + 0.6) / 3)
    assert speakers.recent_gain(state, "b", state["prior_gain"]) == 0.25  # from the diary
    contexts = speakers.arm_contexts(["a", "b"], state, [1.0], state["prior_gain"])
    assert contexts == {"a": [1.0, pytest.approx(1.1 / 3)], "b": [1.0, 0.25]}


def test_thompson_selection_is_reproducible_per_step() -> None:
    state = speakers.new_bandit(1.0)
    x = dict.fromkeys(ARMS, [0.5] * speakers.CONTEXT_DIM)
    first = speakers.select("thompson", ARMS, state, x, seed=3)
    assert speakers.select("thompson", ARMS, state, x, seed=3) == first


def _informative() -> list[Any]:
    strong = move("strong", [claim("c", ["sec-brucella-1"], {"brucellosis": 1.0})])
    return [strong] * 12 + [ballot("brucellosis")]


def _informative_and_empty() -> dict[str, ScriptedChatModel]:
    """An informative specialist and one that only says nothing, both voting brucellosis."""
    return {
        "infectious": ScriptedChatModel(name="infectious", script=_informative()),
        "autoimmune": ScriptedChatModel(
            name="autoimmune", script=[move("nothing", [])] * 12 + [ballot("brucellosis")]
        ),
    }


def test_linucb_selection_follows_the_replayed_bandit(unit_settings: Settings) -> None:
    models = _informative_and_empty()
    ctx = scripted_context(
        unit_settings, models, speaker_selection="linucb", linucb_alpha=0.1, max_rounds=2
    )
    app = build_graph().compile(checkpointer=InMemorySaver())
    config: Any = {"configurable": {"thread_id": "bandit-1"}}
    stream: Any = app.stream(
        {"case": case_data()}, config, context=ctx, stream_mode=["updates", "custom"]
    )
    events = [c for mode, c in stream if mode == "custom" and c.get("event") == "bandit"]
    out = app.get_state(config).values
    bandit = out["bandit"]
    json.dumps(bandit)  # plain JSON in the checkpoint
    assert "pending" not in bandit
    observations = bandit["observations"]
    assert len(observations) == len(out["moves"]) == len(events) == 2 * 3 * 2
    # every choice is LinUCB's argmax over the observations made before it
    arms = list(models)
    for i, obs in enumerate(observations):
        before = {**bandit, "observations": observations[:i]}
        model = speakers.rebuild(arms, before)
        # each arm's context: the shared debate state plus that arm's recent gain so far
        contexts = speakers.arm_contexts(arms, before, obs["context"][:-1])
        assert contexts[obs["arm"]] == obs["context"]
        assert model.select(contexts) == obs["arm"] == events[i]["speaker"]
    # informative turns earn positive rewards, empty ones zero, so the bandit settles on them
    rewards = {arm: [o["reward"] for o in observations if o["arm"] == arm] for arm in arms}
    assert rewards["autoimmune"], "LinUCB explores the other arm at least once"
    assert all(r > 0 for r in rewards["infectious"]) and all(r <= 0 for r in rewards["autoimmune"])
    assert len(rewards["infectious"]) > len(rewards["autoimmune"])
    # the ledger thread is the checkpointer's thread
    assert out["ledger_thread"] == "bandit-1" and ctx.ledger.verify("bandit-1").ok


def test_thompson_sampling_runs_a_debate_and_replays_its_draws(unit_settings: Settings) -> None:
    def run() -> tuple[list[str], Any]:
        ctx = scripted_context(
            unit_settings,
            _informative_and_empty(),
            speaker_selection="thompson",
            seed=11,
            max_rounds=1,
        )
        app = build_graph().compile(checkpointer=InMemorySaver())
        config: Any = {"configurable": {"thread_id": "ts"}}
        stream: Any = app.stream(
            {"case": case_data()}, config, context=ctx, stream_mode=["updates", "custom"]
        )
        picks = [c["speaker"] for m, c in stream if m == "custom" and c.get("event") == "bandit"]
        return picks, app.get_state(config).values

    picks, out = run()
    assert len(picks) == len(out["moves"]) == 6
    assert [m["speaker"] for m in out["moves"]] == picks
    # seeded per step: the same run draws the same speakers
    assert run()[0] == picks
