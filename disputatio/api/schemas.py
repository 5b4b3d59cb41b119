"""Request bodies of the API (unknown fields are refused) and the shapes of its answers.

Answers: ``POST /query`` (:class:`QueryAnswer`) and ``GET /debate/{id}/verdict``
(:class:`DebateVerdict`, built by :func:`verdict_body`, which the CLI's ``--json`` prints too).

This module imports no web framework: the CLI reads the verdict shape from here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, field_validator

from disputatio.graphs import registry
from disputatio.retrievers.languages import known_languages, text_search_config
from disputatio.state.claims import Claim


def _served_protocol(value: str) -> str:
    """A protocol ``POST /debate/start`` serves (the graph registry's ``api_protocols()``)."""
    served = registry.api_protocols()
    if value not in served:
        raise ValueError(f"unknown protocol {value!r}; one of {', '.join(served)}")
    return value


def _any_protocol(value: str) -> str:
    """A registered debate protocol (a verdict may come from a protocol the CLI alone runs)."""
    try:
        registry.by_protocol(value)
    except KeyError as exc:
        raise ValueError(exc.args[0]) from None
    return value


#: A protocol of ``POST /debate/start``: one the graph registry serves on the API.
Protocol = Annotated[str, AfterValidator(_served_protocol)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class _Tenanted(_Strict):
    """A body that may name a ``tenant``: accepted and ignored (the API key's tenant is used).

    The tenant always comes from the key; a ``tenant`` sent anyway is overwritten, as on the
    LangGraph routes, rather than refused. It never reaches a dump of the request.
    """

    tenant: Any = Field(None, exclude=True, description="Ignored: the API key's tenant is used.")


def _not_blank(value: str | None) -> str | None:
    """A text that holds more than whitespace (None passes: the field is optional)."""
    if value is not None and not value.strip():
        raise ValueError("must not be blank (whitespace only)")
    return value


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


class IngestRequest(_Tenanted):
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


class QueryRequest(_Tenanted):
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
    _check_query = field_validator("query")(_not_blank)


class DebateStart(_Tenanted):
    """POST /debate/start."""

    protocol: Protocol
    question: str | None = Field(None, min_length=1)
    options: dict[str, str] | list[str] | None = None
    case: dict[str, Any] | None = None
    axes: list[dict[str, Any]] | None = None
    constraints: dict[str, Any] | None = None

    _check_question = field_validator("question")(_not_blank)


class Clarification(_Strict):
    """POST /debate/{id}/clarify: answers to the planner's questions (by id, or in order)."""

    answers: dict[str, Any] | list[Any]


# --- answers ---------------------------------------------------------------------------------


class QueryAnswer(BaseModel):
    """``POST /query``'s answer (200).

    Attributes:
        answer: The checked answer: supported claims with their ``[id]`` citations, or a
            statement that the documents do not answer; None when retrieval refused (then
            ``error`` says why).
        claims: Every claim of the answer in the order written, each with its verdict
            (``supported``, ``unsupported``, ``uncited``, ``not_found``, or null for a line that
            states nothing to check), its citations, the supporting sentence (``evidence``)
            and whether it was ``dropped`` from the answer or ``attributed`` by the checker.
        grounded: Every factual claim kept in the answer is supported by a cited sentence.
        not_found: The documents do not answer the question.
        citations: Section ids cited by the claims kept in the answer.
        confidence: The fitted probability that the answer is right (None when retrieval
            refused); ``trace.relevance`` holds the judge's P(it answers the question).
        contexts: The sections the answer could use (with ``return_context``).
        trace: Scores, channels and timings (``draft``, ``repaired`` when a repair was asked,
            ``usage``, ``invalid_citations`` with ``debug``).
        error: ``{code: "NO_SUITABLE_CONTEXT", message, max_rerank_score}`` when refused.
    """

    answer: str | None
    claims: list[Claim] = Field(default_factory=list)
    grounded: bool = False
    not_found: bool = False
    citations: list[str] = Field(default_factory=list)
    confidence: float | None = None
    contexts: list[dict[str, Any]] | None = None
    trace: dict[str, Any] = Field(default_factory=dict)
    error: dict[str, Any] | None = None


class DebateVerdict(BaseModel):
    """``GET /debate/{id}/verdict`` (and ``disputatio ask|referee|rdc run --json``).

    The protocol's own fields (its registry entry's ``verdict_fields``: ``answer``,
    ``citations``, ``confidence``, ``validation``, ``consensus_type``, ``ruling``,
    ``verdict``...) come beside these. Fields a run did not produce are left out, except
    ``claims`` (always a list; empty for a run stored before answers carried claims).

    Attributes:
        case_id: The debate (the CLI: its checkpoint thread id).
        protocol: ``hierarchical``, ``medrag``, ``referee``, ``rdc``: a registered protocol.
        claims: The final answer's claims with their verdicts (see :class:`QueryAnswer`).
    """

    model_config = ConfigDict(extra="allow")

    case_id: str
    protocol: Annotated[str, AfterValidator(_any_protocol)]
    claims: list[Claim] = Field(default_factory=list)


def verdict_body(protocol: str, case_id: str, result: Mapping[str, Any]) -> dict[str, Any]:
    """The verdict of a finished debate from its final state (JSON values).

    Args:
        protocol: The protocol that ran (its registry entry names the verdict's fields).
        case_id: The debate's id.
        result: The run's final state (or its stored output).

    Returns:
        ``{case_id, protocol, <the protocol's verdict fields>, claims}``.
    """
    body: dict[str, Any] = {"case_id": case_id, "protocol": protocol}
    fields = registry.by_protocol(protocol).verdict_fields
    body.update({k: result[k] for k in fields if k in result})
    body["claims"] = list(result.get("claims") or [])
    return body
