"""Typed settings: one object, read from the environment and an optional ``disputatio.toml``.

Precedence (highest first): keyword arguments → environment → TOML file → defaults.

* Environment variables use the ``DISPUTATIO_`` prefix and ``__`` for nesting, e.g.
  ``DISPUTATIO_MODELS__CHAT=openai:gpt-4o-mini`` or ``DISPUTATIO_RETRIEVAL__RRF_K=100``.
  ``DATABASE_URL`` and ``NEO4J_URI`` are also read without the prefix.
* The TOML file is ``./disputatio.toml`` or the path in ``DISPUTATIO_CONFIG``; its tables mirror
  the sections below (``[models]``, ``[retrieval]``, ...).

Every knob has a documented default, and every loop in every graph is bounded by one of them.
"""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

from pydantic import AliasChoices, BaseModel, Field, ValidationError
from pydantic_settings import (
    BaseSettings,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    TomlConfigSettingsSource,
)

from disputatio.errors import ConfigError


def _default_home() -> Path:
    xdg = os.environ.get("XDG_DATA_HOME")
    base = Path(xdg) if xdg else Path.home() / ".local" / "share"
    return base / "disputatio"


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
        "local:all-MiniLM-L6-v2", description="Embedding model string (see models.embeddings)."
    )
    embedding_dim: int = Field(
        384, ge=8, description="Dimension stored in the vector column (after truncation)."
    )
    embedding_truncate: bool = Field(
        False, description="Matryoshka: truncate embeddings to embedding_dim and renormalise."
    )
    embedding_batch_size: int = Field(64, ge=1, description="Texts per embedding batch.")
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


class IngestSettings(BaseModel):
    """Document ingestion."""

    parent_min_tokens: int = Field(800, ge=50, description="Lower target size of parent chunks.")
    parent_max_tokens: int = Field(1000, ge=50, description="Upper bound of parent chunks.")
    child_tokens: int = Field(200, ge=20, description="Target size of child chunks.")
    child_overlap: int = Field(20, ge=0, description="Token overlap between child chunks.")
    max_file_mb: float = Field(50.0, gt=0, description="Files larger than this are refused.")
    ocr: str = Field(
        "rapidocr",
        description="OCR engine: 'rapidocr' (offline), 'none', or 'remote:<model>@<base_url>'.",
    )
    entity_extractor: str = Field(
        "spacy", description="Entity/relation extractor: 'spacy', 'llm' or 'none'."
    )
    dependency_relations: bool = Field(
        False,
        description="spaCy: also extract subject-verb-object relations (runs the parser, "
        "~2.4x slower NER); off = NER + sentence co-occurrence only.",
    )
    batch_size: int = Field(
        512, ge=1, description="Most documents parsed, embedded and written per batch."
    )
    batch_chunks: int = Field(
        2048,
        ge=1,
        description="A batch stops taking documents once it holds this many child chunks "
        "(large batches let the embedder group texts of similar length: less padding).",
    )
    max_batches: int = Field(
        100_000, ge=1, le=1_000_000, description="Bound on the batch loop of one ingestion run."
    )
    synchronous_commit: bool = Field(
        False,
        description="Wait for the WAL flush at each document commit (off: a crash can lose the "
        "last moments of ingestion, never half a document; re-ingesting restores them).",
    )


