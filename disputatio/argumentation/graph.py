"""The typed, signed debate graph of ResearchDebateChain.

Nodes are hypotheses, evidence, tests, findings and assumptions; edges read
``source <kind> target`` (``e supports h``, ``h suggests_test t``, ``f derived_from e``) and carry a
sign fixed by their kind and a weight in ``[0, 1]``. The graph validates what is added to it,
reports violated invariants, converts to a bipolar argumentation framework and to evidence items
for fusion, and serialises to a plain dict, JSON-LD and GraphML.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from disputatio.argumentation.fusion import EvidenceItem
from disputatio.argumentation.schema import (
    CLAIM_KINDS,
    EDGE_SIGNS,
    Edge,
    EdgeKind,
    Node,
    NodeKind,
)
from disputatio.argumentation.semantics import BipolarFramework, Label
from disputatio.argumentation.serialization import (
    edge_from_dict,
    edge_to_dict,
    node_from_dict,
    node_to_dict,
    to_graphml,
    to_jsonld,
)

# The node and edge types live in ``schema`` (shared with ``serialization``) and are re-exported.
__all__ = ["CLAIM_KINDS", "EDGE_SIGNS", "DebateGraph", "Edge", "EdgeKind", "Node", "NodeKind"]

_GROUND_KINDS = frozenset({NodeKind.EVIDENCE, NodeKind.ASSUMPTION})
_FUSION_EDGES = frozenset({EdgeKind.SUPPORTS, EdgeKind.ATTACKS, EdgeKind.CONTRADICTS})


class DebateGraph:
    """A validated, typed, signed debate graph (a builder: nodes and edges are immutable)."""

    def __init__(self, nodes: Iterable[Node] = (), edges: Iterable[Edge] = ()) -> None:
        self._nodes: dict[str, Node] = {}
        self._edges: dict[tuple[str, str, EdgeKind], Edge] = {}
        for node in nodes:
            self.add_node(node)
        for edge in edges:
            self._add(edge)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, DebateGraph):
            return NotImplemented
        return self._nodes == other._nodes and set(self._edges.values()) == set(
            other._edges.values()
        )

    __hash__ = None  # type: ignore[assignment]

    def __contains__(self, node_id: object) -> bool:
        return node_id in self._nodes

    def __len__(self) -> int:
        return len(self._nodes)

    @property
    def nodes(self) -> tuple[Node, ...]:
        """All nodes, in insertion order."""
        return tuple(self._nodes.values())

    @property
    def edges(self) -> tuple[Edge, ...]:
        """All edges, in insertion order."""
        return tuple(self._edges.values())

    def node(self, node_id: str) -> Node:
        """Return the node ``node_id``.

        Raises:
            KeyError: If there is no such node.
        """
        return self._nodes[node_id]

    def nodes_of(self, kind: NodeKind) -> tuple[Node, ...]:
        """Return the nodes of one kind, in insertion order."""
        return tuple(n for n in self._nodes.values() if n.kind is kind)

    def add_node(self, node: Node) -> Node:
        """Add a node.

        Raises:
            ValueError: If a node with the same id exists.
        """
        if node.id in self._nodes:
            raise ValueError(f"duplicate node id {node.id!r}")
        self._nodes[node.id] = node
        return node

    def add_edge(
        self,
        source: str,
        target: str,
        kind: EdgeKind | str,
        weight: float = 1.0,
        llr: float | None = None,
    ) -> Edge:
        """Add the edge ``source <kind> target``.

        Raises:
            ValueError: On an unknown endpoint, a duplicate edge, a weight outside ``[0, 1]``, a
                self-loop, or a ``suggests_test`` edge whose target is not a test.
        """
        return self._add(Edge(source, target, EdgeKind(kind), weight, llr))

    def _add(self, edge: Edge) -> Edge:
        for end in (edge.source, edge.target):
            if end not in self._nodes:
                raise ValueError(f"edge endpoint {end!r} is not a node")
        key = (edge.source, edge.target, edge.kind)
        if key in self._edges:
            raise ValueError(f"duplicate edge {edge.source!r} -{edge.kind.value}-> {edge.target!r}")
        if edge.kind is EdgeKind.SUGGESTS_TEST and self._nodes[edge.target].kind is not (
            NodeKind.TEST
        ):
            raise ValueError(f"suggests_test target {edge.target!r} is not a test")
        if (edge.kind is EdgeKind.QUERIES) != (self._nodes[edge.source].kind is NodeKind.QUERY):
            raise ValueError(f"only a query queries, and a query only queries ({edge.source!r})")
        if edge.kind is EdgeKind.ANSWERS and self._nodes[edge.target].kind is not NodeKind.QUERY:
            raise ValueError(f"answers target {edge.target!r} is not a query")
        self._edges[key] = edge
        return edge

    def open_queries(self) -> list[tuple[str, str]]:
        """Return ``(query id, queried node id)`` for every query that nothing answers yet."""
        answered = {e.target for e in self._edges.values() if e.kind is EdgeKind.ANSWERS}
        return [
            (e.source, e.target)
            for e in self._edges.values()
            if e.kind is EdgeKind.QUERIES and e.source not in answered
        ]

    def backed_claims(self) -> frozenset[str]:
        """Return the claims backed, directly or through other backed claims, by grounds.

        A claim ``c`` (hypothesis or finding) is backed when ``g supports c`` or
        ``c derived_from g`` for some ``g`` that is evidence, an assumption or a backed claim.
        """
        backed: set[str] = set()
        changed = True
        while changed:
            changed = False
            for e in self._edges.values():
                if e.kind is EdgeKind.SUPPORTS:
                    ground, claim = e.source, e.target
                elif e.kind is EdgeKind.DERIVED_FROM:
                    ground, claim = e.target, e.source
                else:
                    continue
                if self._nodes[claim].kind not in CLAIM_KINDS or claim in backed:
                    continue
                if self._nodes[ground].kind in _GROUND_KINDS or ground in backed:
                    backed.add(claim)
                    changed = True
        return frozenset(backed)

    def check_invariants(self) -> list[str]:
        """Return a description of every violated invariant (empty when the graph is sound).

        Invariants: every claim (hypothesis or finding) is backed by evidence or an explicit
        assumption (see :meth:`backed_claims`); every test has an expected discriminative power.
        """
        backed = self.backed_claims()
        problems = [
            f"{n.kind.value} {n.id!r} is not backed by any evidence or explicit assumption"
            for n in self._nodes.values()
            if n.kind in CLAIM_KINDS and n.id not in backed
        ]
        problems += [
            f"test {n.id!r} has no expected discriminative power"
            for n in self.nodes_of(NodeKind.TEST)
            if n.discriminative_power is None
        ]
        return problems

    def priors(self) -> dict[str, float]:
        """Return the prior of every hypothesis that has one."""
        return {n.id: n.prior for n in self.nodes_of(NodeKind.HYPOTHESIS) if n.prior is not None}

    def evidence_items(self, hypothesis: str | None = None) -> list[EvidenceItem]:
        """Return fusion items for supports/attacks/contradicts edges from evidence or findings.

        Each item has ``llr = edge.weight · (edge.llr or source.llr)``, the source's quality, the
        edge's sign and the target as hypothesis. Edges without any llr are qualitative and skipped.

        Args:
            hypothesis: Only items bearing on this hypothesis (default: every hypothesis).
        """
        items = []
        for e in self._edges.values():
            src, dst = self._nodes[e.source], self._nodes[e.target]
            if e.kind not in _FUSION_EDGES or dst.kind is not NodeKind.HYPOTHESIS:
                continue
            if src.kind not in (NodeKind.EVIDENCE, NodeKind.FINDING):
                continue
            if hypothesis is not None and dst.id != hypothesis:
                continue
            llr = e.llr if e.llr is not None else src.llr
            if llr is None:
                continue
            items.append(EvidenceItem(src.id, e.weight * llr, src.quality, e.sign, dst.id))
        return items

    def to_framework(self) -> BipolarFramework:
        """Return the bipolar argumentation framework over every node but tests and queries.

        ``attacks`` edges attack, ``contradicts`` edges attack both ways, ``supports`` edges
        support, and ``c derived_from g`` means ``g`` supports ``c``; other kinds are ignored.
        """
        args = frozenset(
            n.id for n in self._nodes.values() if n.kind not in (NodeKind.TEST, NodeKind.QUERY)
        )
        attacks: set[tuple[str, str]] = set()
        supports: set[tuple[str, str]] = set()
        for e in self._edges.values():
            if e.source not in args or e.target not in args:
                continue
            if e.kind is EdgeKind.ATTACKS:
                attacks.add((e.source, e.target))
            elif e.kind is EdgeKind.CONTRADICTS:
                attacks.update({(e.source, e.target), (e.target, e.source)})
            elif e.kind is EdgeKind.SUPPORTS:
                supports.add((e.source, e.target))
            elif e.kind is EdgeKind.DERIVED_FROM:
                supports.add((e.target, e.source))
        return BipolarFramework(args, frozenset(attacks), frozenset(supports))

    def base_facts(self) -> frozenset[str]:
        """Return the base facts of the bipolar labelling: every evidence and assumption node.

        Evidence was observed (the case) or retrieved with provenance (a move's claims are
        accepted only with traceable provenance), and an assumption is explicitly assumed: each
        stands without support. Hypotheses and findings are claims and need an IN supporter.
        """
        return frozenset(n.id for n in self._nodes.values() if n.kind in _GROUND_KINDS)

    def labelling(self, semantics: str = "bipolar") -> dict[str, Label]:
        """Return the labelling of every non-test node under ``semantics``.

        ``"bipolar"`` (default): the seed's rule with :meth:`base_facts` as base facts;
        ``"derived"``: grounded semantics over direct and supported attacks.

        Raises:
            ValueError: On an unknown semantics.
        """
        bf = self.to_framework()
        return bf.labelling(semantics, base=self.base_facts() & bf.arguments)

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict ``{"nodes": [...], "edges": [...]}``."""
        return {
            "nodes": [node_to_dict(n) for n in self._nodes.values()],
            "edges": [edge_to_dict(e) for e in self._edges.values()],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> DebateGraph:
        """Build (and validate) a graph from :meth:`to_dict` output.

        Raises:
            ValueError: On malformed or invalid input.
        """
        return cls(
            (node_from_dict(n) for n in data.get("nodes", ())),
            (edge_from_dict(e) for e in data.get("edges", ())),
        )

    def to_jsonld(self) -> dict[str, Any]:
        """Return the graph as a JSON-LD document (a dict with ``@context`` and ``@graph``)."""
        return to_jsonld(self.nodes, self.edges)

    def to_graphml(self) -> str:
        """Return the graph as a GraphML document string."""
        return to_graphml(self.nodes, self.edges)
