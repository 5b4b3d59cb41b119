"""The database checks of the health graph and the API's readiness probe, on the real server."""

from __future__ import annotations

import pytest

from disputatio.settings import Settings
from disputatio.storage import pg_info
from disputatio.storage.db import connect

pytestmark = [pytest.mark.integration]


def test_pg_info_reads_the_server_and_pgvector_versions(settings: Settings, db_url: str) -> None:
    with connect(settings) as conn:
        number = pg_info.server_version(conn)
        line, vector = pg_info.versions(conn)
        expected = conn.execute("SHOW server_version").fetchone()
    assert expected is not None and number == expected[0]
    assert line.startswith("PostgreSQL ") and number.split()[0] in line
    assert vector is not None and vector[0].isdigit()  # migrations install pgvector


def test_the_health_graph_reports_the_database_it_reached(settings: Settings, db_url: str) -> None:
    from disputatio.graphs.health import graph

    out = graph.invoke({"checks": ["database"]})
    (result,) = out["results"]
    assert result["ok"] is True, result
    detail = str(result["detail"])
    assert detail.startswith("PostgreSQL ") and "pgvector " in detail
    assert "pgvector None" not in detail
