-- 0006: tables of the HTTP API (disputatio.api): ingestion jobs accepted over HTTP, debate runs
-- (sessions) with their owner tenant, and the persisted events a stream replays from.
-- Idempotent: every statement is IF NOT EXISTS, so it is safe on a database that holds data.

CREATE TABLE IF NOT EXISTS api_jobs (
    id           uuid PRIMARY KEY,
    tenant       text NOT NULL,
    collection   text NOT NULL,
    file_name    text NOT NULL,
    path         text NOT NULL,
    sha256       text NOT NULL,
    request      jsonb NOT NULL DEFAULT '{}',
    status       text NOT NULL CHECK (status IN ('queued', 'running', 'succeeded', 'skipped',
                                                 'failed')),
    document_id  uuid,
    error        text,
    result       jsonb,
    created_at   timestamptz NOT NULL DEFAULT now(),
    finished_at  timestamptz
);
CREATE INDEX IF NOT EXISTS api_jobs_tenant_idx ON api_jobs (tenant, status);

CREATE TABLE IF NOT EXISTS api_runs (
    id           uuid PRIMARY KEY,
    tenant       text NOT NULL,
    protocol     text NOT NULL,
    question     text NOT NULL,
    request      jsonb NOT NULL DEFAULT '{}',
    status       text NOT NULL CHECK (status IN ('queued', 'running', 'interrupted', 'done',
                                                 'failed')),
    error        text,
    result       jsonb,
    resume       jsonb,
    lease_until  timestamptz,
    created_at   timestamptz NOT NULL DEFAULT now(),
    finished_at  timestamptz
);
CREATE INDEX IF NOT EXISTS api_runs_tenant_idx ON api_runs (tenant, created_at DESC);

-- One row per streamed event; (run_id, key) makes a re-run step unable to repeat a move.
CREATE TABLE IF NOT EXISTS api_events (
    run_id      uuid NOT NULL REFERENCES api_runs (id) ON DELETE CASCADE,
    seq         integer NOT NULL,
    key         text NOT NULL,
    type        text NOT NULL,
    data        jsonb NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (run_id, seq),
    UNIQUE (run_id, key)
);
