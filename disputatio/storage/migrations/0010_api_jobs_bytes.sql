-- 0010: the size of each job's file, so a batch of queued jobs (server.ingest_batch) stops
-- claiming once it holds server.ingest_batch_mb of uploads: many small files go together, a
-- few large ones do not hold each other's outcome back. Jobs queued before it count as 0.
-- Idempotent: safe on a database that holds data.

ALTER TABLE api_jobs ADD COLUMN IF NOT EXISTS bytes bigint;