class RetrievalSettings(BaseModel):
    """The triple-hybrid retrieval funnel.

    Defaults are tuned on BioASQ's calibration split; docs/retrieval_tuning.md has the numbers.
    """

    k_lexical: int = Field(100, ge=1, description="Candidates from the BM25 channel.")
    k_semantic: int = Field(100, ge=1, description="Candidates from the vector channel.")
    k_graph: int = Field(50, ge=1, description="Candidates from the graph channel.")
    k_final: int = Field(8, ge=1, description="Parent sections handed to the answerer.")
    fusion: Literal["convex", "rrf"] = Field(
        "convex",
        description="'convex': weighted mean of min-max normalised channel scores; "
        "'rrf': weighted reciprocal rank fusion.",
    )
    rrf_k: int = Field(60, ge=1, description="RRF constant k in 1/(k + rank) (fusion='rrf').")
    weight_graph: float = Field(
        0.0,
        ge=0,
        description="Fusion weight of the graph channel (0 = the channel is off; on BioASQ's "
        "calibration split 0.05-0.1 changed nDCG@10 by less than 0.4 points either way).",
    )
    weight_semantic: float = Field(0.55, ge=0, description="Fusion weight of the vector channel.")
    weight_lexical: float = Field(0.45, ge=0, description="Fusion weight of the BM25 channel.")
    bm25_k1: float = Field(0.9, ge=0, description="BM25 term-frequency saturation k1.")
    bm25_b: float = Field(0.4, ge=0, le=1, description="BM25 length normalisation b.")
    bm25_postings_per_term: int = Field(
        1000, ge=10, description="Highest-impact postings read per query term (bounds BM25)."
    )
    graph_hops: int = Field(1, ge=0, le=1, description="Relation hops from the seed entities.")
    graph_neighbour_cap: int = Field(
        20, ge=1, description="Neighbours kept per seed entity (strongest edges first)."
    )
    graph_query_ner: bool = Field(
        True,
        description="Recognise query entities with the ingestion NER (spaCy) as graph seeds, "
        "besides whole-key matches of the query's word n-grams.",
    )
    parent_rest_share: float = Field(
        0.1,
        ge=0,
        le=1,
        description="A parent scores its best child plus at most this share of it from the rest.",
    )
    channel_timeout_s: float | None = Field(
        5.0,
        gt=0,
        description="Deadline per channel (statement_timeout + thread wait); late channels are "
        "dropped and recorded in the trace. None = no deadline.",
    )
    rerank_blend: float = Field(
        0.0,
        ge=0,
        le=1,
        description="local:hybrid orders by blend·relevance + (1-blend)·fusion score.",
    )
    relevance_platt_a: float = Field(
        12.0, description="Relevance = sigmoid(a·cosine + b): slope a (calibrate refits it)."
    )
    relevance_platt_b: float = Field(
        -6.0, description="Relevance = sigmoid(a·cosine + b): offset b (calibrate refits it)."
    )
    rerank_threshold: float = Field(
        0.25,
        description="Refuse (NO_SUITABLE_CONTEXT) when the best calibrated relevance is below "
        "(calibrate refits it).",
    )
    trim_alpha: float = Field(
        0.5, ge=0, le=1, description="Uncalibrated trim: keep chunks scoring >= alpha * s_max."
    )
    conformal_alpha: float = Field(
        0.1, gt=0, lt=1, description="Miscoverage level of the calibrated (conformal) trim."
    )
    refusal_alpha: float = Field(
        0.05,
        gt=0,
        lt=1,
        description="calibrate sets the refusal threshold so at most this share of on-topic "
        "calibration questions is refused.",
    )
    planner: str = Field("deterministic", description="Query planner: 'deterministic' or 'llm'.")

    def weight_for(self, channel: str) -> float:
        """The fusion weight of ``channel`` (``lexical``, ``semantic`` or ``graph``)."""
        return float(getattr(self, f"weight_{channel}"))


class DebateSettings(BaseModel):
    """Hierarchical debate (orchestrator → sub-questions → workers → debate → review)."""

    max_depth: int = Field(2, ge=0, le=4, description="Depth of the sub-question tree.")
    max_breadth: int = Field(3, ge=1, le=6, description="Children per sub-question.")
    workers: int = Field(3, ge=1, le=3, description="Workers per sub-question (2–3).")
    worker_temperatures: list[float] = Field(
        default_factory=lambda: [0.7, 0.3, 0.5], description="Temperature per worker persona."
    )
    rounds: int = Field(2, ge=0, le=6, description="Debate rounds when workers disagree.")
    max_tool_calls: int = Field(3, ge=0, description="Retrieval calls per worker turn.")
    agreement_threshold: float = Field(
        0.8, ge=0, le=1, description="Answers this similar count as agreement."
    )
    token_budget: int = Field(200_000, ge=1000, description="Hard token budget per question.")
    review_searches: int = Field(
        1, ge=0, le=3, description="Extra retrievals the reviewer may ask for per debated leaf."
    )
    verdict_last: bool = Field(
        False,
        description="Ask for the support first and the verdict line last (small local models).",
    )


