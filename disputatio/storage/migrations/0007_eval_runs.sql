-- 0007: evaluation runs (`disputatio eval run`).
-- An eval run (identified by the hash of its whole configuration, `run_key`) has one
-- `experiments` row per (data set, protocol); agent messages and tool calls point at their
-- `experiment_runs` row and name the sub-question (tree node) they belong to.
-- Idempotent (IF NOT EXISTS) and safe on a database holding data: rows written before this
-- migration are linked to their run by thread id (the latest run of that thread).

ALTER TABLE experiments ADD COLUMN IF NOT EXISTS run_key text;
ALTER TABLE experiments ADD COLUMN IF NOT EXISTS dataset text;
CREATE INDEX IF NOT EXISTS experiments_run_key_idx ON experiments (run_key, dataset, protocol);

CREATE INDEX IF NOT EXISTS experiment_runs_question_idx
    ON experiment_runs (experiment_id, question_id);

ALTER TABLE agent_messages
    ADD COLUMN IF NOT EXISTS run_id uuid REFERENCES experiment_runs (id) ON DELETE CASCADE;
ALTER TABLE agent_messages ADD COLUMN IF NOT EXISTS sub_question text;
CREATE INDEX IF NOT EXISTS agent_messages_run_idx ON agent_messages (run_id);

ALTER TABLE tool_calls
    ADD COLUMN IF NOT EXISTS run_id uuid REFERENCES experiment_runs (id) ON DELETE CASCADE;
ALTER TABLE tool_calls ADD COLUMN IF NOT EXISTS sub_question text;
CREATE INDEX IF NOT EXISTS tool_calls_run_idx ON tool_calls (run_id);

UPDATE agent_messages m
SET run_id = (
    SELECT r.id FROM experiment_runs r
    WHERE r.thread_id = m.thread_id
    ORDER BY r.started_at DESC
    LIMIT 1
)
WHERE m.run_id IS NULL;

UPDATE tool_calls t
SET run_id = (
    SELECT r.id FROM experiment_runs r
    WHERE r.thread_id = t.thread_id
    ORDER BY r.started_at DESC
    LIMIT 1
)
WHERE t.run_id IS NULL;
