"""Speaker selection: round-robin, LinUCB and linear Thompson sampling."""

import math

import numpy as np
import pytest

from disputatio.argumentation import (
    LinearThompsonSampling,
    LinUCB,
    RoundRobinSelector,
    SpeakerSelector,
    entropy_drop_reward,
)

ARMS = ["skeptic", "advocate", "statistician"]
# True reward weights per arm (dim 2); the best arm depends on the context.
TRUE_THETA = {
    "skeptic": np.array([1.0, 0.0]),
    "advocate": np.array([0.0, 1.0]),
    "statistician": np.array([0.4, 0.4]),
}


def best_arm(x: np.ndarray) -> str:
    return max(ARMS, key=lambda a: float(TRUE_THETA[a] @ x))


def play(selector: SpeakerSelector, rounds: int, seed: int) -> float:
    """Play and return the fraction of optimal choices in the last quarter of the run."""
    env = np.random.default_rng(seed)
    hits = []
    for _ in range(rounds):
        x = env.uniform(0.0, 1.0, size=2)
        arm = selector.select(x)
        reward = float(TRUE_THETA[arm] @ x) + env.normal(0.0, 0.05)
        selector.update(arm, x, reward)
        hits.append(arm == best_arm(x))
    tail = hits[-rounds // 4 :]
    return sum(tail) / len(tail)


def test_entropy_drop_reward_by_hand() -> None:
    # (1.0 - 0.4) / 0.3 = 2
    assert entropy_drop_reward(1.0, 0.4, 0.3) == pytest.approx(2.0)
    assert entropy_drop_reward(0.4, 1.0, 2.0) == pytest.approx(-0.3)  # entropy went up
    with pytest.raises(ValueError):
        entropy_drop_reward(1.0, 0.5, 0.0)
    with pytest.raises(ValueError):
        entropy_drop_reward(math.nan, 0.5, 1.0)


def test_round_robin_cycles() -> None:
    rr = RoundRobinSelector(ARMS)
    assert [rr.select() for _ in range(4)] == [*ARMS, ARMS[0]]
    rr.update("skeptic", None, 1.0)
    with pytest.raises(ValueError):
        rr.update("nobody", None, 1.0)
    with pytest.raises(ValueError):
        RoundRobinSelector(["a", "a"])


def test_linucb_by_hand() -> None:
    ucb = LinUCB(["a", "b"], dim=1, alpha=1.0, ridge=1.0)
    x = [1.0]
    # no data: both bounds 0 + 1 * sqrt(1/1) = 1; ties go to the first arm
    assert ucb.upper_bounds(x) == pytest.approx({"a": 1.0, "b": 1.0})
    assert ucb.select(x) == "a"
    # a earns 1: A = 1 + 1 = 2, b = 1, theta = 0.5, bound = 0.5 + sqrt(1/2)
    ucb.update("a", x, 1.0)
    assert ucb.theta("a") == pytest.approx([0.5])
    assert ucb.upper_bounds(x)["a"] == pytest.approx(0.5 + math.sqrt(0.5))
    assert ucb.select(x) == "a"
    # a earns -1 next: A = 3, b = 0 -> bound = sqrt(1/3) = 0.577 < 1 = b's bound
    ucb.update("a", x, -1.0)
    assert ucb.select(x) == "b"


def test_linucb_learns_the_contextual_best_arm() -> None:
    assert play(LinUCB(ARMS, dim=2, alpha=0.5), rounds=400, seed=1) > 0.8


def test_thompson_is_reproducible_and_learns() -> None:
    def run(seed: int) -> list[str]:
        ts = LinearThompsonSampling(ARMS, dim=2, rng=np.random.default_rng(seed), scale=0.2)
        picks = []
        for x in np.random.default_rng(7).uniform(size=(30, 2)):
            arm = ts.select(x)
            ts.update(arm, x, float(TRUE_THETA[arm] @ x))
            picks.append(arm)
        return picks

    assert run(123) == run(123)
    ts = LinearThompsonSampling(ARMS, dim=2, rng=np.random.default_rng(0), scale=0.2)
    assert play(ts, rounds=400, seed=2) > 0.8


def test_linear_bandit_validation() -> None:
    ucb = LinUCB(ARMS, dim=2)
    with pytest.raises(ValueError):
        ucb.select([1.0, 2.0, 3.0])
    with pytest.raises(ValueError):
        ucb.select(None)
    with pytest.raises(ValueError):
        ucb.update("nobody", [1.0, 0.0], 1.0)
    with pytest.raises(ValueError):
        ucb.update("skeptic", [1.0, 0.0], math.inf)
    with pytest.raises(ValueError):
        ucb.update("skeptic", [math.nan, 0.0], 1.0)
    with pytest.raises(ValueError):
        LinUCB(ARMS, dim=0)
    with pytest.raises(ValueError):
        LinearThompsonSampling(ARMS, dim=2, rng=np.random.default_rng(0), scale=0.0)


def test_net_entropy_reward_by_hand() -> None:
    from disputatio.argumentation import net_entropy_reward

    assert net_entropy_reward(1.0, 0.4, 0.2, 0.5) == pytest.approx(0.6 - 0.1)
    assert net_entropy_reward(0.4, 0.5, 0.0) == pytest.approx(-0.1)
    with pytest.raises(ValueError):
        net_entropy_reward(1.0, 0.5, -1.0)


def test_per_arm_contexts_equal_to_a_shared_one_change_nothing() -> None:
    import numpy as np

    from disputatio.argumentation import LinearThompsonSampling, LinUCB

    arms = ["a", "b", "c"]
    x = [1.0, 0.3]
    shared, per_arm = LinUCB(arms, 2), LinUCB(arms, 2)
    for arm, r in [("a", 0.1), ("b", 0.9), ("c", 0.2)]:
        shared.update(arm, x, r)
        per_arm.update(arm, {arm: x}, r)
    assert shared.upper_bounds(x) == per_arm.upper_bounds(dict.fromkeys(arms, x))
    ts1 = LinearThompsonSampling(arms, 2, np.random.default_rng(7))
    ts2 = LinearThompsonSampling(arms, 2, np.random.default_rng(7))
    assert ts1.select(x) == ts2.select(dict.fromkeys(arms, x))
    # an arm's own feature decides when it is the only difference
    fresh = LinUCB(["a", "b"], 2, alpha=0.0)
    fresh.update("a", [1.0, 1.0], 1.0)
    fresh.update("b", [1.0, 1.0], 1.0)
    assert fresh.select({"a": [1.0, 0.0], "b": [1.0, 1.0]}) == "b"
    with pytest.raises(ValueError, match="no vector"):
        fresh.select({"a": [1.0, 0.0]})
