"""Local embeddings are encoded in passes of similar length within a padded-token budget."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from disputatio.models import embeddings
from disputatio.models.embeddings import LocalEmbeddings, token_batches


@given(
    st.lists(st.integers(min_value=1, max_value=600), max_size=300),
    st.integers(min_value=1, max_value=80),
    st.integers(min_value=1, max_value=5000),
)
def test_every_text_once_within_the_budget(lengths: list[int], texts: int, tokens: int) -> None:
    batches = token_batches(lengths, texts, tokens)
    assert sorted(i for b in batches for i in b) == list(range(len(lengths)))
    for batch in batches:
        assert 1 <= len(batch) <= texts
        longest = max(lengths[i] for i in batch)
        assert lengths[batch[0]] == longest  # longest first: the pass is padded to it
        assert len(batch) == 1 or len(batch) * longest <= tokens


@given(st.lists(st.integers(min_value=1, max_value=300), min_size=2, max_size=200))
def test_similar_lengths_share_a_pass(lengths: list[int]) -> None:
    """Texts go longest first, so no pass holds a text longer than one of an earlier pass."""
    batches = token_batches(lengths, 16, 1024)
    for before, after in itertools.pairwise(batches):
        assert min(lengths[i] for i in before) >= max(lengths[i] for i in after)


class _FakeTokenizer:
    def __call__(self, texts: list[str], **kwargs: Any) -> dict[str, list[list[int]]]:
        return {"input_ids": [[0] * (len(t.split()) + 2) for t in texts]}


class _FakeModel:
    """Words + 2 tokens a text; a text's vector is derived from it alone; passes recorded."""

    max_seq_length = 256

    def __init__(self) -> None:
        self.tokenizer = _FakeTokenizer()
        self.passes: list[list[str]] = []

    def encode(self, texts: list[str], batch_size: int, **kwargs: Any) -> Any:
        assert batch_size == len(texts)
        self.passes.append(list(texts))
        vectors = np.array([[len(t), sum(map(ord, t)) % 97 + 1.0] for t in texts])
        return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def test_vectors_come_back_in_input_order(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fake = _FakeModel()
    monkeypatch.setitem(embeddings._st_cache, str(tmp_path), fake)
    texts = [" ".join(["w"] * n) + f" t{n}" for n in (3, 40, 1, 17, 40, 9, 2, 60, 5)]
    model = LocalEmbeddings(tmp_path, batch_size=4, max_batch_tokens=100)
    got = model.embed_documents(texts)
    passes = list(fake.passes)
    assert got == [fake.encode([t], batch_size=1)[0].tolist() for t in texts]
    assert sorted(t for p in passes for t in p) == sorted(texts)
    for done in passes:
        lengths = [len(t.split()) + 2 for t in done]
        assert len(done) <= 4 and (len(done) == 1 or len(done) * max(lengths) <= 100)
    assert model.embed_documents([]) == []
