-- 0003: a BM25 index kept inside Postgres, maintained by triggers on child_chunks.
--
-- Every child chunk is tokenised with the text-search configuration of its language
-- (documents.metadata->>'language' as an ISO code or a configuration name; otherwise a stopword
-- guess on the chunk text; 'simple' for an unknown code) after unaccent. Per chunk: its length
-- (bm25_docs); per (chunk, term): the term frequency and an impact (the BM25 tf part with the
-- tenant's average length at indexing time) so a query reads each term's best postings first
-- (bm25_postings). Collection statistics are append-only deltas (bm25_stats) so concurrent
-- ingests never wait on one shared row; document frequencies are counted from the postings.
-- Statement-level triggers keep all of it in the same transaction as the chunks (atomic,
-- idempotent re-ingest), and the migration backfills chunks that already exist.

CREATE EXTENSION IF NOT EXISTS unaccent;

-- unaccent with an explicit dictionary (immutable wrapper, usable in indexes and plans).
CREATE OR REPLACE FUNCTION bm25_unaccent(t text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$ SELECT unaccent('unaccent'::regdictionary, t) $$;

-- ISO 639-1 code (or a configuration name) → text-search configuration; 'simple' otherwise.
CREATE OR REPLACE FUNCTION bm25_regconfig(lang text) RETURNS regconfig
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
SELECT CASE lower(split_part(replace(coalesce(lang, ''), '_', '-'), '-', 1))
    WHEN 'en' THEN 'english' WHEN 'english' THEN 'english'
    WHEN 'es' THEN 'spanish' WHEN 'spanish' THEN 'spanish'
    WHEN 'de' THEN 'german' WHEN 'german' THEN 'german'
    WHEN 'fr' THEN 'french' WHEN 'french' THEN 'french'
    WHEN 'it' THEN 'italian' WHEN 'italian' THEN 'italian'
    WHEN 'pt' THEN 'portuguese' WHEN 'portuguese' THEN 'portuguese'
    WHEN 'nl' THEN 'dutch' WHEN 'dutch' THEN 'dutch'
    WHEN 'da' THEN 'danish' WHEN 'danish' THEN 'danish'
    WHEN 'sv' THEN 'swedish' WHEN 'swedish' THEN 'swedish'
    WHEN 'no' THEN 'norwegian' WHEN 'nb' THEN 'norwegian' WHEN 'norwegian' THEN 'norwegian'
    WHEN 'fi' THEN 'finnish' WHEN 'finnish' THEN 'finnish'
    WHEN 'ru' THEN 'russian' WHEN 'russian' THEN 'russian'
    WHEN 'tr' THEN 'turkish' WHEN 'turkish' THEN 'turkish'
    WHEN 'hu' THEN 'hungarian' WHEN 'hungarian' THEN 'hungarian'
    WHEN 'ro' THEN 'romanian' WHEN 'romanian' THEN 'romanian'
    WHEN 'ca' THEN 'catalan' WHEN 'catalan' THEN 'catalan'
    WHEN 'el' THEN 'greek' WHEN 'greek' THEN 'greek'
    WHEN 'id' THEN 'indonesian' WHEN 'indonesian' THEN 'indonesian'
    WHEN 'ga' THEN 'irish' WHEN 'irish' THEN 'irish'
    WHEN 'lt' THEN 'lithuanian' WHEN 'lithuanian' THEN 'lithuanian'
    WHEN 'eu' THEN 'basque' WHEN 'basque' THEN 'basque'
    WHEN 'hy' THEN 'armenian' WHEN 'armenian' THEN 'armenian'
    WHEN 'ar' THEN 'arabic' WHEN 'arabic' THEN 'arabic'
    WHEN 'hi' THEN 'hindi' WHEN 'hindi' THEN 'hindi'
    WHEN 'ne' THEN 'nepali' WHEN 'nepali' THEN 'nepali'
    WHEN 'sr' THEN 'serbian' WHEN 'serbian' THEN 'serbian'
    WHEN 'ta' THEN 'tamil' WHEN 'tamil' THEN 'tamil'
    WHEN 'yi' THEN 'yiddish' WHEN 'yiddish' THEN 'yiddish'
    ELSE 'simple' END::regconfig
$$;

-- Guess the language of a text from its function words (first 2,000 characters); English when
-- no language has at least two of its function words in the text.
CREATE OR REPLACE FUNCTION bm25_guess_regconfig(sample text) RETURNS regconfig
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
WITH words AS (
    SELECT array_agg(lexeme) AS w FROM unnest(to_tsvector('simple', left(sample, 2000)))
), langs(cfg, stop) AS (VALUES
    ('english', ARRAY['the','and','of','is','are','with','that','for','was','were','this',
                      'which','from','by','not','be','have','has']),
    ('spanish', ARRAY['el','los','las','del','que','una','por','para','con','es','se','como',
                      'más','pero','está','son','al','lo']),
    ('german', ARRAY['der','die','das','und','ist','nicht','mit','ein','eine','den','dem','von',
                     'zu','auf','für','sich','wird','auch']),
    ('french', ARRAY['le','les','des','est','une','dans','pour','pas','qui','sur','avec',
                     'sont','du','au','ce','aux','être','leur']),
    ('italian', ARRAY['il','gli','della','che','è','non','per','una','sono','con','del',
                      'nella','anche','questo','delle','degli','alla']),
    ('portuguese', ARRAY['os','da','do','das','dos','não','uma','com','para','que','em','é',
                         'são','mais','pelo','pela','ao']),
    ('dutch', ARRAY['het','een','van','en','niet','zijn','dat','op','voor','met','ook',
                    'wordt','naar','deze','bij'])
)
SELECT coalesce((
    SELECT l.cfg::regconfig FROM langs l, words
    WHERE cardinality(ARRAY(SELECT unnest(l.stop) INTERSECT SELECT unnest(words.w))) >= 2
    ORDER BY cardinality(ARRAY(SELECT unnest(l.stop) INTERSECT SELECT unnest(words.w))) DESC,
             l.cfg = 'english' DESC
    LIMIT 1
), 'english'::regconfig)
$$;

-- The configuration of one chunk: its document's declared language, else a guess.
CREATE OR REPLACE FUNCTION bm25_chunk_regconfig(doc_metadata jsonb, chunk_text text)
RETURNS regconfig
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
SELECT CASE
    WHEN coalesce(doc_metadata->>'language', doc_metadata->>'lang', '') <> ''
        THEN bm25_regconfig(coalesce(doc_metadata->>'language', doc_metadata->>'lang'))
    ELSE bm25_guess_regconfig(chunk_text) END
$$;

CREATE TABLE bm25_docs (
    chunk_id    text PRIMARY KEY,
    tenant      text NOT NULL,
    collection  text NOT NULL,
    config      regconfig NOT NULL,
    dl          integer NOT NULL
);

CREATE TABLE bm25_postings (
    chunk_id    text NOT NULL,
    term        text NOT NULL,
    tenant      text NOT NULL,
    collection  text NOT NULL,
    tf          real NOT NULL,
    dl          integer NOT NULL,
    impact      real NOT NULL,
    PRIMARY KEY (chunk_id, term)
);
CREATE INDEX bm25_postings_term_idx ON bm25_postings (tenant, term, impact DESC)
    INCLUDE (chunk_id, tf, dl, collection);

CREATE TABLE bm25_stats (
    id          bigserial PRIMARY KEY,
    tenant      text NOT NULL,
    n_docs      bigint NOT NULL,
    total_len   bigint NOT NULL
);
CREATE INDEX bm25_stats_tenant_idx ON bm25_stats (tenant);

CREATE TABLE bm25_configs (
    tenant  text NOT NULL,
    config  regconfig NOT NULL,
    PRIMARY KEY (tenant, config)
);

-- Index chunks (by id) that are in child_chunks and not indexed yet (one statement).
CREATE OR REPLACE FUNCTION bm25_index_chunks(ids text[]) RETURNS void
LANGUAGE sql
AS $$
WITH vec AS MATERIALIZED (
    SELECT c.id AS chunk_id, c.tenant, c.collection, x.cfg AS config,
           to_tsvector(x.cfg, bm25_unaccent(c.heading || ' ' || c.text)) AS v
    FROM child_chunks c
    JOIN documents d ON d.id = c.document_id
    CROSS JOIN LATERAL (SELECT bm25_chunk_regconfig(d.metadata, c.text) AS cfg) x
    WHERE c.id = ANY(ids)
      AND NOT EXISTS (SELECT 1 FROM bm25_docs bd WHERE bd.chunk_id = c.id)
), batch AS MATERIALIZED (
    SELECT vec.*, coalesce((SELECT sum(coalesce(array_length(u.positions, 1), 1))
                            FROM unnest(vec.v) u), 0)::integer AS dl
    FROM vec
), docs AS (
    INSERT INTO bm25_docs (chunk_id, tenant, collection, config, dl)
    SELECT chunk_id, tenant, collection, config, dl FROM batch
), avg_len AS (
    SELECT t.tenant,
           (coalesce(s.len, 0) + t.len)::float8 / greatest(coalesce(s.n, 0) + t.n, 1) AS avgdl
    FROM (SELECT tenant, count(*) AS n, sum(dl) AS len FROM batch GROUP BY tenant) t
    LEFT JOIN (SELECT tenant, sum(n_docs) AS n, sum(total_len) AS len
               FROM bm25_stats GROUP BY tenant) s ON s.tenant = t.tenant
), postings AS (
    INSERT INTO bm25_postings (chunk_id, term, tenant, collection, tf, dl, impact)
    SELECT bt.chunk_id, u.lexeme, bt.tenant, bt.collection, u.tf, bt.dl,
           -- the BM25 tf part (k1 = 1.2, b = 0.75) with the tenant's current mean length
           u.tf / (u.tf + 1.2 * (0.25 + 0.75 * bt.dl / greatest(a.avgdl, 1.0)))
    FROM batch bt
    JOIN avg_len a ON a.tenant = bt.tenant
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

-- Remove chunks (by id) from the index.
CREATE OR REPLACE FUNCTION bm25_unindex_chunks(ids text[]) RETURNS void
LANGUAGE plpgsql
AS $$
BEGIN
    DELETE FROM bm25_postings WHERE chunk_id = ANY(ids);
    WITH gone AS (
        DELETE FROM bm25_docs WHERE chunk_id = ANY(ids) RETURNING tenant, dl
    )
    INSERT INTO bm25_stats (tenant, n_docs, total_len)
    SELECT tenant, -count(*), -sum(dl) FROM gone GROUP BY tenant;
END;
$$;

CREATE OR REPLACE FUNCTION bm25_on_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM bm25_index_chunks(ARRAY(SELECT id FROM bm25_new));
    RETURN NULL;
END;
$$;

CREATE OR REPLACE FUNCTION bm25_on_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM bm25_unindex_chunks(ARRAY(SELECT id FROM bm25_old));
    RETURN NULL;
END;
$$;

CREATE OR REPLACE FUNCTION bm25_on_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM bm25_unindex_chunks(ARRAY(
        SELECT o.id FROM bm25_old o LEFT JOIN bm25_new n ON n.id = o.id
        WHERE n.id IS NULL OR n.text IS DISTINCT FROM o.text
           OR n.heading IS DISTINCT FROM o.heading OR n.tenant IS DISTINCT FROM o.tenant
           OR n.collection IS DISTINCT FROM o.collection
    ));
    PERFORM bm25_index_chunks(ARRAY(SELECT id FROM bm25_new));
    RETURN NULL;
END;
$$;

CREATE OR REPLACE FUNCTION bm25_on_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    TRUNCATE bm25_postings, bm25_docs, bm25_stats, bm25_configs;
    RETURN NULL;
END;
$$;

CREATE TRIGGER child_chunks_bm25_insert AFTER INSERT ON child_chunks
    REFERENCING NEW TABLE AS bm25_new FOR EACH STATEMENT EXECUTE FUNCTION bm25_on_insert();
CREATE TRIGGER child_chunks_bm25_delete AFTER DELETE ON child_chunks
    REFERENCING OLD TABLE AS bm25_old FOR EACH STATEMENT EXECUTE FUNCTION bm25_on_delete();
CREATE TRIGGER child_chunks_bm25_update AFTER UPDATE ON child_chunks
    REFERENCING OLD TABLE AS bm25_old NEW TABLE AS bm25_new
    FOR EACH STATEMENT EXECUTE FUNCTION bm25_on_update();
CREATE TRIGGER child_chunks_bm25_truncate AFTER TRUNCATE ON child_chunks
    FOR EACH STATEMENT EXECUTE FUNCTION bm25_on_truncate();

-- Backfill what is already there.
SELECT bm25_index_chunks(ARRAY(SELECT id FROM child_chunks));
ANALYZE bm25_postings;
ANALYZE bm25_docs;
