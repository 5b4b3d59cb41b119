-- 0012: fold the BM25 statistics' delta rows into one row per tenant.
--
-- Before 0011 every document's write added a delta row to bm25_stats, and every lexical query
-- sums a tenant's rows: a tenant of a million documents summed a million rows per query. Since
-- 0011 a write adds one row per batch. bm25_compact_stats() folds what is there now; rows of
-- transactions still running are not visible to it and stay as they are, so it is safe beside
-- ingestion and changes no sum. Idempotent: safe on a database that holds data.

CREATE OR REPLACE FUNCTION bm25_compact_stats() RETURNS void
LANGUAGE sql
AS $$
WITH gone AS (
    DELETE FROM bm25_stats RETURNING tenant, n_docs, total_len
)
INSERT INTO bm25_stats (tenant, n_docs, total_len)
SELECT tenant, sum(n_docs), sum(total_len) FROM gone GROUP BY tenant;
$$;

SELECT bm25_compact_stats();
