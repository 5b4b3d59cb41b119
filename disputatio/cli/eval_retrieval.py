"""``disputatio eval retrieval``: per-stage retrieval quality on a labelled set (placeholder)."""

from __future__ import annotations

from disputatio.errors import DisputatioError


def retrieval() -> None:
    """Evaluate retrieval on a labelled set (not implemented yet)."""
    raise DisputatioError("`disputatio eval retrieval` is not implemented yet")
