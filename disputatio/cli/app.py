"""The root typer application and the error boundary of the CLI."""

from __future__ import annotations

import logging

import typer

app = typer.Typer(
    name="disputatio",
    help="Evidence-grounded multi-agent debate over your own documents.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)


@app.callback()
def _root(
    verbose: bool = typer.Option(False, "--verbose", "-v", help="Log what is happening."),
) -> None:
    """Evidence-grounded multi-agent debate over your own documents."""
    logging.basicConfig(
        level=logging.INFO if verbose else logging.WARNING,
        format="%(levelname)s %(name)s: %(message)s",
    )


def _register() -> None:
    from disputatio.cli import (
        ask,
        bench,
        db,
        demo,
        ingest,
        jobs,
        models,
        query,
        rdc,
        referee,
        serve,
    )
    from disputatio.cli import eval as eval_cli
    from disputatio.cli import worker as worker_cli

    app.add_typer(db.app, name="db")
    app.add_typer(models.app, name="models")
    app.command("demo")(demo.demo)
    app.command("chat")(models.chat)
    app.command("config")(models.show_config)
    app.command("ingest")(ingest.ingest)
    app.command("query")(query.query)
    app.command("calibrate")(query.calibrate)
    app.command("ask")(ask.ask)
    app.command("bench")(bench.bench)
    app.command("referee")(referee.referee)
    app.add_typer(rdc.rdc_app, name="rdc")
    ledger = typer.Typer(help="The provenance ledger.", no_args_is_help=True)
    ledger.command("verify")(rdc.ledger_verify)
    ledger.command("show")(rdc.ledger_show)
    app.add_typer(ledger, name="ledger")
    app.add_typer(eval_cli.app, name="eval")
    app.command("serve")(serve.serve)
    app.command("worker")(worker_cli.worker)
    app.add_typer(jobs.app, name="jobs")


_register()