class MedragSettings(BaseModel):
    """MedRAG-style two-agent debate."""

    temperatures: list[float] = Field(
        default_factory=lambda: [0.7, 0.3], description="Agent1 and Agent2 temperatures."
    )
    summary_temperature: float = Field(0.1, description="Temperature of the round summaries.")
    summary_max_tokens: int = Field(120, ge=16, description="Budget of each round summary.")
    rounds: int = Field(2, ge=1, le=6, description="Debate rounds.")
    k: int = Field(6, ge=1, description="Snippets retrieved per agent per round.")
    section_max_chars: int = Field(
        700, ge=100, description="Characters of each snippet shown to an agent."
    )
    max_tokens: int = Field(
        192, ge=16, description="Completion budget of an agent's answer (2 sentences + box)."
    )
    query_max_tokens: int = Field(
        48, ge=8, description='Completion budget of an agent\'s retrieve("query") call.'
    )
    verifier_temperature: float = Field(0.7, ge=0, le=2, description="Verifier temperature.")
    verifier_max_chars: int = Field(3500, ge=500, description="Debate text shown to the verifier.")
    response_max_chars: int = Field(
        2000, ge=100, description="Replies are cut to this many characters after cleaning."
    )
    repetition_penalty: float = Field(
        1.2, ge=1.0, le=2.0, description="llama.cpp repeat_penalty (local and vLLM servers)."
    )
    stop: list[str] = Field(
        default_factory=lambda: ["<|im_end|>", "<|endoftext|>", "\nQuestion:", "\n\n\n\n"],
        description="Stop sequences of agent, summary and verifier calls.",
    )


class RefereeSettings(BaseModel):
    """Tech Referee."""

    max_options: int = Field(3, ge=2, le=3, description="Options compared at most.")
    max_clarifications: int = Field(3, ge=0, description="Clarification questions at most.")
    max_retries: int = Field(
        3, ge=0, description="Retries of a phase after a transient (connection, 5xx) error."
    )
    rate_limit_retries: int = Field(
        2, ge=0, description="Retries after a rate limit (429), with exponential backoff."
    )
    max_fill_rounds: int = Field(
        2, ge=0, description="Times the referee is asked again for unscored or ambiguous cells."
    )
    max_claims_checked: int = Field(
        8, ge=1, description="Claims of each opponent one cross-examiner fact-checks at most."
    )
    web_search: Literal["auto", "none", "tavily", "exa"] = Field(
        "auto",
        description="Web search of the agents besides the corpus: 'auto' uses Tavily when "
        "TAVILY_API_KEY is set, else Exa when EXA_API_KEY is set, else none.",
    )


