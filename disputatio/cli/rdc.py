"""``disputatio rdc [run] CASE.json``, ``disputatio rdc calibrate CASES…`` and the ledger commands.

Register with ``app.add_typer(rdc.rdc_app, name="rdc")`` (``rdc CASE.json`` runs the debate:
the first argument that is no subcommand name goes to ``run``) and
``ledger.command("verify")(rdc.ledger_verify)``, ``ledger.command("show")(rdc.ledger_show)``
(the ledger commands live in :mod:`disputatio.cli.ledger`; this module re-exports them).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.table import Table
from typer.core import TyperGroup

from disputatio.cli.claims import echo_json, render_case_claims, verdict_json
from disputatio.cli.ledger import ledger_app as ledger_app  # re-exported (cli.app)
from disputatio.cli.ledger import ledger_show as ledger_show
from disputatio.cli.ledger import ledger_verify as ledger_verify
from disputatio.cli.options import AS_JSON, COLLECTION, MODEL, SHOW_CONTEXT, TENANT, THREAD_ID
from disputatio.errors import ConfigError
from disputatio.settings import get_settings

out = Console()


class _RunByDefault(TyperGroup):
    """A group whose first argument, when it names no subcommand, goes to ``run``."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        if args and args[0] not in self.commands and not args[0].startswith("-"):
            args = ["run", *args]
        return super().parse_args(ctx, args)


rdc_app = typer.Typer(
    cls=_RunByDefault,
    help="ResearchDebateChain: debate a CASE (rdc CASE.json) or fit its calibration.",
    no_args_is_help=True,
)


@rdc_app.command("run")
def rdc(
    case_file: Path = typer.Argument(..., help="The CASE.json file."),
    out_dir: Path | None = typer.Option(
        None, "--out", "-o", help="Write debate.jsonld, debate.graphml and verdict.json here."
    ),
    thread_id: str | None = THREAD_ID,
    tenant: str | None = TENANT,
    collection: str | None = COLLECTION,
    model: str | None = MODEL,
    specialists: str | None = typer.Option(
        None, "--specialists", help="Comma-separated specialist names (default: the case's)."
    ),
    max_rounds: int | None = typer.Option(None, "--max-rounds", help="Round budget."),
    speaker_selection: str | None = typer.Option(
        None, "--speaker-selection", help="round_robin, linucb or thompson."
    ),
    semantics: str | None = typer.Option(None, "--semantics", help="bipolar or derived."),
    max_tokens: int | None = typer.Option(None, "--max-tokens", help="Budget per agent call."),
    no_appeal: bool = typer.Option(False, "--no-appeal", help="Never hold an appeal."),
    show_context: bool = SHOW_CONTEXT,
    as_json: bool = typer.Option(
        False,
        "--json",
        help="Print the verdict as one JSON object (as GET /debate/{id}/verdict answers it, "
        "claims included); progress goes to stderr.",
    ),
) -> None:
    """Debate a case with specialists, then print the jury's differential and test plan.

    An unfinished ``--thread-id`` is resumed; a new id (the default) starts a debate.
    """
    import uuid

    from disputatio.graphs.rdc import RdcContext, read_case_file
    from disputatio.nodes.rdc.case import resolve_specialists
    from disputatio.storage.ledger import PostgresLedger

    settings = get_settings()
    case = read_case_file(case_file)
    names = _specialist_names(specialists)
    thread = thread_id or f"rdc-{uuid.uuid4().hex[:12]}"
    context = RdcContext(
        model=model,
        settings=settings,
        tenant=tenant,
        collection=collection,
        specialists=names,
        max_rounds=max_rounds,
        speaker_selection=speaker_selection,
        semantics=semantics,
        max_tokens=max_tokens,
        appeal=not no_appeal,
        ledger=PostgresLedger(settings),
    )
    context.config()  # bad knobs fail here, in one line, before any database work
    resolve_specialists(case, names)  # so do repeated specialist names
    screen = Console(stderr=True) if as_json else out  # with --json, stdout is the JSON alone
    screen.print(f"[bold]{case.title or case.id}[/]  thread [cyan]{thread}[/]")
    state = _debate(case, context, thread, settings, screen)
    verdict = state["verdict"]
    if as_json:
        echo_json(verdict_json("rdc", thread, state))
    else:
        print_verdict(verdict)
        render_case_claims(state, out, "claims, each checked against its sections")
    if show_context:
        print_evidence(state, settings, screen)
    if out_dir is not None:
        write_exports(out_dir, state["graph"], verdict)
        screen.print(f"wrote {out_dir}/debate.jsonld, debate.graphml, verdict.json")
    screen.print(f"verify with: disputatio ledger verify {thread}")


