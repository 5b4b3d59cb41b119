"""``disputatio serve``: the HTTP app under uvicorn (placeholder)."""

from __future__ import annotations

from disputatio.errors import DisputatioError


def serve() -> None:
    """Serve the HTTP API and the web page (not implemented yet)."""
    raise DisputatioError("`disputatio serve` is not implemented yet")
