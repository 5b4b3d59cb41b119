"""A disputatio API server with scripted debate agents that answer slowly (for kill/restart).

``python serve_child.py PORT`` with ``DATABASE_URL`` and ``DISPUTATIO_HOME`` set: the app of
``disputatio serve`` (same code path: Postgres checkpointer, startup resume) under uvicorn,
with :class:`fakes.FakeModels` injected so a debate takes a few seconds. Every statement of
its debate agents ends with `` (server PID)``, so a test tells which process made a move.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import uvicorn
from fakes import FakeModels, server_settings

from disputatio.api.app import create_app
from disputatio.api.services import Services
from disputatio.settings import load_settings


def main(port: int) -> None:
    """Serve until killed."""
    settings = load_settings(
        database_url=os.environ["DATABASE_URL"],
        home=Path(os.environ["DISPUTATIO_HOME"]),
        server=server_settings(),
    )
    delay = float(os.environ.get("FAKE_DELAY_S", "0.6"))
    fakes = FakeModels(delay_s=delay, rounds=2, tag=f" (server {os.getpid()})")
    app = create_app(Services(settings=settings, context_overrides=fakes))
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning")


if __name__ == "__main__":
    main(int(sys.argv[1]))
