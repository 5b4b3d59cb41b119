"""``disputatio eval run`` / ``eval report``: protocol comparisons (placeholder)."""

from __future__ import annotations

from disputatio.errors import DisputatioError


def run() -> None:
    """Run protocols on the same drawn questions (not implemented yet)."""
    raise DisputatioError("`disputatio eval run` is not implemented yet")


def report() -> None:
    """Write the Markdown report of finished runs (not implemented yet)."""
    raise DisputatioError("`disputatio eval report` is not implemented yet")
