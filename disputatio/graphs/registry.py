"""The graph registry: one entry per graph, read by the API, the CLI, the eval and a test.

Each graph the package ships is a :class:`GraphSpec` registered here: its name (the id in
``langgraph.json`` and of its LangGraph assistant), how to build it, its context class, and,
for a debate protocol, the protocol's name and page label, its input builder, the state fields
the API streams and answers as the verdict, its graph export, and the names the CLI and the
eval give it. The API (:mod:`disputatio.api`, its page included), ``disputatio ask`` and
``disputatio eval run`` read these entries instead of keeping lists; a test checks
``langgraph.json`` against them (:func:`check_langgraph`).

Adding a protocol: its graph folder (``disputatio/graphs/<name>/`` with ``build_graph()``), its
nodes and state, one :func:`register` call at the end of this module (a call elsewhere counts
only in processes that import that module first: the tests' toy protocol does), and its line
in ``langgraph.json``; ``tests/toy_protocol.py`` is the smallest complete example.

Builders, context classes and graph exports may be ``"module:attribute"`` strings, imported on
first use: importing this module imports no graph (the LangGraph auth handler imports it), and
it imports no API or CLI module.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from disputatio.graphs import inputs as _in
from disputatio.graphs.inputs import InvalidRequest, question_inputs, question_request

if TYPE_CHECKING:
    from langgraph.graph import StateGraph

__all__ = [
    "GraphNotReady",
    "GraphSpec",
    "InvalidRequest",
    "api_protocols",
    "by_protocol",
    "check_langgraph",
    "cli_protocols",
    "eval_graphs",
    "find",
    "find_protocol",
    "get",
    "langgraph_graphs",
    "question_inputs",
    "question_request",
    "register",
    "specs",
    "unregister",
]

#: ``(request, case id or None) -> graph input`` (see :mod:`disputatio.graphs.inputs`).
InputBuilder = Callable[[Mapping[str, Any], str | None], dict[str, Any]]
#: ``request -> stored request``; raises :class:`InvalidRequest`.
RequestCheck = Callable[[Mapping[str, Any]], dict[str, Any]]
#: ``(state values, case id) -> (JSON-LD document, GraphML text)``; raises :class:`GraphNotReady`.
GraphExport = Callable[[Mapping[str, Any], str], tuple[dict[str, Any], str]]
#: The shapes of answer options: ``letters`` is ``{letter: text}``, ``names`` a list of names.
OPTION_FORMS = ("letters", "names")


class GraphNotReady(Exception):
    """A debate's graph is not built yet (``GET /debate/{id}/graph`` answers 409, retryable)."""


