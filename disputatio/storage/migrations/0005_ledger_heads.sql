-- Ledger v2: hash seq and created_at too, and anchor every thread's head in a table written in
-- the same transaction as each append (so `ledger verify` detects truncation and re-hashed
-- rewrites). Safe on a database that already holds ledger rows: they keep hash_version 1 and
-- the heads are backfilled from them. Idempotent: every statement checks what exists.

ALTER TABLE ledger ADD COLUMN IF NOT EXISTS hash_version smallint NOT NULL DEFAULT 1;

CREATE TABLE IF NOT EXISTS ledger_heads (
    thread_id   text PRIMARY KEY,
    idx         integer NOT NULL,
    seq         bigint NOT NULL,
    hash        text NOT NULL,
    updated_at  timestamptz NOT NULL DEFAULT now()
);

INSERT INTO ledger_heads (thread_id, idx, seq, hash)
SELECT DISTINCT ON (thread_id) thread_id, idx, seq, hash
FROM ledger
ORDER BY thread_id, idx DESC
ON CONFLICT (thread_id) DO NOTHING;

-- A head only moves forward: deleting it or moving it back (to hide a truncation) is refused.
CREATE OR REPLACE FUNCTION ledger_head_forward_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' OR NEW.idx <= OLD.idx OR NEW.thread_id <> OLD.thread_id THEN
        RAISE EXCEPTION 'ledger heads only move forward (% refused)', TG_OP;
    END IF;
    RETURN NEW;
END;
$$;
DROP TRIGGER IF EXISTS ledger_heads_forward ON ledger_heads;
CREATE TRIGGER ledger_heads_forward BEFORE UPDATE OR DELETE ON ledger_heads
    FOR EACH ROW EXECUTE FUNCTION ledger_head_forward_only();
DROP TRIGGER IF EXISTS ledger_heads_no_truncate ON ledger_heads;
CREATE TRIGGER ledger_heads_no_truncate BEFORE TRUNCATE ON ledger_heads
    FOR EACH STATEMENT EXECUTE FUNCTION ledger_append_only();
