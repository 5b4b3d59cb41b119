"""``disputatio ask``: run a debate protocol on a question, live, with a checkpointed thread.

Protocols are the graph registry's entries with CLI names
(:func:`disputatio.graphs.registry.cli_protocols`); each builds its graph (``build_graph()``)
and its input from ``{"question", "options"}`` (its input builder), and returns at least
``answer`` (and, for the rendering, ``citations``, ``transcript``, ``usage`` when it has them).
Every run is checkpointed in Postgres under a thread id, so an interrupted run continues with
``--thread-id ID --resume``.
"""

from __future__ import annotations

import dataclasses
import uuid
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, cast

import typer
from rich.console import Console, Group
from rich.live import Live
from rich.panel import Panel
from rich.table import Column, Table
from rich.text import Text

from disputatio.cli.claims import (
    echo_json,
    render_claims,
    source_index,
    support_line,
    verdict_json,
)
from disputatio.cli.options import COLLECTION, MODEL, RESUME, SHOW_CONTEXT, TENANT, THREAD_ID
from disputatio.errors import ConfigError
from disputatio.graphs import registry
from disputatio.settings import Settings, get_settings

if TYPE_CHECKING:  # langgraph loads when a command runs, not for --help
    from langchain_core.runnables import RunnableConfig
    from langgraph.graph import StateGraph

out = Console()

#: Moves shown in the live table at most.
LIVE_MOVES = 12


def protocols() -> dict[str, registry.GraphSpec]:
    """The protocols ``ask`` runs, by name (the registry's CLI names)."""
    return registry.cli_protocols()


def protocol_spec(protocol: str) -> registry.GraphSpec:
    """The registry entry of ``protocol``.

    Raises:
        ConfigError: For an unknown protocol.
    """
    known = protocols()
    if protocol not in known:
        raise ConfigError(f"unknown protocol {protocol!r} (known: {', '.join(known)})")
    return known[protocol]


def load_builder(protocol: str) -> StateGraph[Any, Any, Any, Any]:
    """Import the protocol's module lazily and return its uncompiled graph.

    Raises:
        ConfigError: For an unknown or unavailable protocol.
    """
    spec = protocol_spec(protocol)
    try:
        return spec.build()
    except ImportError as exc:
        raise ConfigError(f"protocol {protocol!r} is not available: {exc}") from exc


def parse_options(items: Iterable[str]) -> dict[str, str] | None:
    """Turn ``["A=text", "B=text"]`` into ``{"A": "text", "B": "text"}`` (None when empty).

    Raises:
        typer.BadParameter: For an item without ``=`` or a repeated letter.
    """
    options: dict[str, str] = {}
    for item in items:
        key, sep, text = item.partition("=")
        key, text = key.strip(), text.strip()
        if not sep or not key or not text:
            raise typer.BadParameter(f"expected LETTER=text, got {item!r}", param_hint="--option")
        if key in options:
            raise typer.BadParameter(f"option {key!r} given twice", param_hint="--option")
        options[key] = text
    return options or None


def make_context(
    builder: StateGraph[Any, Any, Any, Any],
    *,
    model: str | None,
    settings: Settings,
    tenant: str | None = None,
    collection: str | None = None,
) -> Any:
    """Instantiate the graph's context schema with the model, corpus scope and settings."""
    schema = builder.context_schema
    if schema is None or not dataclasses.is_dataclass(schema):
        return None
    names = {f.name for f in dataclasses.fields(schema)}
    kwargs: dict[str, Any] = {}
    if "model" in names and model:
        kwargs["model"] = model
    if "settings" in names:
        kwargs["settings"] = settings
    if "tenant" in names and tenant:
        kwargs["tenant"] = tenant
    if "collection" in names and collection:
        kwargs["collection"] = collection
    return schema(**kwargs)


def run_protocol(
    graph: Any,
    inputs: Mapping[str, Any] | None,
    config: RunnableConfig | Mapping[str, Any],
    context: Any,
    on_chunk: Callable[[str, Any], None] | None = None,
) -> dict[str, Any]:
    """Stream a compiled, checkpointed graph (``updates`` + ``custom``); return its state.

    Args:
        graph: The compiled graph (with a checkpointer).
        inputs: The input, or None to resume the thread.
        config: ``{"configurable": {"thread_id": ...}}``.
        context: The run context.
        on_chunk: Called with ``(mode, chunk)`` for every streamed chunk.
    """
    run_config = cast("RunnableConfig", dict(config))
    for mode, chunk in graph.stream(
        None if inputs is None else dict(inputs),
        run_config,
        context=context,
        stream_mode=["updates", "custom"],
    ):
        if on_chunk is not None:
            on_chunk(mode, chunk)
    return dict(graph.get_state(run_config).values)


