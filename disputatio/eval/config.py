"""What makes an evaluation run: its configuration, its identity (run id) and its code version.

A run's identity is everything that can change an answer: the chat model, the seed, the corpus
(and its fingerprint), k, rounds, temperatures, completion budgets, section length, the
protocols' settings sections, and the code that answers (a content hash of the answering
packages, plus the package version). ``run_id`` is a hash of that identity, so a changed
configuration gets a new run id and never reads another's results. Which data sets, protocols
and how many questions an invocation asks for is NOT identity: draws are prefix-stable (the
first ``n`` of a seeded shuffle), so asking for more questions or more protocols later extends
the same run.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

import disputatio
from disputatio.settings import Settings

#: Packages (under ``disputatio/``) whose code can change an answer.
ANSWERING_CODE = (
    "graphs",
    "nodes",
    "prompts",
    "parsing",
    "models",
    "retrievers",
    "state",
    "tools",
    "validators",
    "eval/baselines.py",
    "eval/protocols.py",
    "eval/protocols_hier.py",
    "eval/runner.py",  # the draw, which protocols a question takes, SC's budget target
    "eval/numeric.py",
    "eval/datasets.py",
    "eval/mmlu.py",
    "eval/mirage.py",  # which MIRAGE questions a run may draw (the calibration split)
    "eval/question.py",
    "eval/corpus.py",
    "eval/protocols_extra.py",
    "eval/du_debate.py",
    "eval/evidence.py",  # the leak filter and the evidence read
    "eval/logprob.py",
    "eval/logprob_verdict.py",
    "eval/logprob_calibration.py",  # which calibration questions, how many, the fit
    "eval/calibration.py",
    "settings",
)
#: Settings sections that shape answers (``models`` minus credentials).
SETTINGS_SECTIONS = ("models", "medrag", "debate", "retrieval", "local_llm")


def code_fingerprint(root: Path | None = None) -> str:
    """sha256 (16 hex) over the paths and bytes of every ``*.py`` file of ANSWERING_CODE."""
    base = root or Path(disputatio.__file__).parent
    digest = hashlib.sha256()
    for entry in ANSWERING_CODE:
        path = base / entry
        files = sorted(path.rglob("*.py")) if path.is_dir() else [path]
        for file in files:
            if file.is_file():
                digest.update(str(file.relative_to(base)).encode())
                digest.update(file.read_bytes())
    return digest.hexdigest()[:16]


def git_revision(root: Path | None = None) -> dict[str, Any]:
    """``{"sha", "dirty"}`` of the checkout holding the package (``None`` values outside git)."""
    cwd = root or Path(disputatio.__file__).parent
    try:
        sha = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=cwd, capture_output=True, text=True, check=True
        ).stdout.strip()
        status = subprocess.run(
            ["git", "status", "--porcelain", "--", "."],
            cwd=cwd,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        return {"sha": None, "dirty": None}
    return {"sha": sha, "dirty": bool(status.strip())}


def package_version() -> str:
    """The installed disputatio version (``unknown`` when not installed)."""
    try:
        return metadata.version("disputatio")
    except metadata.PackageNotFoundError:
        return "unknown"


@dataclass(frozen=True)
class EvalConfig:
    """Everything that can change an answer (hashed into the run id).

    Attributes:
        model: Chat model string of every agent (``None``: ``settings.models.chat``).
        seed: Seed of the question draw (the report's bootstrap has its own, ``--seed``).
        corpus: ``kb`` (the medical knowledge base tenant), ``oracle`` (BM25 over the gold
            snippets of every question of the data set: an upper bound, not a retrieval
            result) or ``tenant`` (whatever ``tenant`` holds).
        tenant: Tenant searched by ``kb``/``tenant`` corpora.
        corpus_fingerprint: Content fingerprint of the corpus: ``kb``, of the documents built
            (:func:`~disputatio.eval.medkb.write_kb`); ``tenant``, of the documents the tenant
            holds when the run starts (:func:`tenant_fingerprint`), so a changed tenant gets a
            new run id; ``oracle``, None (the gold snippets are the data set's own).
        k: Sections per retrieval of the MedRAG-style protocols (RAG, SC, MedRAG debate).
        rounds: Rounds of the MedRAG-style debates.
        temperatures: Temperatures of the MedRAG debate agents (also SC's sampling).
        max_tokens: Completion budget of agent and baseline answers.
        section_max_chars: Characters of each section shown in prompts.
        hier_k: Sections per retrieval of the hierarchical debate (seed and tool calls).
        hier_max_tokens: Completion budget of hierarchical-debate calls.
        settings: The answering settings sections (see :data:`SETTINGS_SECTIONS`).
        code: Package version and code fingerprint.
    """

    model: str | None = None
    seed: int = 0
    corpus: str = "kb"
    tenant: str | None = None
    corpus_fingerprint: str | None = None
    k: int | None = None
    rounds: int | None = None
    temperatures: tuple[float, ...] | None = None
    max_tokens: int | None = None
    section_max_chars: int | None = None
    hier_k: int | None = None
    hier_max_tokens: int | None = None
    settings: Mapping[str, Any] = field(default_factory=dict)
    code: Mapping[str, Any] = field(default_factory=dict)

    def identity(self) -> dict[str, Any]:
        """The canonical JSON-ready identity of this configuration."""
        out = dataclasses.asdict(self)
        out["temperatures"] = list(self.temperatures) if self.temperatures is not None else None
        return json.loads(json.dumps(out, sort_keys=True, default=str))

    @property
    def run_id(self) -> str:
        """``<model slug>-<corpus>-<12 hex of the identity hash>``, e.g. ``qwen2-5-...``."""
        blob = json.dumps(self.identity(), sort_keys=True, separators=(",", ":"))
        digest = hashlib.sha256(blob.encode()).hexdigest()[:12]
        model = (self.model or str(self.settings.get("models", {}).get("chat", "default"))).lower()
        slug = "".join(c if c.isalnum() else "-" for c in model.split("@")[0]).strip("-")
        return f"{slug[-32:]}-{self.corpus}-{digest}"


def tenant_fingerprint(conn: Any, tenant: str, collection: str | None = None) -> dict[str, Any]:
    """``{documents, fingerprint}`` of what ``tenant`` (``collection``) holds, read cheaply.

    The fingerprint is sha256 (16 hex) over the documents' content hashes (``documents.sha256``,
    one row per tenant and content), sorted in Python so the database's collation plays no part;
    the collection is hashed in when the run searches only one. Adding, removing or replacing a
    document changes it; re-ingesting the same bytes does not.

    Args:
        conn: An open database connection (``disputatio.storage.db.connect``).
        tenant: The tenant searched.
        collection: The collection searched (None: every collection of the tenant).
    """
    from disputatio.storage.document_reads import document_hashes

    hashes = sorted(document_hashes(conn, tenant, collection))
    digest = hashlib.sha256()
    if collection is not None:
        digest.update(f"collection={collection}\n".encode())
    for sha in hashes:
        digest.update(sha.encode() + b"\n")
    return {"documents": len(hashes), "fingerprint": digest.hexdigest()[:16]}


def settings_identity(settings: Settings) -> dict[str, Any]:
    """The answering sections of ``settings`` (no credentials, no paths)."""
    dumped = settings.model_dump(mode="json", include=set(SETTINGS_SECTIONS))
    local = dumped.get("local_llm", {})
    for key in ("cache_dir", "port", "host", "startup_timeout_s"):
        local.pop(key, None)
    models = dumped.get("models", {})
    for key in list(models):
        if any(word in key.lower() for word in ("key", "secret", "password")):
            models.pop(key)
    return dumped


def build_config(settings: Settings, **fields: Any) -> EvalConfig:
    """An :class:`EvalConfig` of ``fields`` with the settings and code identity filled in."""
    temps = fields.pop("temperatures", None)
    return EvalConfig(
        temperatures=tuple(float(t) for t in temps) if temps else None,
        settings=settings_identity(settings),
        code={"version": package_version(), "fingerprint": code_fingerprint()},
        **fields,
    )
