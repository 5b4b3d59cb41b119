"""``models.embedding_threads`` reaches torch; ``warm_embeddings`` loads only local models."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import torch
from langchain_core.embeddings import Embeddings

from disputatio.errors import ConfigError
from disputatio.models import embeddings as emb
from disputatio.settings import load_settings

TORCH = "local:all-MiniLM-L6-v2"
"""The model on torch (the default, ``onnx:``, has its own thread setting: ONNX Runtime's)."""


class StubModel:
    """Stands for a loaded SentenceTransformer: a tokenizer and an ``encode`` that records."""

    max_seq_length = 256

    def __init__(self) -> None:
        self.calls: list[list[str]] = []

    def tokenizer(self, texts: list[str], **kwargs: Any) -> dict[str, list[list[int]]]:
        return {"input_ids": [[0] * (len(t.split()) + 2) for t in texts]}

    def encode(self, texts: list[str], **kwargs: Any) -> Any:
        self.calls.append(list(texts))
        return np.ones((len(texts), 4), dtype="float32") / 2.0


@pytest.fixture
def stub(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Path, StubModel]]:
    """A 'loaded' model at a folder of its own; torch's thread count restored afterwards."""
    model = StubModel()
    monkeypatch.setitem(emb._st_cache, str(tmp_path), model)
    before = torch.get_num_threads()
    yield tmp_path, model
    torch.set_num_threads(before)


def test_the_thread_setting_reaches_torch(
    stub: tuple[Path, StubModel], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path, _ = stub
    monkeypatch.setattr(emb, "_local_model_path", lambda name, cache, provider="local": path)
    settings = load_settings(home=tmp_path, models={"embedding_threads": 1, "embeddings": TORCH})
    torch.set_num_threads(2)
    model = emb.get_embeddings(settings=settings)
    assert isinstance(model, emb.LocalEmbeddings) and model.threads == 1
    model.embed_documents(["one text"])
    assert torch.get_num_threads() == 1


def test_zero_threads_leaves_torch_alone(
    stub: tuple[Path, StubModel], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path, _ = stub
    monkeypatch.setattr(emb, "_local_model_path", lambda name, cache, provider="local": path)
    torch.set_num_threads(2)
    settings = load_settings(home=tmp_path, models={"embeddings": TORCH})
    emb.get_embeddings(settings=settings).embed_documents(["one text"])
    assert torch.get_num_threads() == 2


def test_negative_threads_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="embedding_threads"):
        load_settings(home=tmp_path, models={"embedding_threads": -1})


def test_warming_a_local_model_runs_one_forward_pass(stub: tuple[Path, StubModel]) -> None:
    path, model = stub
    local = emb.LocalEmbeddings(path)
    assert emb.warm_embeddings(local) is True
    assert len(model.calls) == 1 and len(model.calls[0]) == 1
    assert emb.warm_embeddings(emb.TruncatedEmbeddings(local, 2)) is True  # unwrapped
    assert len(model.calls) == 2


def test_warming_leaves_a_remote_model_alone() -> None:
    class Remote(Embeddings):
        def embed_documents(self, texts: list[str]) -> list[list[float]]:
            raise AssertionError("a request was sent")

        def embed_query(self, text: str) -> list[float]:
            raise AssertionError("a request was sent")

    assert emb.warm_embeddings(Remote()) is False
