-- 0004: outbox of writes to an external graph store (Neo4j).
-- Each document's transaction appends its graph ('write') and the documents it replaced
-- ('delete') here, so Postgres and the graph store cannot disagree for good: the rows are
-- replayed in id order until the store has accepted them (disputatio.retrievers.graphstore).
-- Idempotent: safe on a database that already holds data (nothing to backfill).

CREATE TABLE IF NOT EXISTS graph_outbox (
    id           bigserial PRIMARY KEY,
    tenant       text NOT NULL,
    document_id  uuid NOT NULL,  -- no foreign key: a 'delete' outlives its document
    op           text NOT NULL CHECK (op IN ('write', 'delete')),
    payload      jsonb NOT NULL DEFAULT '{}',
    attempts     integer NOT NULL DEFAULT 0,
    last_error   text,
    created_at   timestamptz NOT NULL DEFAULT now()
);