class RdcSettings(BaseModel):
    """ResearchDebateChain."""

    quality_alpha: float = Field(1.0, gt=0, description="f(q) = q**alpha in log-odds fusion.")
    max_rounds: int = Field(4, ge=1, description="Moderator rounds at most.")
    entropy_stop: float = Field(0.2, ge=0, description="Stop when entropy (nats) is below.")
    voi_stop: float = Field(0.01, ge=0, description="Stop when the best test's EIG is below.")
    max_risk: float = Field(0.5, ge=0, le=1, description="Tests riskier than this are excluded.")
    speaker_selection: str = Field(
        "round_robin", description="'round_robin', 'linucb' or 'thompson' (linear Thompson)."
    )
    semantics: Literal["bipolar", "derived"] = Field(
        "bipolar",
        description="Labelling: the seed's bipolar rule, or grounded over derived attacks.",
    )
    label_consistency: float = Field(
        0.0, ge=0, description="Strength of the label/posterior consistency regulariser (0: off)."
    )
    min_entropy_drop: float = Field(
        0.0, ge=0, description="Stop when each of the last stall_turns turns dropped less (nats)."
    )
    stall_turns: int = Field(3, ge=1, description="Turns the entropy-drop halt looks back over.")
    top_pairs: int = Field(3, ge=2, description="Top hypotheses whose pairs get Δ_ik(T).")
    max_support_paths: int = Field(
        256, ge=1, description="Support paths enumerated for the counter-evidence hitting set."
    )
    retrieved_hypotheses: int = Field(
        2, ge=0, description="Hypotheses agents may add from corpus retrieval (0: case only)."
    )
    ledger: Literal["postgres", "memory"] = Field(
        "postgres", description="Ledger of runs that inject none: Postgres, or in-process."
    )
    memory: bool = Field(True, description="Keep per-agent diaries in the LangGraph store.")
    reliabilities: dict[str, float] = Field(
        default_factory=dict,
        description="β per evidence source (as `disputatio rdc calibrate` fits them): "
        "multiplies the quality of the case's findings of that source (default 1).",
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
        15.0, gt=0, description="A running debate whose lease is this old is resumed on startup."
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


class Settings(BaseSettings):
    """All disputatio settings. Build with :func:`get_settings` or directly for overrides."""

    model_config = SettingsConfigDict(
        env_prefix="DISPUTATIO_",
        env_nested_delimiter="__",
        extra="forbid",
        populate_by_name=True,
    )

    home: Path = Field(
        default_factory=_default_home,
        description="Data directory (database, model cache, run files).",
    )
    database_url: str | None = Field(
        None,
        validation_alias=AliasChoices("DATABASE_URL", "DISPUTATIO_DATABASE_URL", "database_url"),
        description="Use this Postgres (with pgvector) instead of the embedded one.",
    )
    neo4j_uri: str | None = Field(
        None,
        validation_alias=AliasChoices("NEO4J_URI", "DISPUTATIO_NEO4J_URI", "neo4j_uri"),
        description="Use a Neo4j graph store at this URI.",
    )
    tenant: str = Field("default", description="Default tenant of ingestion and retrieval.")
    collection: str = Field("default", description="Default collection.")
    models: ModelSettings = Field(default_factory=ModelSettings)  # type: ignore[arg-type]
    local_llm: LocalLLMSettings = Field(default_factory=LocalLLMSettings)  # type: ignore[arg-type]
    database: DatabaseSettings = Field(default_factory=DatabaseSettings)  # type: ignore[arg-type]
    ingest: IngestSettings = Field(default_factory=IngestSettings)  # type: ignore[arg-type]
    retrieval: RetrievalSettings = Field(default_factory=RetrievalSettings)  # type: ignore[arg-type]
    debate: DebateSettings = Field(default_factory=DebateSettings)  # type: ignore[arg-type]
    medrag: MedragSettings = Field(default_factory=MedragSettings)  # type: ignore[arg-type]
    referee: RefereeSettings = Field(default_factory=RefereeSettings)  # type: ignore[arg-type]
    rdc: RdcSettings = Field(default_factory=RdcSettings)  # type: ignore[arg-type]
    server: ServerSettings = Field(default_factory=ServerSettings)  # type: ignore[arg-type]

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        """Read init kwargs, then the environment, then the TOML file."""
        toml_path = Path(os.environ.get("DISPUTATIO_CONFIG", "disputatio.toml"))
        return (
            init_settings,
            env_settings,
            TomlConfigSettingsSource(settings_cls, toml_file=toml_path),
        )

    @property
    def model_cache_dir(self) -> Path:
        """Directory holding reassembled GGUF files."""
        return self.local_llm.cache_dir or self.home / "models"

    def chat_model_for(self, role: str | None = None) -> str:
        """Return the chat model string for ``role`` (falls back to ``models.chat``)."""
        if role and role in self.models.roles:
            return self.models.roles[role]
        return self.models.chat


def load_settings(**overrides: Any) -> Settings:
    """Build settings, turning validation errors into one-line :class:`ConfigError` s.

    Args:
        **overrides: Field values that win over the environment and the TOML file.

    Returns:
        The validated settings.

    Raises:
        ConfigError: If a value is invalid.
    """
    try:
        return Settings(**overrides)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ())) or "settings"
        raise ConfigError(f"invalid setting {where}: {first.get('msg')}") from exc


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """Return the process-wide settings (cached; call ``get_settings.cache_clear()`` to reload)."""
    return load_settings()
