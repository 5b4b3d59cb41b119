"""Scans of the package's source for a pattern, shared by the layering tests.

``test_sql_in_storage.py`` (SQL outside ``storage/``) and ``test_eval_imports.py``
(``disputatio.nodes`` imported by the eval) both look for a regular expression in every module
under a folder and name each offending module with its lines.
"""

from __future__ import annotations

import re
from pathlib import Path


def match_lines(pattern: re.Pattern[str], text: str) -> list[int]:
    """Line numbers (1-based) of ``text`` where ``pattern`` matches."""
    return [text.count("\n", 0, m.start()) + 1 for m in pattern.finditer(text)]


def offenders(
    root: Path, pattern: re.Pattern[str], skip: str | None = None
) -> dict[str, list[int]]:
    """Modules under ``root`` (relative POSIX paths) where ``pattern`` matches, with lines.

    Modules whose relative path starts with ``skip`` are not read.
    """
    found: dict[str, list[int]] = {}
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        if skip is not None and rel.startswith(skip):
            continue
        if lines := match_lines(pattern, path.read_text(encoding="utf-8")):
            found[rel] = lines
    return found
