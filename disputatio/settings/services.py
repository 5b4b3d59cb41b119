"""Settings sections of the shared services: models, local server, database, HTTP server.

Re-exported by :mod:`disputatio.settings`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field


class ModelSettings(BaseModel):
    """Which models to use. Model strings are documented in :mod:`disputatio.models`."""

    chat: str = Field(
        "local:qwen2.5-coder-1.5b",
        description="Default chat model for every role without an override.",
    )
    roles: dict[str, str] = Field(
        default_factory=dict,
        description="Per-role chat model overrides, e.g. {'summarizer': 'openai:gpt-4o-mini'}.",
    )
    temperature: float = Field(0.0, ge=0.0, le=2.0, description="Default sampling temperature.")
    max_tokens: int = Field(1024, ge=16, description="Default completion budget per call.")
    timeout_s: float = Field(600.0, gt=0, description="Per-request timeout of chat calls.")
    max_retries: int = Field(2, ge=0, le=10, description="Client-side retries of chat calls.")
    embeddings: str = Field(
        "onnx:all-MiniLM-L6-v2",
        description="Embedding model string (see models.embeddings); the default runs "
        "all-MiniLM-L6-v2 on ONNX Runtime (the torch model's vectors, exported once into the "
        "model cache; 'local:all-MiniLM-L6-v2' runs it on torch).",
    )
    embedding_dim: int = Field(
        384, ge=8, description="Dimension stored in the vector column (after truncation)."
    )
    embedding_truncate: bool = Field(
        False, description="Matryoshka: truncate embeddings to embedding_dim and renormalise."
    )
    embedding_batch_size: int = Field(64, ge=1, description="Texts per embedding batch.")
    embedding_threads: int = Field(
        0,
        ge=0,
        description="Intra-op threads of a local embedding model: torch's, set for the whole "
        "process when a local: model loads, or ONNX Runtime's for an onnx: model (0: the "
        "runtime's default, one per core).",
    )
    remote_batch_size: int = Field(
        64, ge=1, description="Texts per request to a remote embedding or rerank server."
    )
    remote_concurrency: int = Field(
        4, ge=1, description="Requests in flight at once to one remote embedding/rerank server."
    )
    remote_attempts: int = Field(
        3,
        ge=1,
        le=20,
        description="Tries per remote embedding/rerank request (429, 5xx, timeouts).",
    )
    remote_timeout_s: float = Field(
        60.0, gt=0, description="Timeout of one remote embedding/rerank request."
    )
    reranker: str = Field(
        "local:hybrid",
        description="Reranker: 'local:hybrid', 'local:embedding', 'none', "
        "'remote:<model>@<base_url>' (/rerank servers) or 'cross-encoder:<path>'.",
    )


class LocalLLMSettings(BaseModel):
    """The embedded llama.cpp server used by ``local:`` chat models."""

    host: str = Field("127.0.0.1", description="Loopback address the server binds.")
    port: int = Field(0, ge=0, le=65535, description="Port; 0 picks a free one.")
    n_ctx: int = Field(16384, ge=512, description="Total context, shared by the parallel slots.")
    n_parallel: int = Field(2, ge=1, le=16, description="Parallel request slots.")
    n_threads: int | None = Field(None, description="CPU threads; None uses all cores.")
    cache_dir: Path | None = Field(
        None, description="Where reassembled GGUF files are cached (default: $home/models)."
    )
    startup_timeout_s: float = Field(120.0, gt=0, description="Wait this long for /health.")
    cache_prompt: bool = Field(
        True, description="Ask llama.cpp to reuse the KV cache of a slot's longest common prefix."
    )
    slot_affinity: bool = Field(
        True,
        description="Pin each agent to one parallel slot (id_slot) so its prefix stays cached.",
    )
    speculative: Literal["none", "ngram_simple", "ngram_map_k", "ngram_map_k4v", "ngram_mod"] = (
        Field(
            "none",
            description="llama.cpp speculative decoding from n-grams of the context (no draft "
            "model): drafts are checked by the model, so replies keep their distribution.",
        )
    )


class DatabaseSettings(BaseModel):
    """The embedded PostgreSQL server (used when ``DATABASE_URL`` is not set)."""

    port: int = Field(0, ge=0, le=65535, description="Port of the embedded server; 0 = free one.")
    database: str = Field("disputatio", description="Database name created on first start.")
    pool_max_size: int = Field(8, ge=1, description="Connection pool size.")
    connect_timeout_s: int = Field(10, ge=1, description="Connect timeout in seconds.")
    # Sized for the reference machine (2 cores, 24 GiB, shared with the models): the HNSW index
    # of 1M 384-d vectors (~2 GiB) fits in shared_buffers and builds in maintenance_work_mem.
    # They take effect when the embedded server starts (``disputatio db stop`` to apply).
    shared_buffers: str = Field("4GB", description="Embedded server shared_buffers.")
    work_mem: str = Field("64MB", description="Embedded server work_mem (per sort/hash).")
    maintenance_work_mem: str = Field(
        "2GB", description="Embedded server maintenance_work_mem (index builds)."
    )
    effective_cache_size: str = Field(
        "12GB", description="Embedded server effective_cache_size (planner hint)."
    )
    max_wal_size: str = Field(
        "4GB", description="Embedded server max_wal_size (fewer checkpoints in bulk ingestion)."
    )
    server_options: dict[str, str] = Field(
        default_factory=dict, description="Further postgres -c settings for the embedded server."
    )


class ServerSettings(BaseModel):
    """The HTTP API and page (``disputatio serve``, ``disputatio.api``).

    API keys are stored hashed: ``api_keys`` maps ``sha256(key)`` (hex, as printed by
    ``disputatio serve --hash-key KEY``) to the tenant the key acts for.
    """

    host: str = Field("127.0.0.1", description="Address `disputatio serve` binds.")
    port: int = Field(8124, ge=0, le=65535, description="Port `disputatio serve` listens on.")
    api_keys: dict[str, str] = Field(
        default_factory=dict, description="sha256 hex digest of an API key → its tenant."
    )
    max_upload_mb: float = Field(20.0, gt=0, description="Largest file POST /ingest accepts.")
    max_request_kb: int = Field(256, ge=1, description="Largest JSON body of any other route.")
    max_query_chars: int = Field(2000, ge=10, description="Longest question or query accepted.")
    max_top_k: int = Field(20, ge=1, description="Largest top_k POST /query accepts.")
    max_runs_per_tenant: int = Field(
        2, ge=1, description="Debates running at once per tenant (more are refused with 429)."
    )
    max_jobs_per_tenant: int = Field(
        8, ge=1, description="Ingestion jobs queued or running at once per tenant."
    )
    max_queries_per_tenant: int = Field(
        4,
        ge=1,
        description="POST /query requests answered at once per tenant, per server process "
        "(more are refused with 429 and Retry-After), so one tenant cannot take every worker "
        "thread.",
    )
    run_lease_s: float = Field(
        15.0,
        gt=0,
        description="Unused since debates are queue tasks (see worker_stalled_s); kept so "
        "existing settings files load.",
    )
    job_attempts: int = Field(
        3,
        ge=1,
        description="Runs a queued task (ingestion job or debate) gets, the first included, "
        "before it lands in the dead letter (state failed, listed by GET /jobs?state=failed). "
        "A worker that dies mid-task uses up one attempt too.",
    )
    job_retry_base_s: float = Field(
        2.0,
        ge=0,
        description="Backoff before the first retry of a failed task; doubled at each retry.",
    )
    job_retry_max_s: float = Field(300.0, ge=0, description="Longest backoff between retries.")
    worker_concurrency: int = Field(
        2, ge=1, description="Tasks one worker runs at once (`disputatio worker --concurrency`)."
    )
    worker_prewarm: bool = Field(
        True,
        description="Load the ingestion models (a local embedding model, spaCy) in a background "
        "thread as a worker starts, so its first ingestion task finds them loaded "
        "(`disputatio worker --prewarm/--no-prewarm`; `disputatio serve`'s worker too).",
    )
    ingest_batch: int = Field(
        128,
        ge=1,
        description="Queued ingestion jobs (uploads) of one tenant and collection that one task "
        "ingests together, in one run of the ingestion graph (the models see whole batches). "
        "1 = each job alone.",
    )
    ingest_batch_mb: float = Field(
        4.0,
        gt=0,
        description="A batch of queued jobs stops taking more once its files add up to this "
        "many MB (a larger file still goes, alone): small files go in batches of "
        "ingest_batch, large ones do not hold back each other's outcome.",
    )
    worker_heartbeat_s: float = Field(
        5.0, gt=0, description="How often a worker records that it is alive."
    )
    worker_stalled_s: float = Field(
        30.0,
        gt=0,
        description="A worker silent this long is dead: another worker takes up its tasks "
        "(debates resume from their checkpoint). Keep it well above worker_heartbeat_s.",
    )
    queue_name: str = Field(
        "disputatio",
        min_length=1,
        description="The task queue this deployment's servers enqueue to and its workers take "
        "from (two deployments sharing one database use two names).",
    )
    queue_poll_s: float = Field(
        2.0,
        gt=0,
        description="How often a worker looks for tasks, cancellations and dead workers besides "
        "Postgres notifications.",
    )
    stream_poll_s: float = Field(0.25, gt=0, description="How often a stream polls for events.")
    stream_max_s: float = Field(
        3600.0, gt=0, description="A stream closes after this long (clients resume by id)."
    )
    sessions_page_size: int = Field(50, ge=1, description="Sessions listed per request at most.")
    ingest_private_urls: bool = Field(
        False,
        description="Let POST /ingest {url} fetch from loopback, private, link-local or reserved "
        "addresses (redirects included). Off by default: a shared server must not be a proxy "
        "into its own network.",
    )
