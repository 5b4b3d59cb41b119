"""``disputatio referee``: compare technologies with the Tech Referee graph, from the terminal.

Runs on the Postgres checkpointer, so a run paused for clarification questions can be
answered later (``--thread-id`` with the printed id) or right away (interactive prompts, or
``--answers JSON`` for scripts). ``--show-context`` prints the sections the agents cited.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.panel import Panel
from rich.prompt import Prompt
from rich.table import Table

from disputatio.cli.claims import echo_json, render_case_claims, verdict_json
from disputatio.cli.options import COLLECTION, MODEL, SHOW_CONTEXT, TENANT, THREAD_ID
from disputatio.errors import ConfigError
from disputatio.settings import Settings, get_settings
from disputatio.state.referee import ClarificationQuestion, RefereeResult, SourceRef

if TYPE_CHECKING:  # the graph and langgraph load when a command runs, not for --help
    from langchain_core.runnables import RunnableConfig

    from disputatio.graphs.referee import RefereeContext

out = Console()

#: Answers one clarification interrupt: gets the interrupt value, returns the resume value.
Answerer = Callable[[dict[str, Any]], Any]


def make_context(
    model: str | None,
    settings: Settings,
    tenant: str | None = None,
    collection: str | None = None,
) -> RefereeContext:
    """The run context of the command (tests replace this to inject models).

    Resolves the web search now, so a misconfigured one (key set, integration missing) is a
    one-line error before any model runs.
    """
    from disputatio.graphs.referee import RefereeContext
    from disputatio.tools.web_search import web_search_from_settings

    web = web_search_from_settings(settings.referee.web_search)
    return RefereeContext(
        model=model, settings=settings, tenant=tenant, collection=collection, web_search=web
    )


def parse_answers(text: str | None) -> Any:
    """Parse ``--answers``: JSON (object by question id, list in order, or a string).

    Text that is not JSON is a bare answer to the first question.

    Raises:
        ConfigError: JSON of another kind (a number, ``null``...).
    """
    if text is None:
        return None
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        return text
    if not isinstance(value, dict | list | str):
        raise ConfigError(
            f"--answers must be a JSON object, list or string, not {type(value).__name__}"
        )
    return value


def check_request(query: str, options: list[str] | None) -> None:
    """Reject a request the referee cannot start from (one line, no traceback).

    Raises:
        ConfigError: An empty query, an empty or repeated ``--option``.
    """
    if not query.strip():
        raise ConfigError("the question is empty: say what to decide, e.g. 'pgvector or FAISS?'")
    names = [o.strip() for o in options or []]
    if any(not n for n in names):
        raise ConfigError("--option needs a name")
    if len({n.casefold() for n in names}) < len(names):
        raise ConfigError("--option names the same option twice")


def preset_answerer(answers: Any) -> Answerer:
    """Answer every interrupt from ``answers`` (a dict serves every round, others the first)."""
    rounds = [0]

    def answer(value: dict[str, Any]) -> Any:
        rounds[0] += 1
        return answers if isinstance(answers, dict) or rounds[0] == 1 else {}

    return answer


def prompt_answerer(console: Console) -> Answerer:
    """Ask each question on the terminal with rich prompts."""

    def answer(value: dict[str, Any]) -> dict[str, Any]:
        console.print(Panel(f"The request is ambiguous: {value.get('query', '')}", title="clarify"))
        answers: dict[str, Any] = {}
        for raw in value.get("questions", []):
            q = ClarificationQuestion.model_validate(raw)
            console.print(f"[bold]{q.question}[/]")
            for i, choice in enumerate(q.choices, 1):
                console.print(f"  {i}. {choice}")
            hint = {
                "single_choice": "number or text",
                "multi_choice": "numbers or texts, comma-separated",
                "free_text": "text",
            }[q.kind]
            answers[q.id] = Prompt.ask(f"answer ({hint})", console=console, default="")
        return answers

    return answer


def run_referee(
    inputs: dict[str, Any],
    *,
    context: RefereeContext,
    settings: Settings,
    thread_id: str,
    answerer: Answerer,
    on_event: Callable[[dict[str, Any]], None] = lambda e: None,
) -> RefereeResult:
    """Run (or resume) the referee on ``thread_id`` with the Postgres checkpointer.

    A new thread starts from ``inputs``; a thread paused for clarification is answered and
    resumed; a thread that stopped mid-run (crash) is resumed where it stopped; a finished
    thread is only read back. Interrupts are answered by ``answerer``.
    """
    values = run_referee_state(
        inputs,
        context=context,
        settings=settings,
        thread_id=thread_id,
        answerer=answerer,
        on_event=on_event,
    )
    return RefereeResult.model_validate(values)


def run_referee_state(
    inputs: dict[str, Any],
    *,
    context: RefereeContext,
    settings: Settings,
    thread_id: str,
    answerer: Answerer,
    on_event: Callable[[dict[str, Any]], None] = lambda e: None,
) -> dict[str, Any]:
    """:func:`run_referee`, returning the final state as is (``claims`` included, if any)."""
    from langgraph.types import Command

    from disputatio.graphs.referee import build_graph
    from disputatio.storage.checkpoint import open_checkpointer, unfinished

    config: RunnableConfig = {"configurable": {"thread_id": thread_id}}
    with open_checkpointer(settings) as saver:
        attempts = settings.referee.max_retries + 1
        graph = build_graph(max_attempts=attempts).compile(checkpointer=saver, name="referee")
        snapshot = graph.get_state(config)
        pending = [i.value for i in snapshot.interrupts]
        payload: Any = inputs if not snapshot.values else None  # None resumes a stopped run
        running = not snapshot.values or unfinished(snapshot)
        for _ in range(context.clarification_cap() + 2):
            if pending:
                payload = Command(resume=answerer(pending[0]))
            elif not running:
                break
            pending = []
            for mode, chunk in graph.stream(
                payload, config, context=context, stream_mode=["updates", "custom"]
            ):
                if mode == "custom" and isinstance(chunk, dict):
                    on_event(chunk)
                elif isinstance(chunk, dict) and "__interrupt__" in chunk:
                    pending += [i.value for i in chunk["__interrupt__"]]
            running = False
        if pending:
            raise ConfigError(f"thread {thread_id} still waits for answers after every round")
        return dict(graph.get_state(config).values)


def show_event(event: dict[str, Any], console: Console | None = None) -> None:
    """Print one progress event (on ``console``, default: stdout)."""
    console = console or out
    if event.get("event") == "clarification":
        console.print(
            f"[yellow]?[/] the planner has {event.get('questions')} clarification question(s)"
        )
    elif event.get("event") == "turn":
        mark = {"start": "[dim]…[/]", "done": "[green]✓[/]", "failed": "[red]✗[/]"}
        extra = event.get("options") or event.get("recommendation") or event.get("error") or ""
        console.print(
            f"{mark.get(str(event.get('status')), '·')} {event.get('agent')} {extra}".rstrip()
        )


def show_result(result: RefereeResult) -> None:
    """Print the comparison table, the recommendation, trade-offs, caveats and errors."""
    if result.plan is not None:
        ruling = result.ruling
        options = [o.name for o in result.plan.options]
        table = Table(title="Comparison (scores 1-10, totals computed from the weights)")
        table.add_column("Axis")
        table.add_column("Weight", justify="right")
        for o in options:
            table.add_column(o, justify="right")
        cells = {(s.option, s.axis): s.score for s in ruling.scores} if ruling else {}
        for a in result.plan.axes:
            table.add_row(
                a.name, str(a.weight), *[str(cells.get((o, a.name), "–")) for o in options]
            )
        if ruling is not None:
            totals = {t.option: f"{t.weighted_score:.2f}" for t in ruling.totals}
            table.add_row("[bold]weighted score[/]", "", *[totals.get(o, "–") for o in options])
        out.print(table)
    if result.ruling is not None:
        r = result.ruling
        lines = [f"[bold]{r.recommendation or '–'}[/] (confidence: {r.confidence})"]
        if r.overridden_by:
            lines.append(f"over the weighted totals because of: {r.overridden_by}")
        lines += [f"if {t.if_matters} matters, choose {t.choose}" for t in r.trade_offs]
        lines += [f"[yellow]caveat:[/] {c}" for c in r.caveats]
        out.print(Panel("\n".join(lines), title="recommendation", expand=False))
    for w in result.warnings:
        out.print(f"[yellow]{w.code}[/] ({w.agent}): {w.message}")
    if result.error is not None:
        again = " (retryable)" if result.error.retryable else ""
        out.print(f"[red]{result.error.code}[/]{again}: {result.error.message}")
        out.print(f"completed phases: {', '.join(result.completed_phases) or 'none'}")


def show_context(result: RefereeResult, console: Console | None = None) -> None:
    """Print every cited section: id, title, document and a quote, with who cited it."""
    console = console or out
    cited: dict[str, tuple[SourceRef, list[str]]] = {}
    for agent, refs in [(b.agent, b.evidence) for b in result.briefs] + [
        (e.agent, e.evidence) for e in result.cross_examinations
    ]:
        for ref in refs:
            cited.setdefault(ref.id, (ref, []))[1].append(agent)
    if not cited:
        console.print("[dim]no section was cited[/]")
        return
    table = Table(title="Cited sources")
    for col in ("Id", "Source", "Cited by", "Quote"):
        table.add_column(col, overflow="fold")
    for ref, agents in cited.values():
        where = " — ".join(x for x in (ref.title, ref.source) if x)
        table.add_row(ref.id, where or "–", ", ".join(agents), ref.quote)
    console.print(table)


def referee(
    query: Annotated[
        str, typer.Argument(help="The decision, e.g. 'pgvector or FAISS for 10M vectors?'")
    ],
    out_dir: Annotated[
        Path | None, typer.Option("--out", "-o", help="Write report.md and chart.png here.")
    ] = None,
    thread_id: str | None = THREAD_ID,
    model: str | None = MODEL,
    tenant: str | None = TENANT,
    collection: str | None = COLLECTION,
    show_sources: bool = SHOW_CONTEXT,
    answers: Annotated[
        str | None,
        typer.Option(help='Clarification answers as JSON ({"q1": "..."} or a list); no prompts.'),
    ] = None,
    options: Annotated[
        list[str] | None, typer.Option("--option", help="An option to compare (repeatable).")
    ] = None,
    as_json: Annotated[
        bool,
        typer.Option(
            "--json",
            help="Print the verdict as one JSON object (as GET /debate/{id}/verdict answers "
            "it, claims included); progress and prompts go to stderr.",
        ),
    ] = False,
) -> None:
    """Referee a technology choice: advocates per option, cross-examination, weighted scores."""
    check_request(query, options)
    preset = parse_answers(answers)
    settings = get_settings()
    context = make_context(model, settings, tenant, collection)
    thread = thread_id or f"referee-{uuid.uuid4().hex[:12]}"
    inputs: dict[str, Any] = {"query": query, **({"options": options} if options else {})}
    screen = Console(stderr=True) if as_json else out  # with --json, stdout is the JSON alone
    screen.print(f"thread: {thread}")
    values = run_referee_state(
        inputs,
        context=context,
        settings=settings,
        thread_id=thread,
        answerer=preset_answerer(preset) if answers is not None else prompt_answerer(screen),
        on_event=lambda event: show_event(event, screen),
    )
    result = RefereeResult.model_validate(values)
    if as_json:
        echo_json(verdict_json("referee", thread, values))
    else:
        show_result(result)
        render_case_claims(values, out, "the advocates' claims, each checked against its sections")
    if show_sources:
        show_context(result, screen)
    if out_dir is not None:
        from disputatio.reports import write_referee_report

        md, chart = write_referee_report(result, out_dir)
        screen.print(f"report: {md}" + (f", chart: {chart}" if chart else ""))
    if result.status != "ok":
        raise typer.Exit(1)
