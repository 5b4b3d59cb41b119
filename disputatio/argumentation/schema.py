"""Node and edge types of the debate graph: kinds, signs and validated attributes.

Edges read ``source <kind> target`` (``e supports h``, ``h suggests_test t``,
``f derived_from e``, ``q queries e``, ``c answers q``); their sign is fixed by their kind
(:data:`EDGE_SIGNS`). Queries and their answers are dialogue, not arguments: they carry no sign
and play no part in the labelling or the fusion.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType

__all__ = ["CLAIM_KINDS", "EDGE_SIGNS", "Edge", "EdgeKind", "Node", "NodeKind"]


class NodeKind(StrEnum):
    """Kinds of debate-graph nodes."""

    HYPOTHESIS = "hypothesis"
    EVIDENCE = "evidence"
    TEST = "test"
    FINDING = "finding"
    ASSUMPTION = "assumption"
    QUERY = "query"


class EdgeKind(StrEnum):
    """Kinds of debate-graph edges (read ``source <kind> target``)."""

    SUPPORTS = "supports"
    ATTACKS = "attacks"
    SUGGESTS_TEST = "suggests_test"
    CAUSES = "causes"
    CONTRADICTS = "contradicts"
    REFINES = "refines"
    DERIVED_FROM = "derived_from"
    QUERIES = "queries"
    ANSWERS = "answers"


EDGE_SIGNS: Mapping[EdgeKind, int] = MappingProxyType(
    {
        EdgeKind.SUPPORTS: 1,
        EdgeKind.CAUSES: 1,
        EdgeKind.REFINES: 1,
        EdgeKind.DERIVED_FROM: 1,
        EdgeKind.ATTACKS: -1,
        EdgeKind.CONTRADICTS: -1,
        EdgeKind.SUGGESTS_TEST: 0,
        EdgeKind.QUERIES: 0,
        EdgeKind.ANSWERS: 0,
    }
)
"""Sign of each edge kind: +1 positive, −1 negative, 0 neutral."""

CLAIM_KINDS: frozenset[NodeKind] = frozenset({NodeKind.HYPOTHESIS, NodeKind.FINDING})
"""Node kinds that are claims and so must be backed by evidence or an assumption."""


def _check_nonneg(owner: str, name: str, value: float) -> None:
    if not (math.isfinite(value) and value >= 0.0):
        raise ValueError(f"{owner}: {name} must be a finite number >= 0, got {value}")


@dataclass(frozen=True)
class Node:
    """A debate-graph node.

    Attributes:
        id: Unique, non-empty identifier.
        kind: The node kind.
        label: Human-readable text.
        quality: Quality/reliability in ``[0, 1]``.
        cost: Non-negative cost (tests: cost of running them).
        risk: Non-negative risk (tests: risk of harm).
        latency: Non-negative latency (tests: time to a result).
        provenance: Sources (a string or a sequence of strings; stored as a tuple).
        prior: Prior probability in ``(0, 1)``; hypotheses only.
        discriminative_power: Expected discriminative power (e.g. expected information gain in
            nats), ``>= 0``; tests only.
        llr: Default log-likelihood ratio (natural log) of the node; evidence and findings only.
    """

    id: str
    kind: NodeKind
    label: str = ""
    quality: float = 1.0
    cost: float = 0.0
    risk: float = 0.0
    latency: float = 0.0
    provenance: Sequence[str] = ()
    prior: float | None = None
    discriminative_power: float | None = None
    llr: float | None = None

    def __post_init__(self) -> None:
        if not self.id:
            raise ValueError("node id must be a non-empty string")
        object.__setattr__(self, "kind", NodeKind(self.kind))
        owner = f"node {self.id!r}"
        prov = self.provenance
        prov = (prov,) if isinstance(prov, str) else tuple(prov)
        if not all(isinstance(p, str) for p in prov):
            raise ValueError(f"{owner}: provenance must be strings")
        object.__setattr__(self, "provenance", prov)
        if not 0.0 <= self.quality <= 1.0:
            raise ValueError(f"{owner}: quality must be in [0, 1], got {self.quality}")
        for name in ("cost", "risk", "latency"):
            _check_nonneg(owner, name, getattr(self, name))
        if self.prior is not None:
            if self.kind is not NodeKind.HYPOTHESIS:
                raise ValueError(f"{owner}: only hypotheses have a prior")
            if not 0.0 < self.prior < 1.0:
                raise ValueError(f"{owner}: prior must be in (0, 1), got {self.prior}")
        if self.discriminative_power is not None:
            if self.kind is not NodeKind.TEST:
                raise ValueError(f"{owner}: only tests have a discriminative power")
            _check_nonneg(owner, "discriminative_power", self.discriminative_power)
        if self.llr is not None:
            if self.kind not in (NodeKind.EVIDENCE, NodeKind.FINDING):
                raise ValueError(f"{owner}: only evidence and findings have an llr")
            if not math.isfinite(self.llr):
                raise ValueError(f"{owner}: llr must be finite, got {self.llr}")


@dataclass(frozen=True)
class Edge:
    """A directed, signed debate-graph edge ``source <kind> target``.

    Attributes:
        source: Source node id.
        target: Target node id.
        kind: The edge kind; fixes :attr:`sign`.
        weight: Strength in ``[0, 1]``; scales the evidence contribution in fusion.
        llr: Edge-specific log-likelihood ratio of the source for this target (overrides the
            source node's ``llr``: one finding bears differently on each hypothesis).
    """

    source: str
    target: str
    kind: EdgeKind
    weight: float = 1.0
    llr: float | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "kind", EdgeKind(self.kind))
        owner = f"edge {self.source!r} -{self.kind.value}-> {self.target!r}"
        if self.source == self.target:
            raise ValueError(f"{owner}: self-loops are not allowed")
        if not (math.isfinite(self.weight) and 0.0 <= self.weight <= 1.0):
            raise ValueError(f"{owner}: weight must be in [0, 1], got {self.weight}")
        if self.llr is not None and not math.isfinite(self.llr):
            raise ValueError(f"{owner}: llr must be finite, got {self.llr}")

    @property
    def sign(self) -> int:
        """The sign of the edge, from :data:`EDGE_SIGNS`."""
        return EDGE_SIGNS[self.kind]