@dataclass(frozen=True)
class GraphSpec:
    """One graph and everything the API, the CLI and the eval need to run it.

    Attributes:
        name: The graph's id: its key in ``langgraph.json``, its LangGraph assistant's graph,
            and the key of ``Services.context`` (and of the API's context overrides).
        builder: ``build_graph() -> StateGraph`` (uncompiled), or ``"module:attribute"``.
        context: Its context class (the graph's ``context_schema``), or ``"module:attribute"``.
        description: One line, for help texts and reports.
        label: The protocol's name on the web page (default: ``protocol``).
        protocol: The debate protocol's name (``POST /debate/start``'s ``protocol``, a
            verdict's ``protocol``); None for a graph that is not a debate protocol.
        inputs: The protocol's input builder, ``(request, case id) -> graph input``.
        check: What the protocol keeps of a request (raises :class:`InvalidRequest`).
        needs_question: The request must carry a question (checked before ``check``).
        needs_options: The request must carry answer options (checked before ``check``).
        option_forms: The shapes of options it takes (:data:`OPTION_FORMS`; the page parses
            typed options into the first that fits, and offers none when empty).
        graph_export: Exports a run's graph (``GET /debate/{id}/graph``), or
            ``"module:attribute"``; None: the protocol builds no graph (404).
        move_fields: State fields whose new items the API streams as ``move`` events.
        snapshot_fields: State fields the API streams whenever their value changes.
        verdict_fields: State fields of the verdict (``GET /debate/{id}/verdict``, ``--json``).
        api: Served on ``POST /debate/start`` (debate protocols only).
        cli_names: The names ``disputatio ask --protocol`` runs it under.
        eval_names: The ``disputatio eval run`` protocols that run this graph.
        tenant_context: Its context carries the tenant (the API and the LangGraph auth set it).
        langgraph: Its path in ``langgraph.json`` (``"./path/graph.py:graph"``); None: not
            served on the LangGraph server.
        langgraph_runs: Runs over the LangGraph routes are allowed (False: refused, 403).
        long_term_store: Runs get the LangGraph store (``BaseStore``) beside the checkpointer.
        server_context: ``settings -> kwargs`` a server adds to the context (the RDC ledger).
    """

    name: str
    builder: str | Callable[[], StateGraph[Any, Any, Any, Any]]
    context: str | type[Any] | None = None
    description: str = ""
    label: str = ""
    protocol: str | None = None
    inputs: InputBuilder | None = None
    check: RequestCheck = question_request
    needs_question: bool = True
    needs_options: bool = False
    option_forms: tuple[str, ...] = OPTION_FORMS
    graph_export: str | GraphExport | None = None
    move_fields: tuple[str, ...] = ()
    snapshot_fields: tuple[str, ...] = ()
    verdict_fields: tuple[str, ...] = ()
    api: bool = True
    cli_names: tuple[str, ...] = ()
    eval_names: tuple[str, ...] = ()
    tenant_context: bool = True
    langgraph: str | None = None
    langgraph_runs: bool = True
    long_term_store: bool = False
    server_context: Callable[[Any], dict[str, Any]] | None = None

    def build(self) -> StateGraph[Any, Any, Any, Any]:
        """The uncompiled graph (its module is imported now, not at registration)."""
        builder: StateGraph[Any, Any, Any, Any] = _resolve(self.builder)()
        return builder

    def context_class(self) -> type[Any] | None:
        """The graph's context class (imported now)."""
        return None if self.context is None else _resolve(self.context)

    def graph_exporter(self) -> GraphExport | None:
        """The function exporting a run's graph (imported now), or None."""
        return None if self.graph_export is None else _resolve(self.graph_export)

    def graph_input(self, request: Mapping[str, Any], case_id: str | None) -> dict[str, Any]:
        """The graph input of a (checked) request.

        Raises:
            ValueError: The graph is not a debate protocol (it has no input builder).
        """
        if self.inputs is None:
            raise ValueError(f"the {self.name} graph has no input builder")
        return self.inputs(request, case_id)


def _resolve(ref: Any) -> Any:
    """An object, or the attribute a ``"module:attribute"`` string names (imported)."""
    if not isinstance(ref, str):
        return ref
    module, _, attribute = ref.partition(":")
    return getattr(importlib.import_module(module), attribute)


_SPECS: dict[str, GraphSpec] = {}


def _names(spec: GraphSpec) -> dict[str, set[str]]:
    protocol = {spec.protocol} if spec.protocol else set()
    return {
        "protocol": protocol,
        "CLI name": set(spec.cli_names),
        "eval name": set(spec.eval_names),
    }


def register(spec: GraphSpec, *, replace: bool = False) -> GraphSpec:
    """Add a graph to the registry (``replace``: in place of a graph of the same name).

    Returns:
        ``spec``.

    Raises:
        ValueError: A name already taken (graph, protocol, CLI or eval name), or a spec that
            contradicts itself (CLI names or fields without a protocol, a protocol without an
            input builder).
    """
    if not spec.name or not spec.name.isidentifier():
        raise ValueError(f"a graph's name is an identifier, not {spec.name!r}")
    if spec.name in _SPECS and not replace:
        raise ValueError(f"a graph named {spec.name!r} is registered already")
    if spec.protocol is None and (
        spec.cli_names or spec.move_fields or spec.snapshot_fields or spec.verdict_fields
    ):
        raise ValueError(f"{spec.name}: CLI names and streamed fields need a protocol name")
    if spec.protocol is not None and spec.inputs is None:
        raise ValueError(f"{spec.name}: the protocol {spec.protocol!r} needs an input builder")
    if not set(spec.option_forms) <= set(OPTION_FORMS) or (
        spec.needs_options and not spec.option_forms
    ):
        raise ValueError(f"{spec.name}: option forms are some of {OPTION_FORMS}, one if needed")
    mine = _names(spec)
    for other in _SPECS.values():
        if other.name == spec.name:
            continue
        for kind, theirs in _names(other).items():
            taken = mine[kind] & theirs
            if taken:
                raise ValueError(f"{kind} {', '.join(sorted(taken))} is {other.name}'s already")
    _SPECS[spec.name] = spec
    return spec


