"""SQL lives in ``disputatio/storage/``, one module per table (or group of tables).

A module outside ``storage/`` that writes a SQL statement fails this test, which names it and
the line; the fix is a typed function in the ``storage`` module of its table.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from source_scan import match_lines
from source_scan import offenders as scan

PACKAGE = Path(__file__).resolve().parents[2] / "disputatio"

#: A SQL statement inside a string: what a query, a write or a schema change starts with.
SQL = re.compile(
    r"""["'](\s*)(SELECT\s|INSERT\s+INTO\s|UPDATE\s+\w+\s+SET\s|DELETE\s+FROM\s|"""
    r"""CREATE\s+TABLE\s|ALTER\s+TABLE\s|WITH\s+\w+\s+AS\s*\()"""
)


def sql_lines(text: str) -> list[int]:
    """Line numbers (1-based) of ``text`` where a string starts a SQL statement."""
    return match_lines(SQL, text)


def offenders(root: Path) -> dict[str, list[int]]:
    """Modules of ``root`` outside ``storage/`` holding SQL, with lines."""
    return scan(root, SQL, skip="storage/")


@pytest.mark.parametrize(
    "source",
    [
        'conn.execute("SELECT id FROM api_runs WHERE id = %s", (x,))',
        'cur.execute(\n    "INSERT INTO api_events (run_id) VALUES (%s)", (x,)\n)',
        "sql = 'UPDATE api_jobs SET status = %s'",
        'q = f"DELETE FROM api_runs WHERE tenant = {t}"',
        '"  SELECT count(*) FROM ledger"',
    ],
)
def test_the_detector_sees_a_sql_statement(source: str) -> None:
    assert sql_lines(source)


@pytest.mark.parametrize(
    "source",
    [
        '"""Select the best section; insert it into the answer."""',
        'log.info("update the settings first")',
        '"Which vector store should we select?"',
    ],
)
def test_the_detector_ignores_prose(source: str) -> None:
    assert not sql_lines(source)


def test_no_sql_outside_storage(tmp_path: Path) -> None:
    found = offenders(PACKAGE)
    assert not found, "SQL outside disputatio/storage/ (move it to the module of its table): " + (
        ", ".join(f"{rel}:{lines[0]}" for rel, lines in found.items())
    )
    # the same scan on a copy with one stray query names that file
    (tmp_path / "storage").mkdir()
    (tmp_path / "storage" / "ok.py").write_text('Q = "SELECT 1 FROM api_runs"\n')
    (tmp_path / "api").mkdir()
    (tmp_path / "api" / "stray.py").write_text('X = 1\nQ = "SELECT 1 FROM api_runs"\n')
    assert offenders(tmp_path) == {"api/stray.py": [2]}
