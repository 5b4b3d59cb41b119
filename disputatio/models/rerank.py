"""Rerankers: score (query, passage) pairs in [0, 1].

No cross-encoder weights ship in any registry package, so the offline default embeds nothing:
the funnel's rerank stage (:mod:`disputatio.retrievers.relevance`) scores every candidate by the
cosine between the query vector the semantic channel already computed and the children's *stored*
vectors, calibrated to [0, 1] (``disputatio calibrate``), and the local rerankers only say how
that relevance mixes with the fusion order. A ``/rerank`` server (vLLM, TEI, Jina/Cohere-style)
and a sentence-transformers ``CrossEncoder`` loaded from a local folder are one config string
away:

=============================  ==================================================================
``local:hybrid``               order by blend · stored-vector relevance + (1 − blend) · fusion
                               (default; ``retrieval.rerank_blend``, 0 = fusion order, chosen
                               on BioASQ's calibration split)
``local:embedding``            order by stored-vector relevance alone
``remote:<model>@<base_url>``  POST ``<base_url>/rerank`` (vLLM/Jina/Cohere or TEI response shape)
``cross-encoder:<path>``       ``sentence_transformers.CrossEncoder`` from a folder on disk
``none``                       keep the fusion order (scores: stored-vector relevance, so the
                               refusal threshold still applies)
``local:reembed``              re-embed query and passages (for the LangChain compressor only:
                               documents outside the database have no stored vectors)
=============================  ==================================================================

Every reranker is also usable as a LangChain document compressor via :class:`RerankCompressor`.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

from langchain_core.callbacks import Callbacks
from langchain_core.documents import BaseDocumentCompressor, Document
from langchain_core.embeddings import Embeddings
from pydantic import ConfigDict

from disputatio.errors import ConfigError, ModelError
from disputatio.models.remote_batches import RemoteModel
from disputatio.settings import Settings, get_settings

_WORD = re.compile(r"[a-z0-9]+")
_STOP = frozenset(
    (
        "a an and are as at be by for from has have how in is it its of on or that the to was "
        "what when where which who why will with does do did can"
    ).split()
)


@runtime_checkable
class Reranker(Protocol):
    """Anything that scores passages against a query."""

    def score(self, query: str, texts: Sequence[str]) -> list[float]:
        """Return one relevance score in [0, 1] per text, in input order."""
        ...


def rerank_documents(
    reranker: Reranker, query: str, documents: Sequence[Document], top_n: int | None = None
) -> list[Document]:
    """Return ``documents`` sorted by score, each with ``metadata['rerank_score']`` set."""
    scores = reranker.score(query, [d.page_content for d in documents])
    ranked = sorted(zip(documents, scores, strict=True), key=lambda p: p[1], reverse=True)
    out = [
        Document(page_content=d.page_content, metadata={**d.metadata, "rerank_score": s}, id=d.id)
        for d, s in ranked
    ]
    return out[:top_n] if top_n is not None else out


def _terms(text: str) -> set[str]:
    return {w for w in _WORD.findall(text.lower()) if w not in _STOP and len(w) > 1}


def _cosine(a: Sequence[float], b: Sequence[float]) -> float:
    dot = sum(x * y for x, y in zip(a, b, strict=True))
    na = math.sqrt(sum(x * x for x in a)) or 1.0
    nb = math.sqrt(sum(y * y for y in b)) or 1.0
    return dot / (na * nb)


class EmbeddingReranker:
    """Cosine similarity of bi-encoder embeddings, clipped to [0, 1].

    Args:
        embeddings: The embedding model.
        lexical_weight: Weight of query-term coverage blended into the score (0 = pure cosine).
    """

    def __init__(self, embeddings: Embeddings, lexical_weight: float = 0.0) -> None:
        self.embeddings = embeddings
        self.lexical_weight = lexical_weight

    def score(self, query: str, texts: Sequence[str]) -> list[float]:
        """Score ``texts`` against ``query``."""
        if not texts:
            return []
        q = self.embeddings.embed_query(query)
        docs = self.embeddings.embed_documents(list(texts))
        q_terms = _terms(query)
        out = []
        for text, vec in zip(texts, docs, strict=True):
            cos = max(0.0, min(1.0, _cosine(q, vec)))
            coverage = len(q_terms & _terms(text)) / len(q_terms) if q_terms else 0.0
            w = self.lexical_weight
            out.append((1 - w) * cos + w * coverage)
        return out


class StoredVectorReranker:
    """Rerank by the stored-vector relevance the funnel computes, mixed with the fusion order.

    Inside the funnel nothing is embedded again (the stage reads ``uses_stored_vectors`` and
    ``blend``). Outside it (:meth:`score` on raw texts) it falls back to cosine over fresh
    embeddings when it was given an embedding model, else 1.0 per text.

    Args:
        blend: Weight of the relevance in the order (1 = relevance only, 0 = fusion order).
        embeddings: Embedding model for :meth:`score` outside the funnel (optional).
        name: Name recorded in traces and calibrations.
    """

    uses_stored_vectors = True

    def __init__(
        self, blend: float = 0.5, embeddings: Embeddings | None = None, name: str = "local"
    ) -> None:
        if not 0.0 <= blend <= 1.0:
            raise ConfigError(f"reranker blend must be in [0, 1], got {blend}")
        self.blend = blend
        self.embeddings = embeddings
        self.name = name

    def score(self, query: str, texts: Sequence[str]) -> list[float]:
        """Cosine over fresh embeddings (only used outside the funnel)."""
        if self.embeddings is None:
            return [1.0] * len(texts)
        return EmbeddingReranker(self.embeddings).score(query, texts)


class NoReranker:
    """Keeps the fusion order.

    Inside the funnel, sections still carry the calibrated stored-vector relevance as their
    score, so the refusal threshold keeps working; on raw texts (:meth:`score`) every passage
    scores 1.0.
    """

    uses_stored_vectors = True
    blend = 0.0
    name = "none"

    def score(self, query: str, texts: Sequence[str]) -> list[float]:
        """Return 1.0 for every text."""
        return [1.0] * len(texts)


class RemoteReranker(RemoteModel):
    """A ``/rerank`` endpoint: vLLM, Jina and Cohere shapes, or Hugging Face TEI.

    Passages go in batches of ``batch_size`` (each with the query), at most ``concurrency``
    requests in flight, each retried on 429, 5xx and timeouts
    (:class:`~disputatio.models.remote_batches.RemoteBatcher`). The arguments are
    :class:`~disputatio.models.remote_batches.RemoteModel`'s (``/rerank`` is appended to
    ``base_url``; ``model`` is ignored by TEI).
    """

    endpoint = "/rerank"
    what = "reranker"

    @property
    def name(self) -> str:
        """``remote:<model>``."""
        return f"remote:{self.model}"

    def score(self, query: str, texts: Sequence[str]) -> list[float]:
        """Score ``texts`` against ``query`` on the server."""
        return self.batcher.map(
            list(texts),
            lambda batch: {"model": self.model, "query": query, "documents": batch, "texts": batch},
            self._parse,
        )

    def _parse(self, data: Any, batch: list[str]) -> list[float]:
        items = data.get("results", data) if isinstance(data, dict) else data
        scores = [0.0] * len(batch)
        try:
            for item in items:
                raw = item.get("relevance_score", item.get("score"))
                scores[int(item["index"])] = _squash(float(raw))
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
            raise ModelError(f"reranker at {self.url} answered a malformed item: {exc}") from exc
        return scores


def _squash(value: float) -> float:
    """Map a score to [0, 1]: probabilities stay, logits go through the sigmoid."""
    if 0.0 <= value <= 1.0:
        return value
    return 1.0 / (1.0 + math.exp(-value))


class CrossEncoderReranker:
    """A sentence-transformers ``CrossEncoder`` loaded from a local folder.

    Args:
        path: Folder of the cross-encoder model.
    """

    def __init__(self, path: str) -> None:
        if not os.path.isdir(path):
            raise ConfigError(f"cross-encoder folder {path!r} does not exist")
        from sentence_transformers import CrossEncoder

        self.model = CrossEncoder(path, device="cpu", local_files_only=True)
        self.name = f"cross-encoder:{path}"

    def score(self, query: str, texts: Sequence[str]) -> list[float]:
        """Score ``texts`` against ``query``."""
        if not texts:
            return []
        raw = self.model.predict([(query, t) for t in texts], show_progress_bar=False)
        return [_squash(float(x)) for x in raw]


def get_reranker(spec: str | None = None, *, settings: Settings | None = None) -> Reranker:
    """Build the reranker named by ``spec`` (default: ``settings.models.reranker``).

    Raises:
        ConfigError: If the string is invalid.
    """
    settings = settings or get_settings()
    spec = spec or settings.models.reranker
    if spec == "none":
        return NoReranker()
    kind, _, rest = spec.partition(":")
    if kind == "local" and rest in ("hybrid", "embedding", "reembed"):
        from disputatio.models.embeddings import get_embeddings

        if rest == "reembed":
            return EmbeddingReranker(get_embeddings(settings=settings), lexical_weight=0.2)
        blend = settings.retrieval.rerank_blend if rest == "hybrid" else 1.0
        return StoredVectorReranker(blend, get_embeddings(settings=settings), name=spec)
    if kind == "remote":
        remote = RemoteReranker.from_target(rest, settings.models, "RERANK_API_KEY")
        if remote is not None:
            return remote
    if kind == "cross-encoder" and rest:
        return CrossEncoderReranker(rest)
    raise ConfigError(
        f"unknown reranker {spec!r}: expected local:hybrid, local:embedding, local:reembed, none, "
        "remote:<model>@<base_url> or cross-encoder:<path>"
    )


class RerankCompressor(BaseDocumentCompressor):
    """LangChain adapter: use any :class:`Reranker` in a ``ContextualCompressionRetriever``."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    reranker: Any
    top_n: int | None = None

    def compress_documents(
        self, documents: Sequence[Document], query: str, callbacks: Callbacks | None = None
    ) -> Sequence[Document]:
        """Rerank ``documents`` for ``query`` and keep the best ``top_n``."""
        return rerank_documents(self.reranker, query, documents, self.top_n)
