from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import BaseModel

from disputatio.errors import ConfigError
from disputatio.settings import Settings, load_settings


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """Other tests' session fixtures set DISPUTATIO_* variables; start from none."""
    import os

    for name in list(os.environ):
        if name.startswith("DISPUTATIO_") or name in ("DATABASE_URL", "NEO4J_URI"):
            monkeypatch.delenv(name)


def test_defaults_are_documented_and_sane() -> None:
    s = load_settings()
    assert s.models.chat == "local:qwen2.5-coder-1.5b"
    # the hybrid funnel keeps both text channels on; the graph channel may be off (weight 0)
    weight = s.retrieval.weight_for
    assert weight("semantic") > 0 and weight("lexical") > 0
    assert weight("graph") >= 0
    assert s.medrag.temperatures == [0.7, 0.3]
    # every field of every section carries a description (shown by Studio and the docs)
    sections = [n for n, v in s if isinstance(v, BaseModel)]
    assert {"models", "retrieval", "ingest", "debate", "medrag", "referee", "rdc"} <= set(sections)
    for section in sections:
        model = type(getattr(s, section))
        for name, field in model.model_fields.items():
            assert field.description, f"{section}.{name} has no description"


def test_environment_overrides_nested_and_unprefixed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISPUTATIO_RETRIEVAL__RRF_K", "100")
    monkeypatch.setenv("DATABASE_URL", "postgresql://u@db.example:5432/x")
    monkeypatch.setenv("DISPUTATIO_MODELS__ROLES", '{"summarizer": "openai:gpt-4o-mini"}')
    s = load_settings()
    assert s.retrieval.rrf_k == 100
    assert s.database_url == "postgresql://u@db.example:5432/x"
    assert s.chat_model_for("summarizer") == "openai:gpt-4o-mini"
    assert s.chat_model_for("worker") == s.models.chat


def test_toml_file_is_read_and_env_wins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cfg = tmp_path / "disputatio.toml"
    cfg.write_text('tenant = "acme"\n[retrieval]\nk_final = 5\nrrf_k = 10\n')
    monkeypatch.setenv("DISPUTATIO_CONFIG", str(cfg))
    monkeypatch.setenv("DISPUTATIO_RETRIEVAL__RRF_K", "20")
    s = load_settings()
    assert s.tenant == "acme"
    assert s.retrieval.k_final == 5
    assert s.retrieval.rrf_k == 20


def test_invalid_value_is_one_line_config_error() -> None:
    with pytest.raises(ConfigError) as info:
        load_settings(retrieval={"rrf_k": 0})
    assert "retrieval.rrf_k" in str(info.value)
    assert "\n" not in str(info.value)


def test_unknown_key_is_refused() -> None:
    with pytest.raises(ConfigError, match="bogus"):
        load_settings(bogus=1)


def test_model_cache_defaults_under_home(tmp_path: Path) -> None:
    s = Settings(home=tmp_path)
    assert s.model_cache_dir == tmp_path / "models"
