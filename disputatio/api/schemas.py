"""Request bodies of the API (pydantic; unknown fields are refused so typos are not ignored)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from disputatio.retrievers.languages import known_languages, text_search_config

Protocol = Literal["hierarchical", "medrag", "referee", "rdc"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


def _language(value: str | None) -> str | None:
    """A language the lexical channel can analyse (ISO 639-1 code or configuration name)."""
    if value is not None and text_search_config(value) is None:
        raise ValueError(f"unknown language {value!r}; one of {', '.join(known_languages())}")
    return value


class DocumentMetadata(_Strict):
    """Where an ingested document goes and how it is tagged."""

    collection: str | None = Field(None, min_length=1, max_length=200)
    tags: list[str] = Field(default_factory=list, max_length=50)
    external_id: str | None = Field(None, max_length=500)


class IngestRequest(_Strict):
    """POST /ingest as JSON: a URL to fetch or the id (sha256) of a file uploaded before."""

    url: str | None = Field(None, max_length=2000)
    file_id: str | None = Field(None, pattern=r"^[0-9a-f]{64}$")
    file_name: str | None = Field(None, min_length=1, max_length=255)
    mime_type: str | None = Field(None, max_length=200)
    language: str | None = Field(None, max_length=20)
    metadata: DocumentMetadata = Field(default_factory=DocumentMetadata)  # type: ignore[arg-type]

    _check_language = field_validator("language")(_language)


class QueryFilters(_Strict):
    """Scope of a query inside the caller's tenant."""

    collections: list[str] | None = None
    tags: list[str] | None = None


class QueryRequest(_Strict):
    """POST /query.

    ``language`` is the language of the query: the lexical (BM25) channel stems it with that
    language's text-search configuration only, instead of with every language of the tenant's
    documents. Documents of other languages stay searchable (the semantic channel is
    multilingual); an unknown language is refused.
    """

    query: str = Field(min_length=1)
    language: str | None = Field(None, max_length=20)
    top_k: int | None = Field(None, ge=1)
    filters: QueryFilters = Field(default_factory=QueryFilters)
    return_context: bool = True
    debug: bool = False

    _check_language = field_validator("language")(_language)


class DebateStart(_Strict):
    """POST /debate/start."""

    protocol: Protocol
    question: str | None = Field(None, min_length=1)
    options: dict[str, str] | list[str] | None = None
    case: dict[str, Any] | None = None
    axes: list[dict[str, Any]] | None = None
    constraints: dict[str, Any] | None = None


class Clarification(_Strict):
    """POST /debate/{id}/clarify: answers to the planner's questions (by id, or in order)."""

    answers: dict[str, Any] | list[Any]
