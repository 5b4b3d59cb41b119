"""Options shared by every command, so each concept has one spelling across the CLI.

Use them as defaults of typer parameters::

    def query(question: str = typer.Argument(...), tenant: str | None = TENANT, ...) -> None:
"""

from __future__ import annotations

import typer

#: ``--tenant``: whose corpus a command reads or writes (default: ``settings.tenant``).
TENANT = typer.Option(None, "--tenant", help="Tenant (default: settings.tenant).")
#: ``--collection``: restrict the corpus to one collection (repeatable where it filters).
COLLECTION = typer.Option(None, "--collection", help="Collection (default: all).")
#: ``--collection`` where a command writes: the collection documents go into.
INTO_COLLECTION = typer.Option(
    None, "--collection", help="Collection to write into (default: settings.collection)."
)
#: ``--thread-id``: the checkpoint thread of a run (resume, inspect).
THREAD_ID = typer.Option(None, "--thread-id", help="Checkpoint thread id.")
#: ``--resume``: continue the run of ``--thread-id`` instead of starting a new one.
RESUME = typer.Option(False, "--resume", help="Continue the run of --thread-id.")
#: ``--model`` / ``-m``: the chat model string for every agent of the command.
MODEL = typer.Option(None, "--model", "-m", help="Chat model string (see `disputatio config`).")
#: ``--show-context``: print the evidence (retrieved or cited sections) with the answer.
SHOW_CONTEXT = typer.Option(False, "--show-context", help="Print the evidence sections.")
#: ``--json``: machine-readable output.
AS_JSON = typer.Option(False, "--json", help="Print the result as JSON.")