class MoveBoard:
    """The live view: the latest moves and the latest progress event."""

    def __init__(self) -> None:
        self.moves: list[Mapping[str, Any]] = []
        self.status = "starting…"

    def feed(self, mode: str, chunk: Any) -> None:
        """Take one streamed chunk."""
        if mode == "custom" and isinstance(chunk, Mapping):
            data = ", ".join(
                f"{k}={_short(v, 40)}"
                for k, v in chunk.items()
                if k not in ("event", "content", "citations", "unverified", "queries")
            )
            self.status = f"{chunk.get('event', 'event')}: {data}"
        elif mode == "updates" and isinstance(chunk, Mapping):
            for update in chunk.values():
                if isinstance(update, Mapping):
                    self.moves.extend(m for m in update.get("transcript") or [] if _is_move(m))

    def render(self) -> Group:
        """The renderable for ``rich.live.Live``."""
        table = Table("agent", "role", "round", "move", expand=True, show_lines=False)
        for move in self.moves[-LIVE_MOVES:]:
            table.add_row(
                Text(str(move.get("agent", "?"))),
                Text(str(move.get("role", ""))),
                Text(str(move.get("round", ""))),
                Text(_short(move.get("content", ""), 120)),
            )
        return Group(table, Text(self.status, style="dim"))


def _is_move(move: Any) -> bool:
    return isinstance(move, Mapping) and "content" in move


def _short(value: Any, width: int) -> str:
    text = " ".join(str(value).split())
    return text if len(text) <= width else text[: width - 1] + "…"


def _citation_row(citation: Any) -> tuple[Text, Text, Text]:
    if isinstance(citation, Mapping):
        page = citation.get("page")
        cells = (str(citation.get("id", "?")), str(citation.get("source") or ""), str(page or ""))
    else:
        cells = (str(citation), "", "")
    return Text(cells[0]), Text(cells[1]), Text(cells[2])


#: Characters of each evidence section printed by ``--show-context``.
CONTEXT_CHARS = 600


