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
from typing import Any

from pydantic import AliasChoices, Field, ValidationError
from pydantic_settings import (
    BaseSettings,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    TomlConfigSettingsSource,
)

from disputatio.errors import ConfigError
from disputatio.settings.pipelines import (
    DebateSettings,
    GroundingSettings,
    IngestSettings,
    MedragSettings,
    RdcSettings,
    RefereeSettings,
    RetrievalSettings,
)
from disputatio.settings.services import (
    DatabaseSettings,
    LocalLLMSettings,
    ModelSettings,
    ServerSettings,
)

__all__ = [
    "DatabaseSettings",
    "DebateSettings",
    "GroundingSettings",
    "IngestSettings",
    "LocalLLMSettings",
    "MedragSettings",
    "ModelSettings",
    "RdcSettings",
    "RefereeSettings",
    "RetrievalSettings",
    "ServerSettings",
    "Settings",
    "get_settings",
    "load_settings",
]


def _default_home() -> Path:
    xdg = os.environ.get("XDG_DATA_HOME")
    base = Path(xdg) if xdg else Path.home() / ".local" / "share"
    return base / "disputatio"


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
    grounding: GroundingSettings = Field(default_factory=GroundingSettings)  # type: ignore[arg-type]
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

    def run_tenant(self, given: str | None = None, *, default: str | None = None) -> str:
        """The tenant of a run: the one place a tenant left unnamed gets its default.

        The edge that starts a run resolves the tenant once (the API key's, the CLI's
        ``--tenant``; a retriever built without one, when it is built) and hands it on in the
        run's context or the retriever's default scope; nothing downstream picks its own.

        Args:
            given: The tenant the caller named (None or empty: none named).
            default: A data set's own tenant, preferred to the settings' (the evaluation's
                ``bioasq`` and knowledge-base tenants).

        Returns:
            ``given``, else ``default``, else the settings' ``tenant``.
        """
        return given or default or self.tenant


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
