-- 0008: ingestion jobs and debate runs become tasks of the procrastinate queue
-- (disputatio.storage.queue). Each row names the queue job that runs it; the queue holds the
-- attempts, the retries and the dead letter, so the hand-written lease of a run is gone.
-- Idempotent: safe on a database that holds data.

ALTER TABLE api_jobs ADD COLUMN IF NOT EXISTS queue_job_id bigint;
ALTER TABLE api_runs ADD COLUMN IF NOT EXISTS queue_job_id bigint;
CREATE INDEX IF NOT EXISTS api_jobs_queue_idx ON api_jobs (queue_job_id);
CREATE INDEX IF NOT EXISTS api_runs_queue_idx ON api_runs (queue_job_id);

ALTER TABLE api_jobs DROP CONSTRAINT IF EXISTS api_jobs_status_check;
ALTER TABLE api_jobs ADD CONSTRAINT api_jobs_status_check
    CHECK (status IN ('queued', 'running', 'succeeded', 'skipped', 'failed', 'cancelled'));
ALTER TABLE api_runs DROP CONSTRAINT IF EXISTS api_runs_status_check;
ALTER TABLE api_runs ADD CONSTRAINT api_runs_status_check
    CHECK (status IN ('queued', 'running', 'interrupted', 'done', 'failed', 'cancelled'));
