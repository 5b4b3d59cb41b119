"""``onnx:all-MiniLM-L6-v2``: the torch model's vectors, exported once, run without torch."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from disputatio.errors import ConfigError, ModelError
from disputatio.models.embeddings import get_embeddings, warm_embeddings
from disputatio.models.embeddings_onnx import OnnxEmbeddings, OnnxEncoder
from disputatio.settings import load_settings

TEXTS = [
    "The daily allowance in Bergen is 910 NOK.",
    "CTD-41: calibrate every 18 months; the battery pack lasts 30 h.",
    "Grüße aus Tromsø — naïve café, 12 °C.",
    "",
    " ".join(["a long sentence that the model truncates"] * 60),  # past 256 tokens
    "short",
]


@pytest.fixture(scope="module")
def models(tmp_path_factory: pytest.TempPathFactory) -> tuple[object, OnnxEmbeddings]:
    """The torch model and its ONNX twin, exported into a home of their own."""
    settings = load_settings(home=tmp_path_factory.mktemp("onnx-home"))
    onnx = get_embeddings("onnx:all-MiniLM-L6-v2", settings=settings)
    assert isinstance(onnx, OnnxEmbeddings)
    return get_embeddings("local:all-MiniLM-L6-v2", settings=settings), onnx


def test_onnx_vectors_equal_the_torch_models(models: tuple[object, OnnxEmbeddings]) -> None:
    local, onnx = models
    a = np.array(local.embed_documents(TEXTS))  # type: ignore[attr-defined]
    b = np.array(onnx.embed_documents(TEXTS))
    assert a.shape == b.shape == (len(TEXTS), 384)
    assert np.abs(a - b).max() < 1e-5
    assert np.allclose(np.linalg.norm(b, axis=1), 1.0, atol=1e-5)
    query = np.array(onnx.embed_query(TEXTS[0]))
    assert np.abs(query - a[0]).max() < 1e-5


def test_onnx_token_lengths_match_and_truncate(models: tuple[object, OnnxEmbeddings]) -> None:
    local, onnx = models
    lengths = onnx.token_lengths(TEXTS)
    assert lengths == local.token_lengths(TEXTS)  # type: ignore[attr-defined]
    assert max(lengths) == 256 and min(lengths) == 2  # "" is [CLS] [SEP]


def test_export_is_made_once_and_reused(models: tuple[object, OnnxEmbeddings]) -> None:
    _, onnx = models
    assert warm_embeddings(onnx) is True  # a queue worker loads it ahead (prewarm)
    exports = list((onnx.cache_dir / "onnx").glob("*/model.onnx"))
    assert len(exports) == 1
    stamp = exports[0].stat().st_mtime_ns
    again = get_embeddings(
        "onnx:all-MiniLM-L6-v2", settings=load_settings(home=onnx.cache_dir.parent)
    )
    again.embed_query("reuse")
    assert exports[0].stat().st_mtime_ns == stamp
    assert not list((onnx.cache_dir / "onnx").glob("*/.*.tmp"))


def test_a_process_with_the_export_never_imports_torch(
    models: tuple[object, OnnxEmbeddings],
) -> None:
    _, onnx = models
    code = (
        "import json, sys\n"
        "from disputatio.models.embeddings import get_embeddings\n"
        "from disputatio.settings import load_settings\n"
        f"s = load_settings(home={str(onnx.cache_dir.parent)!r})\n"
        "v = get_embeddings('onnx:all-MiniLM-L6-v2', settings=s).embed_query('hello')\n"
        "print(json.dumps({'dim': len(v), 'torch': 'torch' in sys.modules,\n"
        "                  'st': 'sentence_transformers' in sys.modules}))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    seen = json.loads(out.stdout.strip().splitlines()[-1])
    assert seen == {"dim": 384, "torch": False, "st": False}


def test_unsupported_pooling_is_refused(tmp_path: Path) -> None:
    (tmp_path / "1_Pooling").mkdir()
    (tmp_path / "1_Pooling" / "config.json").write_text(
        json.dumps({"pooling_mode_max_tokens": True})
    )
    with pytest.raises(ModelError, match="only mean or CLS pooling"):
        OnnxEncoder(tmp_path, tmp_path / "model.onnx")


def test_unknown_onnx_model_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="unknown embedding model 'onnx:no-such-model'"):
        get_embeddings("onnx:no-such-model", settings=load_settings(home=tmp_path))


def test_int8_is_a_close_but_separate_model(models: tuple[object, OnnxEmbeddings]) -> None:
    local, onnx = models
    int8 = get_embeddings(
        "onnx-int8:all-MiniLM-L6-v2", settings=load_settings(home=onnx.cache_dir.parent)
    )
    assert isinstance(int8, OnnxEmbeddings) and int8.int8
    a = np.array(local.embed_documents(TEXTS))  # type: ignore[attr-defined]
    b = np.array(int8.embed_documents(TEXTS))
    cosines = (a * b).sum(axis=1)
    assert cosines.min() > 0.85  # the same model, quantised (0.90-0.98 seen)
    assert np.abs(a - b).max() > 1e-4  # ... and not the float vectors
    assert {p.name for p in (onnx.cache_dir / "onnx").glob("*/*.onnx")} == {
        "model.onnx",
        "model-int8.onnx",
    }


def test_the_thread_setting_reaches_onnx_runtime(models: tuple[object, OnnxEmbeddings]) -> None:
    _, onnx = models
    settings = load_settings(home=onnx.cache_dir.parent, models={"embedding_threads": 1})
    one = get_embeddings(settings=settings)  # the default model string is onnx:
    assert isinstance(one, OnnxEmbeddings) and one.threads == 1
    assert one.encoder.session.get_session_options().intra_op_num_threads == 1
    assert onnx.encoder.session.get_session_options().intra_op_num_threads == 0


def test_each_model_cache_has_its_own_export(
    models: tuple[object, OnnxEmbeddings], tmp_path: Path
) -> None:
    _, onnx = models
    onnx.embed_query("loaded from the first cache")
    other = OnnxEmbeddings(onnx.path, tmp_path / "other-cache")
    other.embed_query("and from a second one")
    assert len(list((tmp_path / "other-cache" / "onnx").glob("*/model.onnx"))) == 1
