"""Speaker selection: round-robin and contextual bandits (LinUCB, linear Thompson sampling).

Arms are speakers (agents); the context is a feature vector of the debate state; the reward of a
turn is the entropy drop it produced per unit cost (:func:`entropy_drop_reward`). Each linear
bandit keeps, per arm, the ridge-regression statistics ``A = λI + Σ x xᵀ`` and ``b = Σ r x`` and
estimates ``θ̂ = A⁻¹ b``:

* LinUCB (Li et al. 2010) picks ``argmax_a θ̂_aᵀ x + α sqrt(xᵀ A_a⁻¹ x)``;
* linear Thompson sampling (Agrawal & Goyal 2013) draws ``θ̃_a ~ N(θ̂_a, v² A_a⁻¹)`` from the
  caller's :class:`numpy.random.Generator` and picks ``argmax_a θ̃_aᵀ x``.

The context is one vector shared by every arm, or a mapping ``{arm: vector}`` giving each arm
its own (e.g. the debate state plus that speaker's recent gain); :func:`net_entropy_reward` is
the seed's reward, entropy drop minus cost.

Ties go to the arm listed first, so runs are reproducible.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Protocol

import numpy as np
import numpy.typing as npt

__all__ = [
    "LinUCB",
    "LinearThompsonSampling",
    "RoundRobinSelector",
    "SpeakerSelector",
    "entropy_drop_reward",
    "net_entropy_reward",
]

Context = npt.ArrayLike


def entropy_drop_reward(entropy_before: float, entropy_after: float, cost: float) -> float:
    """Return the reward ``(H_before − H_after) / cost`` of a turn.

    Raises:
        ValueError: If ``cost`` is not a finite positive number or an entropy is not finite.
    """
    if not (math.isfinite(cost) and cost > 0.0):
        raise ValueError(f"cost must be finite and > 0, got {cost}")
    if not (math.isfinite(entropy_before) and math.isfinite(entropy_after)):
        raise ValueError("entropies must be finite")
    return (entropy_before - entropy_after) / cost


def net_entropy_reward(
    entropy_before: float, entropy_after: float, cost: float, cost_weight: float = 1.0
) -> float:
    """Return the reward ``(H_before − H_after) − cost_weight · cost`` of a turn.

    Raises:
        ValueError: If a value is not finite or ``cost``/``cost_weight`` is negative.
    """
    values = (entropy_before, entropy_after, cost, cost_weight)
    if not all(math.isfinite(v) for v in values) or cost < 0.0 or cost_weight < 0.0:
        raise ValueError("entropies, cost and cost_weight must be finite; cost >= 0, weight >= 0")
    return (entropy_before - entropy_after) - cost_weight * cost


class SpeakerSelector(Protocol):
    """Anything that picks the next speaker and learns from the reward of the turn."""

    def select(self, context: Context | None = None) -> str:
        """Return the arm (speaker) to play next."""
        ...

    def update(self, arm: str, context: Context | None, reward: float) -> None:
        """Record the reward obtained by ``arm`` in ``context``."""
        ...


def _check_arms(arms: Sequence[str]) -> tuple[str, ...]:
    if not arms:
        raise ValueError("need at least one arm")
    if len(set(arms)) != len(arms):
        raise ValueError("arm names must be unique")
    return tuple(arms)


class RoundRobinSelector:
    """Cycle through the arms in order, ignoring context and rewards."""

    def __init__(self, arms: Sequence[str]) -> None:
        self.arms = _check_arms(arms)
        self._next = 0

    def select(self, context: Context | None = None) -> str:
        """Return the next arm in the cycle."""
        arm = self.arms[self._next]
        self._next = (self._next + 1) % len(self.arms)
        return arm

    def update(self, arm: str, context: Context | None, reward: float) -> None:
        """Check the arm and ignore the reward."""
        if arm not in self.arms:
            raise ValueError(f"unknown arm {arm!r}")


class _LinearBandit:
    """Shared ridge-regression statistics of the linear bandits."""

    def __init__(self, arms: Sequence[str], dim: int, ridge: float) -> None:
        self.arms = _check_arms(arms)
        if dim < 1:
            raise ValueError(f"dim must be >= 1, got {dim}")
        if not (math.isfinite(ridge) and ridge > 0.0):
            raise ValueError(f"ridge must be > 0, got {ridge}")
        self.dim = dim
        self._a = {arm: ridge * np.eye(dim) for arm in self.arms}
        self._b = {arm: np.zeros(dim) for arm in self.arms}

    def _vector(
        self, context: Context | Mapping[str, Context] | None, arm: str | None = None
    ) -> npt.NDArray[np.float64]:
        if context is None:
            raise ValueError("a contextual bandit needs a context vector")
        if isinstance(context, Mapping):
            if arm is None or arm not in context:
                raise ValueError(f"per-arm context has no vector for arm {arm!r}")
            context = context[arm]
        x = np.asarray(context, dtype=float)
        if x.shape != (self.dim,) or not np.isfinite(x).all():
            raise ValueError(f"context must be a finite vector of shape ({self.dim},)")
        return x

    def theta(self, arm: str) -> npt.NDArray[np.float64]:
        """Return the ridge estimate ``θ̂ = A⁻¹ b`` of ``arm``."""
        return np.asarray(np.linalg.solve(self._a[arm], self._b[arm]), dtype=np.float64)

    def update(self, arm: str, context: Context | None, reward: float) -> None:
        """Add the observation ``(context, reward)`` to the statistics of ``arm``.

        Raises:
            ValueError: On an unknown arm, a bad context or a non-finite reward.
        """
        if arm not in self._a:
            raise ValueError(f"unknown arm {arm!r}")
        if not math.isfinite(reward):
            raise ValueError(f"reward must be finite, got {reward}")
        x = self._vector(context, arm)
        self._a[arm] += np.outer(x, x)
        self._b[arm] += reward * x

    def _argmax(self, scores: Sequence[float]) -> str:
        return self.arms[int(np.argmax(scores))]


class LinUCB(_LinearBandit):
    """Disjoint LinUCB: optimism in the face of uncertainty with linear payoffs.

    Args:
        arms: Arm (speaker) names.
        dim: Context dimension.
        alpha: Width of the confidence bonus (``>= 0``).
        ridge: Ridge regulariser ``λ > 0``.
    """

    def __init__(
        self, arms: Sequence[str], dim: int, alpha: float = 1.0, ridge: float = 1.0
    ) -> None:
        super().__init__(arms, dim, ridge)
        if not (math.isfinite(alpha) and alpha >= 0.0):
            raise ValueError(f"alpha must be >= 0, got {alpha}")
        self.alpha = alpha

    def upper_bounds(self, context: Context | Mapping[str, Context]) -> dict[str, float]:
        """Return ``θ̂ᵀx + α sqrt(xᵀA⁻¹x)`` for every arm (``x`` the arm's context)."""
        bounds = {}
        for arm in self.arms:
            x = self._vector(context, arm)
            a_inv_x = np.linalg.solve(self._a[arm], x)
            bonus = self.alpha * math.sqrt(max(float(x @ a_inv_x), 0.0))
            bounds[arm] = float(self.theta(arm) @ x) + bonus
        return bounds

    def select(self, context: Context | Mapping[str, Context] | None = None) -> str:
        """Return the arm with the highest upper confidence bound."""
        if context is None:
            raise ValueError("a contextual bandit needs a context vector")
        bounds = self.upper_bounds(context)
        return self._argmax([bounds[a] for a in self.arms])


class LinearThompsonSampling(_LinearBandit):
    """Linear Thompson sampling with a Gaussian posterior over each arm's weights.

    Args:
        arms: Arm (speaker) names.
        dim: Context dimension.
        rng: The caller's random generator (seed it for reproducible runs).
        scale: Posterior scale ``v > 0`` (exploration).
        ridge: Ridge regulariser ``λ > 0``.
    """

    def __init__(
        self,
        arms: Sequence[str],
        dim: int,
        rng: np.random.Generator,
        scale: float = 1.0,
        ridge: float = 1.0,
    ) -> None:
        super().__init__(arms, dim, ridge)
        if not (math.isfinite(scale) and scale > 0.0):
            raise ValueError(f"scale must be > 0, got {scale}")
        self.rng = rng
        self.scale = scale

    def select(self, context: Context | Mapping[str, Context] | None = None) -> str:
        """Sample weights for every arm and return the arm with the highest sampled payoff."""
        scores = []
        for arm in self.arms:
            x = self._vector(context, arm)
            cov = np.linalg.inv(self._a[arm]) * self.scale**2
            sample = self.rng.multivariate_normal(self.theta(arm), (cov + cov.T) / 2.0)
            scores.append(float(sample @ x))
        return self._argmax(scores)
