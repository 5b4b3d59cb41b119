"""``disputatio serve``: the HTTP API and the page under uvicorn, debates checkpointed in Postgres.

Self-hosting without LangGraph Platform: the same app ``langgraph dev`` mounts
(:mod:`disputatio.api`), on the embedded Postgres by default (``DATABASE_URL`` for another).
API keys live hashed in settings (``[server] api_keys = {"<sha256 hex>" = "tenant"}``);
``disputatio serve --hash-key KEY`` prints the hash to put there.

Ingestion jobs and debates are tasks of a Postgres queue: ``serve`` runs a worker in-process by
default (one command does everything); ``serve --no-worker`` only answers, enqueues and
streams, for deployments whose tasks run in ``disputatio worker`` processes.
"""

from __future__ import annotations

import typer
from rich.console import Console

out = Console(stderr=True)


def serve(
    host: str | None = typer.Option(None, help="Address to bind (default: server.host)."),
    port: int | None = typer.Option(None, help="Port (default: server.port)."),
    hash_key: str | None = typer.Option(
        None, "--hash-key", help="Print the sha256 of this API key for server.api_keys; exit."
    ),
    log_level: str = typer.Option("info", help="uvicorn log level."),
    no_worker: bool = typer.Option(
        False, "--no-worker", help="Run no tasks here: leave them to `disputatio worker`s."
    ),
) -> None:
    """Serve the HTTP API and the web page (debates survive a restart)."""
    from disputatio.api.auth import hash_key as digest

    if hash_key is not None:
        typer.echo(digest(hash_key))
        return
    import uvicorn

    from disputatio.settings import get_settings
    from disputatio.storage.db import database_url, redact

    settings = get_settings()
    with out.status("starting the database…"):
        url = database_url(settings)
    if not settings.server.api_keys:
        out.print(
            "[yellow]no API keys configured: every request will be refused (401).[/] Add one:\n"
            "  disputatio serve --hash-key MYKEY   # then, in disputatio.toml:\n"
            '  [server]\n  api_keys = { "<the hash>" = "my-tenant" }'
        )
    bind_host = host or settings.server.host
    bind_port = settings.server.port if port is None else port
    out.print(f"database {redact(url)}")
    out.print(f"serving on http://{bind_host}:{bind_port}/ (page at /, API keys from settings)")
    if no_worker:
        out.print("no worker in this process: tasks wait for `disputatio worker`")
    from disputatio.api.app import create_app
    from disputatio.api.services import Services

    app = create_app(Services(settings=settings, embedded_worker=not no_worker))
    uvicorn.run(app, host=bind_host, port=bind_port, log_level=log_level, access_log=False)