def unregister(name: str) -> GraphSpec:
    """Remove a graph from the registry and return its spec (tests).

    Raises:
        KeyError: No such graph.
    """
    return _SPECS.pop(name)


def specs() -> tuple[GraphSpec, ...]:
    """Every registered graph, in registration order."""
    return tuple(_SPECS.values())


def find(name: str | None) -> GraphSpec | None:
    """The graph named ``name``, or None."""
    return _SPECS.get(name) if name else None


def get(name: str) -> GraphSpec:
    """The graph named ``name``.

    Raises:
        KeyError: No such graph.
    """
    spec = find(name)
    if spec is None:
        raise KeyError(f"no graph {name!r}; registered: {', '.join(_SPECS)}")
    return spec


def by_protocol(protocol: str) -> GraphSpec:
    """The graph of the debate protocol ``protocol``.

    Raises:
        KeyError: No such protocol.
    """
    spec = find_protocol(protocol)
    if spec is None:
        known = ", ".join(s.protocol for s in _SPECS.values() if s.protocol)
        raise KeyError(f"no protocol {protocol!r}; registered: {known}")
    return spec


def find_protocol(protocol: str | None) -> GraphSpec | None:
    """The graph of the debate protocol ``protocol``, or None (a run of one unregistered)."""
    return next((s for s in _SPECS.values() if protocol and s.protocol == protocol), None)


def api_protocols() -> dict[str, GraphSpec]:
    """The protocols ``POST /debate/start`` serves, by name."""
    return {s.protocol: s for s in _SPECS.values() if s.protocol and s.api}


def cli_protocols() -> dict[str, GraphSpec]:
    """The protocols ``disputatio ask --protocol`` runs, by CLI name."""
    return {name: s for s in _SPECS.values() for name in s.cli_names}


def eval_graphs() -> dict[str, GraphSpec]:
    """The ``disputatio eval run`` protocols that run a registered graph, by eval name."""
    return {name: s for s in _SPECS.values() for name in s.eval_names}


def langgraph_graphs() -> dict[str, str]:
    """What the ``graphs`` section of ``langgraph.json`` must hold: name → path."""
    return {s.name: s.langgraph for s in _SPECS.values() if s.langgraph}


def check_langgraph(config: Mapping[str, Any]) -> list[str]:
    """What is wrong with a ``langgraph.json`` (parsed) against the registry.

    Every registered graph with a ``langgraph`` path must be in its ``graphs`` with that path,
    and nothing else may be there.

    Returns:
        One line per problem (empty when it matches).
    """
    listed = dict(config.get("graphs") or {})
    wanted = langgraph_graphs()
    problems = []
    for name, path in wanted.items():
        if name not in listed:
            problems.append(f'{name}: missing from langgraph.json (add "{name}": "{path}")')
        elif listed[name] != path:
            problems.append(f"{name}: langgraph.json has {listed[name]!r}, the registry {path!r}")
    problems += [
        f"{name}: in langgraph.json but not a registered served graph"
        for name in listed
        if name not in wanted
    ]
    return problems


# --- the shipped graphs (in langgraph.json's order) -------------------------------------------

