"""Storage: the embedded PostgreSQL server, connections, migrations and checkpoints.

It holds the SQL too, one module per table or group of tables (``api_jobs``, ``api_runs``,
``api_events``, ``api_queue``, ``calibrations``, ``chunk_reads``, ``document_reads``,
``documents``, ``experiments``, ``graph_outbox``, ``graph_tables``, ``ledger``, ``queue``,
``retrieval_channels``...); the rest of the package calls their typed functions.
"""

from disputatio.storage.db import connect, database_url, embedded_server, get_pool

__all__ = ["connect", "database_url", "embedded_server", "get_pool"]
