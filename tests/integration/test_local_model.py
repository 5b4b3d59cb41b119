"""The real local model through llama.cpp's OpenAI-compatible server (0.5B for speed)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic import BaseModel, Field

from disputatio.models import get_chat_model
from disputatio.models.local import LOCAL_MODELS, ensure_gguf, ensure_server
from disputatio.settings import Settings

pytestmark = [pytest.mark.integration, pytest.mark.model]

NAME = "qwen2.5-coder-0.5b"


def test_gguf_is_reassembled_verified_and_rebuilt_when_corrupted(settings: Settings) -> None:
    path = ensure_gguf(NAME, settings.model_cache_dir)
    assert path.stat().st_size == LOCAL_MODELS[NAME].size
    sidecar = json.loads(path.with_suffix(".verified.json").read_text())
    assert sidecar["sha256"] == LOCAL_MODELS[NAME].sha256
    # corrupt one byte in the middle: the next call notices and rebuilds
    with path.open("r+b") as handle:
        handle.seek(1000)
        byte = handle.read(1)
        handle.seek(1000)
        handle.write(bytes([byte[0] ^ 0xFF]))
    rebuilt = ensure_gguf(NAME, settings.model_cache_dir)
    with rebuilt.open("rb") as handle:
        handle.seek(1000)
        assert handle.read(1) == byte


def test_local_model_answers_through_openai_compatible_server(settings: Settings) -> None:
    base = ensure_server(NAME, settings)
    assert base.startswith("http://127.0.0.1:") and base.endswith("/v1")
    assert ensure_server(NAME, settings) == base  # one server per process
    llm = get_chat_model(f"local:{NAME}", settings=settings, max_tokens=32)
    reply = llm.invoke("What is 2 + 2? Answer with a number only.")
    assert isinstance(reply.content, str) and reply.content.strip()
    assert reply.usage_metadata and reply.usage_metadata["output_tokens"] > 0


def test_server_takes_stop_penalty_cache_and_slot(settings: Settings) -> None:
    llm = get_chat_model(
        f"local:{NAME}",
        settings=settings,
        max_tokens=24,
        stop=["<|im_end|>", "\nQuestion:"],
        repetition_penalty=1.2,
        slot=1,
    )
    assert llm.extra_body == {"repeat_penalty": 1.2, "cache_prompt": True, "id_slot": 1}
    reply = llm.invoke("Name one primary colour.")
    assert isinstance(reply.content, str) and reply.content.strip()


class _Verdict(BaseModel):
    answer: str = Field(description="one or two words")
    confident: bool


def test_structured_output_via_json_schema(settings: Settings) -> None:
    llm = get_chat_model(f"local:{NAME}", settings=settings, max_tokens=64)
    out = llm.with_structured_output(_Verdict, method="json_schema").invoke(
        "Which organ produces insulin? Reply with one word."
    )
    assert isinstance(out, _Verdict) and out.answer.strip()


def test_missing_cache_dir_is_created(tmp_path: Path) -> None:
    # the cache folder need not exist: ensure_gguf creates it (reuses installed parts)
    target = ensure_gguf(NAME, tmp_path / "nested" / "cache")
    assert target.exists()