register(GraphSpec(
    name="health",
    builder="disputatio.graphs.health:build_graph",
    context="disputatio.state.health:HealthContext",
    description="is the database up, does the chat model answer",
    tenant_context=False,
    langgraph="./disputatio/graphs/health/graph.py:graph",
))  # fmt: skip
register(GraphSpec(
    name="ingest",
    builder="disputatio.graphs.ingest:build_graph",
    context="disputatio.nodes.ingest.context:IngestContext",
    description="files and folders → documents, chunks, vectors and a knowledge graph",
    tenant_context=False,
    langgraph="./disputatio/graphs/ingest/graph.py:graph",
    langgraph_runs=False,  # it reads server paths: POST /ingest instead
))  # fmt: skip
register(GraphSpec(
    name="rag",
    builder="disputatio.graphs.rag:build_graph",
    context="disputatio.nodes.rag.context:RagContext",
    description="the retrieval funnel and a cited answer",
    langgraph="./disputatio/graphs/rag/graph.py:graph",
))  # fmt: skip
register(GraphSpec(
    name="debate",
    builder="disputatio.graphs.debate:build_graph",
    context="disputatio.nodes.debate.context:DebateContext",
    description="orchestrator → sub-questions → parallel workers → debate → review → synthesis",
    label="hierarchical debate",
    protocol="hierarchical",
    inputs=question_inputs,
    check=_in.debate_request,
    option_forms=("letters",),
    graph_export="disputatio.graphs.debate.export:export_graph",
    move_fields=("transcript",),
    snapshot_fields=("nodes",),
    verdict_fields=("question", "answer", "claims", "citations", "confidence", "validation",
                    "notes"),
    cli_names=("hierarchical",),
    eval_names=("hier", "hier_nodebate", "hier_flat", "hier_norag"),
    langgraph="./disputatio/graphs/debate/graph.py:graph",
))  # fmt: skip
register(GraphSpec(
    name="medrag_debate",
    builder="disputatio.graphs.medrag_debate:build_graph",
    context="disputatio.nodes.medrag.context:MedragContext",
    description="MedRAG-style two-agent debate with a verifier",
    label="MedRAG two-agent debate",
    protocol="medrag",
    inputs=_in.medrag_inputs,
    needs_options=True,
    move_fields=("turns", "summaries"),
    verdict_fields=("answer", "consensus_type", "agreement_round", "verdict", "claims",
                    "citations", "confidence", "validation", "notes"),
    cli_names=("medrag",),
    eval_names=("medrag", "medrag_norag"),
    langgraph="./disputatio/graphs/medrag_debate/graph.py:graph",
))  # fmt: skip
register(GraphSpec(
    name="referee",
    builder="disputatio.graphs.referee:build_graph",
    context="disputatio.nodes.referee.context:RefereeContext",
    description="Tech Referee: planner → advocates → cross-examiners → referee",
    label="Tech Referee",
    protocol="referee",
    inputs=_in.referee_inputs,
    check=_in.referee_request,
    option_forms=("names",),
    move_fields=("clarifications", "briefs", "cross_examinations"),
    snapshot_fields=("plan",),
    verdict_fields=("status", "plan", "ruling", "claims", "validation", "error",
                    "completed_phases"),
    langgraph="./disputatio/graphs/referee/graph.py:graph",
))  # fmt: skip
register(GraphSpec(
    name="rdc",
    builder="disputatio.graphs.rdc:build_graph",
    context="disputatio.nodes.rdc.context:RdcContext",
    description="ResearchDebateChain: a moderated multi-specialist debate over a CASE",
    label="ResearchDebateChain (case)",
    protocol="rdc",
    inputs=_in.rdc_inputs,
    check=_in.rdc_request,
    needs_question=False,  # a CASE instead
    option_forms=(),
    graph_export="disputatio.graphs.rdc.export:export_graph",
    move_fields=("moves", "votes"),
    snapshot_fields=("graph", "posterior"),
    verdict_fields=("verdict", "claims", "validation", "halt_reason", "phase_log",
                    "ledger_thread"),
    langgraph="./disputatio/graphs/rdc/graph.py:graph",
    long_term_store=True,  # the agents' private diaries
    server_context=_in.rdc_server_context,
))  # fmt: skip
