# ruff: noqa: E501  (one-off measurement script: its SQL literals mirror the ingestion writes verbatim)
"""Trigger cost (docs/retrieval_tuning.md): insert N BioASQ snippet chunks as in bulk ingestion (one multi-row INSERT per
batch of 64 documents), with the BM25 triggers enabled vs disabled; 3 rounds each, median."""

import hashlib
import os
import statistics
import time
import uuid

import numpy as np

os.environ["DISPUTATIO_HOME"] = "/tmp/dh-retrieval"

from disputatio.eval.retrieval_data import bioasq_set
from disputatio.storage.db import connect

docs = list(bioasq_set().documents.items())[:2000]
vecs = np.load(os.environ.get("BIOASQ_VECTORS", "/tmp/retr/vecs.npy"))[
    :2000
]  # MiniLM vectors of the snippets, in corpus order
B = 64


def load(conn, tenant):
    t0 = time.perf_counter()
    for s in range(0, len(docs), B):
        part = docs[s : s + B]
        dids = [uuid.uuid4() for _ in part]
        with conn.cursor() as cur:
            cur.execute(
                "insert into documents (id, tenant, collection, sha256, source_uri, kind, markdown) select * from unnest(%s::uuid[], %s::text[], %s::text[], %s::text[], %s::text[], %s::text[], %s::text[])",
                (
                    dids,
                    [tenant] * len(part),
                    ["c"] * len(part),
                    [hashlib.sha256((tenant + t).encode()).hexdigest() for _, t in part],
                    [d for d, _ in part],
                    ["text"] * len(part),
                    [t for _, t in part],
                ),
            )
            cur.execute(
                "insert into parent_chunks (id, document_id, tenant, collection, ordinal, text, char_start, char_end, token_count) select * from unnest(%s::text[], %s::uuid[], %s::text[], %s::text[], %s::int[], %s::text[], %s::int[], %s::int[], %s::int[])",
                (
                    [f"{tenant}-{d}-p" for d, _ in part],
                    dids,
                    [tenant] * len(part),
                    ["c"] * len(part),
                    [0] * len(part),
                    [t for _, t in part],
                    [0] * len(part),
                    [len(t) for _, t in part],
                    [1] * len(part),
                ),
            )
            cur.execute(
                "insert into child_chunks (id, parent_id, document_id, tenant, collection, ordinal, text, char_start, char_end, token_count, embedding) select * from unnest(%s::text[], %s::text[], %s::uuid[], %s::text[], %s::text[], %s::int[], %s::text[], %s::int[], %s::int[], %s::int[], %s::vector[])",
                (
                    [f"{tenant}-{d}-c" for d, _ in part],
                    [f"{tenant}-{d}-p" for d, _ in part],
                    dids,
                    [tenant] * len(part),
                    ["c"] * len(part),
                    [0] * len(part),
                    [t for _, t in part],
                    [0] * len(part),
                    [len(t) for _, t in part],
                    [1] * len(part),
                    list(vecs[s : s + B]),
                ),
            )
        conn.commit()
    return time.perf_counter() - t0


res = {"on": [], "off": []}
with connect() as conn:
    for r in range(3):
        for mode in ("off", "on"):
            conn.execute(
                f"ALTER TABLE child_chunks {'ENABLE' if mode == 'on' else 'DISABLE'} TRIGGER child_chunks_bm25_insert"
            )
            conn.commit()
            tenant = f"trig-{mode}-{r}"
            res[mode].append(load(conn, tenant))
            conn.execute("DELETE FROM documents WHERE tenant = %s", (tenant,))
            conn.commit()
    conn.execute("ALTER TABLE child_chunks ENABLE TRIGGER child_chunks_bm25_insert")
    conn.commit()
on, off = statistics.median(res["on"]), statistics.median(res["off"])
print(
    f"{len(docs)} chunks, batches of {B}: triggers off {off:.2f} s ({len(docs) / off:.0f}/s), on {on:.2f} s ({len(docs) / on:.0f}/s); BM25 indexing adds {(on - off) / len(docs) * 1000:.2f} ms per chunk; rounds {res}"
)
