-- 0009: the ingestion task of one job ingests a batch of queued jobs of its tenant at once
-- (disputatio.api.runs, server.ingest_batch). The batch owner's job id and the time of its
-- claim (refreshed while the batch runs) are stamped on every job of the batch; the other jobs'
-- own tasks wait for it, or take a job over once its claim is older than
-- server.worker_stalled_s. Idempotent: safe on a database that holds data.

ALTER TABLE api_jobs ADD COLUMN IF NOT EXISTS claimed_by uuid;
ALTER TABLE api_jobs ADD COLUMN IF NOT EXISTS claimed_at timestamptz;
-- the jobs a batch may take: queued, unclaimed, unfinished, of one tenant and collection
CREATE INDEX IF NOT EXISTS api_jobs_claimable_idx ON api_jobs (tenant, collection, created_at)
    WHERE claimed_by IS NULL AND finished_at IS NULL;