def _specialist_names(specialists: str | None) -> list[str] | None:
    """``--specialists a,b`` → ``["a", "b"]`` (None: the case's own specialists).

    Raises:
        ConfigError: If the option names no specialist.
    """
    if specialists is None:
        return None
    names = [s.strip() for s in specialists.split(",") if s.strip()]
    if not names:
        raise ConfigError("--specialists names no specialist (e.g. infectious,autoimmune)")
    return names


def _debate(case: Any, context: Any, thread: str, settings: Any, screen: Console) -> Any:
    """Run (or resume) the debate of ``thread``, printing its events; return its final state.

    Raises:
        ConfigError: If the thread already holds a finished debate.
    """
    from disputatio.graphs.rdc import build_graph
    from disputatio.storage.checkpoint import open_checkpointer, open_store, unfinished

    config: Any = {"configurable": {"thread_id": thread}}
    with open_checkpointer(settings) as saver, open_store(settings) as store:
        graph = build_graph().compile(checkpointer=saver, store=store, name="rdc")
        snapshot = graph.get_state(config)
        running = unfinished(snapshot)
        if snapshot.values.get("verdict") and not running:
            raise ConfigError(f"thread {thread} already holds a debate: start a new thread id")
        inputs = None if running else {"case": case.model_dump(mode="json")}
        for _, chunk in graph.stream(
            inputs, config, context=context, stream_mode=["updates", "custom"]
        ):
            if isinstance(chunk, dict) and "event" in chunk:
                _print_event(chunk, screen)
        return graph.get_state(config).values


@rdc_app.command("calibrate")
def calibrate(
    cases: list[Path] = typer.Argument(
        ...,
        help="CASE.json files with a gold hypothesis, or directories of them "
        "(the shipped worked cases: disputatio/data/cases).",
    ),
    as_json: bool = AS_JSON,
) -> None:
    """Fit the quality exponent α and the per-source reliabilities β by Brier score.

    Each case's known findings are fused under (α, β); the fit minimises the mean multi-class
    Brier score over the cases (ECE reported beside it), and leave-one-out scores tell whether it
    generalises. Findings are grouped by their ``source`` field, one β per group.
    """
    from disputatio.nodes.rdc.calibrate import calibration_report

    report = calibration_report(cases)
    if as_json:
        typer.echo(json.dumps(report, indent=2))
        return
    table = Table(title=f"RDC calibration over {report['cases']} cases")
    for col in ("setting", "alpha", "betas", "Brier", "ECE", "accuracy"):
        table.add_column(col)
    for name in ("default", "fitted", "leave_one_out"):
        row = report[name]
        betas = ", ".join(f"{g}={b:.1f}" for g, b in sorted(row["betas"].items())) or "1"
        table.add_row(name, f"{row['alpha']:.2f}", betas, f"{row['brier']:.4f}",
                      f"{row['ece']:.4f}", f"{row['accuracy']:.2f}")  # fmt: skip
    out.print(table)
    fit = report["fitted"]
    betas = ", ".join(f"{g} = {b:g}" for g, b in sorted(fit["betas"].items()))
    out.print(
        f"to use the fit: [rdc] quality_alpha = {fit['alpha']:g}, reliabilities = {{ {betas} }} "
        "in disputatio.toml (check the leave-one-out row first: it is the honest score)",
        markup=False,  # "[rdc]" is the TOML section, not a style tag
    )


def _print_event(event: dict[str, Any], console: Console | None = None) -> None:
    console = console or out
    kind = event["event"]
    if kind == "turn":
        console.print(
            f"[dim]round {event['round']} · {event['phase']} ·[/] [bold]{event['agent']}[/]"
        )
    elif kind == "move":
        added = ", ".join(event["nodes"]) or "nothing"
        console.print(f"  {event['summary'] or '(no summary)'}  [green]+{added}[/]")
        for r in event["rejected"]:
            console.print(f"  [red]rejected {r['what']}[/] {r.get('id', '')}: {r['reason']}")
        console.print(
            f"  entropy {event['entropy_before']:.3f} → {event['entropy_after']:.3f} nats"
        )
    elif kind == "vote":
        console.print(
            f"[bold]{event['speaker']}[/] votes {' > '.join(event['ranking']) or 'abstain'}"
        )
    elif kind == "halt":
        console.print(f"[yellow]debate stops:[/] {event['reason']}")
    elif kind == "appeal":
        console.print(f"[yellow]appeal[/] by {', '.join(event['speakers'])}")


def _delta(value: float | None) -> str:
    return "-inf (rules the leader out)" if value is None else f"{value:+.2f}"


def _fmt(value: Any) -> str:
    return "—" if value is None else f"{value:.3f}"


