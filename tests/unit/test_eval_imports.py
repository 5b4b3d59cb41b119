"""The eval reaches the nodes only through the graphs (or a shared public module).

``disputatio/eval/`` runs the graphs as a user would: a module of it that imports
``disputatio.nodes`` (``from``, ``import`` or ``importlib.import_module``) fails this test,
which names it and the line; the fix is to import what it needs from the graph's package
(``disputatio.graphs.ingest.IngestContext``, ``disputatio.graphs.context.AgentContext``, ...).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from source_scan import match_lines
from source_scan import offenders as scan

EVAL = Path(__file__).resolve().parents[2] / "disputatio" / "eval"

#: An import of ``disputatio.nodes`` or a module under it, at any indentation.
NODES_IMPORT = re.compile(
    r"""^\s*(?:from\s+disputatio\.nodes\b|import\s+(?:[\w.]+\s*,\s*)*disputatio\.nodes\b)"""
    r"""|import_module\(\s*["']disputatio\.nodes\b""",
    re.MULTILINE,
)


def import_lines(text: str) -> list[int]:
    """Line numbers (1-based) of ``text`` that import ``disputatio.nodes``."""
    return match_lines(NODES_IMPORT, text)


def offenders(root: Path) -> dict[str, list[int]]:
    """Modules under ``root`` importing ``disputatio.nodes``, with lines."""
    return scan(root, NODES_IMPORT)


@pytest.mark.parametrize(
    "source",
    [
        "from disputatio.nodes.context import AgentContext",
        "def f():\n    from disputatio.nodes.ingest.context import IngestContext",
        "import disputatio.nodes.medrag.turns as turns",
        "import os, disputatio.nodes",
        'mod = importlib.import_module("disputatio.nodes.debate.agreement")',
    ],
)
def test_the_detector_sees_an_import_of_the_nodes(source: str) -> None:
    assert import_lines(source)


@pytest.mark.parametrize(
    "source",
    [
        "from disputatio.graphs.ingest import IngestContext, graph",
        '"""As :func:`~disputatio.nodes.debate.agreement.parse_verdict_first` does."""',
        "from disputatio.nodes_extra import x",
        "# the debate nodes use them too",
    ],
)
def test_the_detector_ignores_the_rest(source: str) -> None:
    assert not import_lines(source)


def test_the_eval_does_not_import_the_nodes(tmp_path: Path) -> None:
    assert EVAL.is_dir() and any(EVAL.glob("*.py"))  # a wrong root would pass vacuously
    found = offenders(EVAL)
    assert not found, (
        "disputatio/eval/ imports disputatio.nodes (import it from the graph's package or "
        "disputatio.graphs.context): " + ", ".join(f"{rel}:{ls[0]}" for rel, ls in found.items())
    )
    # the same scan on a copy with one stray import names that file and line
    (tmp_path / "ok.py").write_text("from disputatio.graphs.ingest import graph\n")
    (tmp_path / "stray.py").write_text("X = 1\nfrom disputatio.nodes.context import AgentContext\n")
    assert offenders(tmp_path) == {"stray.py": [2]}
