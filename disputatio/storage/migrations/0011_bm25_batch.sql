-- 0011: index the chunks of many documents in one statement, as if document by document.
--
-- A batch of new documents now inserts all its child chunks in one statement (its BM25 trigger
-- fires once, not once per document: ~5x faster indexing of short documents). Each chunk's
-- impact still uses the tenant's mean length as a document-by-document write would have seen
-- it: the statistics before the statement plus the chunks of the documents up to and including
-- the chunk's own, in the order of `ids` (a document's place is its first chunk's). The
-- statistics are read for the batch's tenants only, and one delta row per tenant is written.
-- Idempotent: safe on a database that holds data.

CREATE OR REPLACE FUNCTION bm25_index_chunks(ids text[]) RETURNS void
LANGUAGE sql
AS $$
WITH pos AS (
    SELECT o.id, min(o.n) AS n FROM unnest(ids) WITH ORDINALITY AS o(id, n) GROUP BY o.id
), vec AS MATERIALIZED (
    SELECT c.id AS chunk_id, c.tenant, c.collection, c.document_id, pos.n, x.cfg AS config,
           to_tsvector(x.cfg, bm25_unaccent(c.heading || ' ' || c.text)) AS v
    FROM child_chunks c
    JOIN pos ON pos.id = c.id
    JOIN documents d ON d.id = c.document_id
    CROSS JOIN LATERAL (SELECT bm25_chunk_regconfig(d.metadata, c.text) AS cfg) x
    WHERE NOT EXISTS (SELECT 1 FROM bm25_docs bd WHERE bd.chunk_id = c.id)
), batch AS MATERIALIZED (
    SELECT vec.*,
           coalesce((SELECT sum(coalesce(array_length(u.positions, 1), 1))
                     FROM unnest(vec.v) u), 0)::integer AS dl,
           min(vec.n) OVER (PARTITION BY vec.document_id) AS doc_n
    FROM vec
), docs AS (
    INSERT INTO bm25_docs (chunk_id, tenant, collection, config, dl)
    SELECT chunk_id, tenant, collection, config, dl FROM batch
), stats AS (
    SELECT tenant, sum(n_docs) AS n, sum(total_len) AS len FROM bm25_stats
    WHERE tenant IN (SELECT DISTINCT tenant FROM batch) GROUP BY tenant
), running AS (
    -- per chunk: the tenant's chunk count and length once its document is written
    SELECT b.chunk_id,
           count(*) OVER w AS n, sum(b.dl) OVER w AS len
    FROM batch b
    WINDOW w AS (PARTITION BY b.tenant ORDER BY b.doc_n
                 RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)
), postings AS (
    INSERT INTO bm25_postings (chunk_id, term, tenant, collection, tf, dl, impact)
    SELECT bt.chunk_id, u.lexeme, bt.tenant, bt.collection, u.tf, bt.dl,
           -- the BM25 tf part (k1 = 1.2, b = 0.75) with the tenant's mean length as it was
           u.tf / (u.tf + 1.2 * (0.25 + 0.75 * bt.dl / greatest(
               (coalesce(s.len, 0) + r.len)::float8 / greatest(coalesce(s.n, 0) + r.n, 1),
               1.0)))
    FROM batch bt
    JOIN running r ON r.chunk_id = bt.chunk_id
    LEFT JOIN stats s ON s.tenant = bt.tenant
    CROSS JOIN LATERAL (
        SELECT lexeme, coalesce(array_length(positions, 1), 1)::real AS tf FROM unnest(bt.v)
    ) u
), configs AS (
    INSERT INTO bm25_configs (tenant, config)
    SELECT DISTINCT tenant, config FROM batch
    ON CONFLICT DO NOTHING
)
INSERT INTO bm25_stats (tenant, n_docs, total_len)
SELECT tenant, count(*), sum(dl) FROM batch GROUP BY tenant;
$$;