def print_verdict(verdict: dict[str, Any]) -> None:
    """Print the differential, test plan, disagreement and counter-evidence of a verdict."""
    table = Table(title=f"Differential (halt: {verdict['halt_reason'] or 'vote'})")
    for col in ("hypothesis", "prior", "posterior"):
        table.add_column(col)
    for row in verdict["differential"]:
        table.add_row(row["label"], _fmt(row["prior"]), _fmt(row["posterior"]))
    out.print(table)
    plan = Table(title="Test plan (by expected utility)")
    for col in ("#", "test", "EIG (nats)", "utility", "cost", "risk"):
        plan.add_column(col)
    for i, t in enumerate(verdict["test_plan"], 1):
        plan.add_row(str(i), t["label"], _fmt(t["eig"]), _fmt(t["utility"]), _fmt(t["cost"]),
                     _fmt(t["risk"]))  # fmt: skip
    out.print(plan)
    for t in verdict["excluded_tests"]:
        out.print(f"excluded by the risk limit: {t['test']} (risk {t['risk']:.2f})")
    split = verdict["disagreement"]
    if split:
        out.print(
            f"disagreement index {_fmt(split['index'])} (vote entropy "
            f"{_fmt(split['vote_entropy'])}, mean Kendall τ {_fmt(split['mean_tau'])})"
        )
    change = verdict["what_would_change_our_mind"]
    flips = [f for f, flip in change["finding_flips"].items() if flip]
    out.print(
        f"what would change our mind: an odds shift > {change['odds_shift']:.3f} nats from "
        f"{change['top']} to {change['runner_up']}; single findings that flip it: "
        f"{', '.join(flips) or 'none'}"
    )
    reversing = [row for row in change.get("test_pairs", []) if row["reverses"]]
    for row in reversing[:6]:  # the first six outcomes that would reverse a top pair
        out.print(
            f"  {row['test']} = {row['outcome']} would reverse {row['pair'][0]} over "
            f"{row['pair'][1]} (Δ {_delta(row['delta'])} nats, P {row['probability']:.2f})"
        )
    defeat = change.get("defeat_set")
    out.print(
        "evidence whose defeat flips the verdict: "
        + (f"{', '.join(defeat['ids'])} (→ {defeat['challenger']})" if defeat else "none")
    )
    cut = change.get("support_cut")
    if cut:
        out.print(
            f"support of {cut['hypothesis']}: {len(cut['paths'])} paths, cut by "
            f"{', '.join(cut['members']) or 'nothing'}"
        )
    minimal = verdict["minimal_counter_evidence"]
    out.print(
        "minimal counter-evidence: "
        + (f"{', '.join(minimal['ids'])} (→ {minimal['challenger']})" if minimal else "none")
    )
    if verdict.get("calibration"):
        cal = verdict["calibration"]
        out.print(
            f"calibration vs gold {cal['gold']}: Brier {cal['multiclass_brier']:.3f}, "
            f"ECE {cal['ece']:.3f}"
        )


def corpus_evidence(state: dict[str, Any]) -> tuple[list[str], bool]:
    """Corpus section ids behind a debate: those its graph cites, else every one retrieved.

    Returns:
        ``(ids, cited)``: ``cited`` says whether the ids are cited by a node of the graph.
    """
    retrieved = list(dict.fromkeys(state.get("retrieved_ids") or []))
    cited = {p for n in (state.get("graph") or {}).get("nodes", []) for p in n["provenance"]}
    chosen = [i for i in retrieved if i in cited]
    return (chosen, True) if chosen else (retrieved, False)


def print_evidence(state: dict[str, Any], settings: Any, console: Console | None = None) -> None:
    """Print the corpus sections behind the verdict (``--show-context``) on ``console``."""
    from rich.text import Text

    from disputatio.retrievers.postgres import PostgresBackend

    console = console or out
    ids, cited = corpus_evidence(state)
    console.rule("evidence (cited sections)" if cited else "evidence (retrieved sections)")
    sections = PostgresBackend(settings).sections(ids) if ids else {}
    if not sections:
        console.print("no corpus section was retrieved (the case's own findings are above)")
    for sid in ids:
        if sid in sections:
            s = sections[sid]
            page = f", page {s.page}" if s.page is not None else ""
            console.print(Text(f"[{sid}] {s.source or ''}{page}", style="bold"))
            console.print(Text(" ".join(s.text.split())[:600]))


def write_exports(out_dir: Path, graph: dict[str, Any], verdict: dict[str, Any]) -> None:
    """Write the final debate graph (JSON-LD, GraphML) and the verdict (JSON) to ``out_dir``."""
    from disputatio.argumentation import DebateGraph

    debate = DebateGraph.from_dict(graph)
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "debate.jsonld").write_text(json.dumps(debate.to_jsonld(), indent=2), "utf-8")
    (out_dir / "debate.graphml").write_text(debate.to_graphml(), "utf-8")
    (out_dir / "verdict.json").write_text(json.dumps(verdict, indent=2), "utf-8")
