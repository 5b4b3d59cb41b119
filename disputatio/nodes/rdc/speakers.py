"""Speaker selection for the moderator: round-robin, LinUCB or linear Thompson sampling.

Graph state must stay plain JSON, so the bandit is never stored as an object: the state keeps
``{"dim", "alpha", "observations": [{"arm", "context", "reward", "drop"}, ...]}`` and every step
rebuilds the bandit by replaying the observations (its ridge statistics ``A = λI + Σ x xᵀ`` and
``b = Σ r x`` are sums, so the replay is exact and the state survives any checkpointer). Thompson
sampling draws from ``numpy.random.default_rng([seed, step])``, so a replayed step draws the same.

Each arm gets its own context (:func:`arm_contexts`): the debate state
``[1, H / ln n, round / max_rounds, one-hot(phase)]`` plus that speaker's *recent gain*, the mean
entropy drop of its last :data:`RECENT` turns (before its first turn: its prior gain from its
diary, else 0). The reward of a turn is the seed's entropy drop minus cost
(:func:`disputatio.argumentation.net_entropy_reward`), the cost being the turn's thousands of
tokens times ``cost_per_ktokens``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from disputatio.argumentation import (
    LinearThompsonSampling,
    LinUCB,
    RoundRobinSelector,
    net_entropy_reward,
)
from disputatio.state.rdc import ROUND_PHASES

#: Dimension of each arm's context vector (see :func:`arm_contexts`).
CONTEXT_DIM = 4 + len(ROUND_PHASES)
#: Turns of a speaker the recent-gain feature averages over.
RECENT = 3
#: Nats of entropy one thousand tokens are worth in the reward (the cost weight).
COST_PER_KTOKENS = 0.01


def context_vector(
    entropy: float, n_hypotheses: int, phase: str, round_: int, max_rounds: int
) -> list[float]:
    """Return the shared part ``[1, H / ln n, round / max_rounds, one-hot(phase)]``."""
    h_max = math.log(n_hypotheses) if n_hypotheses > 1 else 1.0
    onehot = [1.0 if phase == p else 0.0 for p in ROUND_PHASES]
    return [1.0, min(max(entropy / h_max, 0.0), 1.0), min(round_ / max_rounds, 1.0), *onehot]


def recent_gain(
    bandit: Mapping[str, Any], arm: str, prior: Mapping[str, float] | None = None
) -> float:
    """Return the mean entropy drop of ``arm``'s last :data:`RECENT` turns (or its prior)."""
    drops = [float(o.get("drop", 0.0)) for o in bandit.get("observations", []) if o["arm"] == arm]
    if not drops:
        return float((prior or {}).get(arm, 0.0))
    last = drops[-RECENT:]
    return math.fsum(last) / len(last)


def arm_contexts(
    arms: Sequence[str],
    bandit: Mapping[str, Any],
    shared: Sequence[float],
    prior: Mapping[str, float] | None = None,
) -> dict[str, list[float]]:
    """Return each arm's context: the shared part plus its recent gain."""
    return {a: [*shared, recent_gain(bandit, a, prior)] for a in arms}


def round_robin(arms: Sequence[str], cursor: int) -> str:
    """Return the arm at position ``cursor`` of the round-robin cycle."""
    selector = RoundRobinSelector(arms)
    for _ in range(cursor % len(arms)):
        selector.select()
    return selector.select()


def new_bandit(alpha: float, prior_gain: Mapping[str, float] | None = None) -> dict[str, Any]:
    """Return the serialised state of a fresh bandit (``prior_gain``: from the diaries)."""
    return {
        "dim": CONTEXT_DIM,
        "alpha": alpha,
        "observations": [],
        "prior_gain": dict(prior_gain or {}),
    }


def rebuild(arms: Sequence[str], bandit: Mapping[str, Any]) -> LinUCB:
    """Rebuild the LinUCB of ``bandit`` by replaying its observations on ``arms``."""
    model = LinUCB(arms, int(bandit["dim"]), alpha=float(bandit["alpha"]))
    _replay(model, bandit)
    return model


def _replay(model: LinUCB | LinearThompsonSampling, bandit: Mapping[str, Any]) -> None:
    for obs in bandit.get("observations", []):
        if obs["arm"] in model.arms and len(obs["context"]) == model.dim:
            model.update(obs["arm"], obs["context"], float(obs["reward"]))


def select(
    kind: str,
    arms: Sequence[str],
    bandit: Mapping[str, Any],
    contexts: Mapping[str, Sequence[float]],
    seed: int,
) -> tuple[str, dict[str, float]]:
    """Return the arm the bandit ``kind`` (``linucb`` or ``thompson``) picks, and its scores.

    LinUCB reports every arm's upper bound; Thompson sampling the sampled payoff of the pick's
    draw is not kept, so it reports each arm's posterior-mean payoff ``θ̂ᵀx``.
    """
    ctx = {a: list(v) for a, v in contexts.items()}
    if kind == "thompson":
        step = len(bandit.get("observations", []))
        rng = np.random.default_rng([seed, step])
        ts = LinearThompsonSampling(arms, int(bandit["dim"]), rng)
        _replay(ts, bandit)
        means = {a: float(ts.theta(a) @ np.asarray(ctx[a])) for a in arms}
        return ts.select(ctx), means
    model = rebuild(arms, bandit)
    return model.select(ctx), model.upper_bounds(ctx)


def turn_reward(entropy_before: float, entropy_after: float, tokens: int) -> float:
    """Return the reward of a turn: entropy drop (nats) minus its cost in thousands of tokens."""
    return net_entropy_reward(
        entropy_before, entropy_after, max(tokens, 0) / 1000.0, COST_PER_KTOKENS
    )


def with_observation(
    bandit: Mapping[str, Any],
    arm: str,
    context: Sequence[float],
    reward: float,
    drop: float = 0.0,
) -> dict[str, Any]:
    """Return a copy of ``bandit`` with one more observation."""
    obs = {"arm": arm, "context": list(context), "reward": reward, "drop": drop}
    return {**bandit, "observations": [*bandit.get("observations", []), obs]}
