"""``local_llm.speculative``: the llama.cpp server is started with the n-gram type asked for."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from disputatio.errors import ConfigError
from disputatio.models import local
from disputatio.settings import load_settings


class _Started(Exception):
    """Raised by the fake server: the test only needs the parameters it was given."""


def _params(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, **local_llm: Any) -> Any:
    import xllamacpp

    seen: list[Any] = []

    def fake_server(params: Any) -> Any:
        seen.append(params)
        raise _Started

    monkeypatch.setattr(xllamacpp, "Server", fake_server)
    monkeypatch.setattr(local, "ensure_gguf", lambda name, cache_dir=None: tmp_path / "m.gguf")
    settings = load_settings(home=tmp_path, local_llm=local_llm)
    with pytest.raises(Exception, match="failed to start"):
        local._start_server("qwen2.5-coder-0.5b", settings)
    return seen[0]


def test_speculation_is_off_by_default(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import xllamacpp

    params = _params(monkeypatch, tmp_path)
    assert params.speculative.types == [
        xllamacpp.common_speculative_type.COMMON_SPECULATIVE_TYPE_NONE
    ]


def test_an_ngram_type_is_passed_to_the_server(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import xllamacpp

    params = _params(monkeypatch, tmp_path, speculative="ngram_mod")
    kind = xllamacpp.common_speculative_type.COMMON_SPECULATIVE_TYPE_NGRAM_MOD
    assert params.speculative.types == [kind]


def test_an_unknown_type_is_refused() -> None:
    with pytest.raises(ConfigError, match="speculative"):
        load_settings(local_llm={"speculative": "draft_simple"})
