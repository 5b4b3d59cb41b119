"""docs/results.md shows the MIRAGE table exactly as the committed report writes it."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[3]


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "mirage_table", ROOT / "benchmarks/mirage_table.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_docs_table_is_the_reports() -> None:
    script = _script()
    report = (ROOT / "docs/results/mirage/report.md").read_text()
    doc = (ROOT / "docs/results.md").read_text()
    assert script.splice(doc, script.table_of(report)) == doc


def test_the_copy_replaces_only_the_table() -> None:
    script = _script()
    doc = f"# Results\nRecords: 5.\n\n{script.START} (old).\n| a |\n\n{script.READING}: text.\n"
    report = f"## MIRAGE table\n\n{script.START} (new).\n| b |\n\n## mirage:mmlu\n| c |\n"
    new = script.splice(doc, script.table_of(report))
    assert (
        new
        == f"# Results\nRecords: 5.\n\n{script.START} (new).\n| b |\n\n{script.READING}: text.\n"
    )