def evidence(values: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The sections behind the answer: the cited ones, else every section retrieved."""
    sections = values.get("sections") or {}
    cited = [c.get("id") if isinstance(c, Mapping) else c for c in values.get("citations") or []]
    chosen = [sections[i] for i in cited if i in sections]
    return chosen or list(sections.values())


def render_context(values: Mapping[str, Any], console: Console) -> None:
    """Print the evidence sections (``--show-context``)."""
    items = evidence(values)
    cited = bool(values.get("citations"))
    console.rule("evidence (cited sections)" if cited else "evidence (retrieved sections)")
    if not items:
        console.print("no section was retrieved")
    for item in items:
        page = f", page {item['page']}" if item.get("page") is not None else ""
        console.print(Text(f"[{item.get('id')}] {item.get('source', '')}{page}", style="bold"))
        console.print(Text(_short(item.get("text", ""), CONTEXT_CHARS)))


def render_transcript(values: Mapping[str, Any], console: Console) -> None:
    """Print every move of the debate, whichever protocol ran it."""
    console.rule("transcript")
    moves = [m for m in values.get("transcript") or [] if _is_move(m)]
    if not moves:
        console.print("(this run recorded no transcript)")
    for move in moves:
        head = f"{move.get('agent', '?')} ({move.get('role', '')}, round {move.get('round', '')})"
        queries = move.get("queries") or []
        if queries:
            head += f" searched: {'; '.join(_short(q, 60) for q in queries)}"
        console.print(Text(head, style="bold"))
        console.print(Text(str(move.get("content", ""))))


def _number(value: Any) -> str:
    return f"{value:.2f}" if isinstance(value, float) else str(value)


def validation_lines(values: Mapping[str, Any]) -> list[str]:
    """The checks of the answer, for people: how many claims are supported, then the rest.

    The ``support`` check is the line that says what was verified (how many factual claims a
    cited sentence supports); the ``citations`` check (cited ids were shown) is folded into it,
    printed only when it removed something; other checks print their message. Without a
    ``confidence`` check, the result's own confidence follows.
    """
    lines = [support_line(values.get("claims") or [])]
    checks = values.get("validation") or []
    for check in checks:
        name = check.get("name")
        if name == "support" or (name == "citations" and check.get("passed")):
            continue
        flag = "" if check.get("passed") else " (flagged)"
        lines.append(f"{name}{flag}: {check.get('message', '')}")
    if "confidence" in values and not any(c.get("name") == "confidence" for c in checks):
        lines.append(f"confidence: {_number(values['confidence'])}")
    return lines


def render_result(
    values: Mapping[str, Any],
    *,
    show_transcript: bool,
    console: Console,
    show_context: bool = False,
) -> None:
    """Print the answer claim by claim, its citations, the checks, usage (transcript, evidence).

    An answer without claims (a checker that did not run) is printed whole, and the support
    line says it was not checked. Model text is printed as plain text: ``[section-id]``
    citations are not rich markup.
    """
    if show_transcript:
        render_transcript(values, console)
    if show_context:
        render_context(values, console)
    claims = values.get("claims") or []
    if claims:
        if values.get("consensus_type"):  # MedRAG: the answer is the chosen option
            console.print(Text(f"answer: {values.get('answer')}", style="bold"))
        render_claims(claims, console, sources=source_index(values))
    else:
        answer = Text(str(values.get("answer") or "(no answer)"))
        console.print(Panel(answer, title="answer", expand=False))
    citations = values.get("citations") or []
    if citations:
        # a long path wraps rather than losing its file name to an ellipsis
        table = Table("id", Column("source", overflow="fold"), "page", title="citations")
        for citation in citations:
            table.add_row(*_citation_row(citation))
        console.print(table)
    else:
        console.print("no citations")
    extras = validation_lines(values)[1 if claims else 0 :]  # render_claims said support
    if "consensus_type" in values:
        extras.append(f"consensus_type: {values['consensus_type']}")
    extras += [f"note: {n}" for n in values.get("notes") or []]
    usage = values.get("usage") or {}
    calls = sum(int(r.get("calls", 0)) for r in usage.values())
    tokens = sum(
        int(r.get("input_tokens", 0)) + int(r.get("output_tokens", 0)) for r in usage.values()
    )
    extras.append(f"usage: {len(usage)} agents, {calls} calls, {tokens} tokens")
    for line in extras:
        console.print(Text(line))


def ask(
    question: str = typer.Argument("", help="The question (omit with --resume)."),
    protocol: str = typer.Option(
        "hierarchical", "--protocol", "-p", help=f"Debate protocol: {', '.join(protocols())}."
    ),
    options: list[str] = typer.Option(
        [], "--option", help="Answer option as LETTER=text; repeat for each option."
    ),
    show_transcript: bool = typer.Option(False, "--show-transcript", help="Print every move."),
    show_context: bool = SHOW_CONTEXT,
    thread_id: str | None = THREAD_ID,
    resume: bool = RESUME,
    model: str | None = MODEL,
    tenant: str | None = TENANT,
    collection: str | None = COLLECTION,
    as_json: bool = typer.Option(
        False,
        "--json",
        help="Print the verdict as one JSON object (as GET /debate/{id}/verdict answers it: "
        "answer, claims, citations, validation, confidence); progress goes to stderr.",
    ),
) -> None:
    """Answer a question from your documents with a multi-agent debate."""
    from disputatio.storage.checkpoint import open_checkpointer, unfinished

    settings = get_settings()
    if resume and not thread_id:
        raise typer.BadParameter("--resume needs --thread-id", param_hint="--resume")
    if not resume and not question.strip():
        raise typer.BadParameter("a question is required", param_hint="QUESTION")
    spec = protocol_spec(protocol)
    if spec.needs_options and not resume and not options:
        raise typer.BadParameter(
            f"the {protocol} protocol needs answer options: --option A=text --option B=text",
            param_hint="--option",
        )
    builder = load_builder(protocol)
    context = make_context(
        builder, model=model, settings=settings, tenant=tenant, collection=collection
    )
    thread = thread_id or f"ask-{uuid.uuid4().hex[:12]}"
    config: RunnableConfig = {"configurable": {"thread_id": thread}}
    inputs = (
        None
        if resume
        else spec.graph_input({"question": question, "options": parse_options(options)}, None)
    )
    board = MoveBoard()
    screen = Console(stderr=True) if as_json else out  # with --json, stdout is the JSON alone
    with open_checkpointer(settings) as saver:
        graph = builder.compile(checkpointer=saver, name=protocol)
        snapshot = graph.get_state(config) if thread_id else None
        if resume:
            if snapshot is None or not snapshot.values:
                raise ConfigError(f"no run with thread id {thread!r} to resume")
            if not unfinished(snapshot):
                screen.print(Text(f"thread {thread} had already finished"))
        elif snapshot is not None and snapshot.values:
            raise ConfigError(
                f"thread {thread!r} already holds a run; pass --resume to continue it, or "
                "leave out --thread-id (or pick a new one) to ask a new question"
            )
        with Live(board.render(), console=screen, refresh_per_second=4, transient=True) as live:

            def on_chunk(mode: str, chunk: Any) -> None:
                board.feed(mode, chunk)
                live.update(board.render())

            values = run_protocol(graph, inputs, config, context, on_chunk)
    if as_json:  # the transcript and evidence asked for go to stderr
        if show_transcript:
            render_transcript(values, screen)
        if show_context:
            render_context(values, screen)
        echo_json(verdict_json(spec.protocol or protocol, thread, values))
    else:
        render_result(
            values, show_transcript=show_transcript, show_context=show_context, console=out
        )
    screen.print(Text(f"thread: {thread}", style="dim"))
