"""``disputatio eval run``: every protocol on the same drawn questions.

::

    disputatio eval run --datasets bioasq,pubmedqa --protocols cot,rag,medrag,sc_rag --n 50
    disputatio eval run --datasets mirage:all --protocols cot,medrag --n 100

``mirage:*``: MIRAGE's own test sets, shipped; their calibration split is never drawn.

A run folder is named by the hash of the whole configuration (see :mod:`disputatio.eval.config`);
running the same command again resumes it. Its tables and plots: ``disputatio eval report``
(:mod:`disputatio.cli.eval_report`). Its options and their checks:
:mod:`disputatio.cli.eval_run_options`.
"""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from disputatio.cli import EXIT_INTERRUPTED
from disputatio.cli import eval_run_options as opt
from disputatio.cli.eval_run_options import (
    LOCAL_K,
    LOCAL_SECTION_CHARS,
    check_request,
    parse_temperatures,
    skipped_pairs,
    split_list,
)
from disputatio.cli.options import MODEL, TENANT
from disputatio.errors import ConfigError

console = Console(emoji=False)


def default_out(settings: Any) -> Path:
    """Where run folders go by default: ``<home>/eval/runs``."""
    return Path(settings.home) / "eval" / "runs"


def medrag_retrieval(settings: Any, refusal: bool) -> Any:
    """Settings whose funnel always returns k sections, as MedRAG does (never refuses).

    With ``refusal`` the settings stay as they are (``retrieval`` threshold and trim).
    """
    if refusal:
        return settings
    retrieval = settings.retrieval.model_copy(update={"rerank_threshold": 0.0, "trim_alpha": 0.0})
    return settings.model_copy(update={"retrieval": retrieval})


def _env_factory(config: Any, settings: Any, checkpointer: Any) -> Any:
    from disputatio.eval.corpus import InMemoryRetriever, gold_corpus
    from disputatio.eval.protocols import ProtocolEnv
    from disputatio.nodes.debate.context import DebateContext
    from disputatio.nodes.medrag.context import MedragContext

    shared: dict[str, Any] = {}

    def env_for(dataset: str, questions: Sequence[Any]) -> ProtocolEnv:
        if config.corpus == "oracle":
            retriever: Any = InMemoryRetriever(gold_corpus(questions))
        else:
            if "retriever" not in shared:
                from disputatio.retrievers import default_retriever

                shared["retriever"] = default_retriever(settings, tenant=config.tenant)
            retriever = shared["retriever"]
        medrag = MedragContext(
            model=config.model,
            retriever=retriever,
            settings=settings,
            tenant=config.tenant,
            k=config.k,
            rounds=config.rounds,
            temperatures=list(config.temperatures) if config.temperatures else None,
            max_tokens=config.max_tokens,
            section_max_chars=config.section_max_chars,
        )
        hier_kw: dict[str, Any] = {}
        if config.hier_k:
            hier_kw.update(seed_k=config.hier_k, tool_k=config.hier_k)
        if config.section_max_chars:
            hier_kw["section_max_chars"] = config.section_max_chars
        hier = DebateContext(
            model=config.model,
            retriever=retriever,
            settings=settings,
            tenant=config.tenant,
            max_tokens=config.hier_max_tokens,
            **hier_kw,
        )
        return ProtocolEnv(medrag=medrag, hier=hier, checkpointer=checkpointer)

    return env_for


def _corpus_scope(
    settings: Any, corpus: str, tenant: str | None, kb_limit: int | None
) -> tuple[str | None, str | None]:
    """The tenant a run searches and its corpus fingerprint (``oracle``: neither).

    ``kb`` ingests the knowledge base once; ``tenant`` reads the tenant's fingerprint (a changed
    tenant is a new run) and warns when it holds no documents.
    """
    fingerprint = None
    if corpus == "kb":
        from disputatio.eval.medkb import KB_TENANT, ensure_kb

        tenant = settings.run_tenant(tenant, default=KB_TENANT)
        console.print(
            f"knowledge base → tenant {tenant} (ingested once: about half an hour the first time)"
        )
        fingerprint = ensure_kb(settings, tenant, kb_limit)["fingerprint"]
    elif corpus == "tenant":
        from disputatio.eval.config import tenant_fingerprint
        from disputatio.storage.db import connect as db_connect

        tenant = settings.run_tenant(tenant)
        with db_connect(settings) as conn:
            held = tenant_fingerprint(conn, tenant)
        fingerprint = held["fingerprint"]
        console.print(
            f"tenant {tenant}: {held['documents']} documents (fingerprint {fingerprint}; "
            "a changed tenant is a new run)",
            highlight=False,
            markup=False,
        )
        if not held["documents"]:
            console.print(
                f"warning: tenant {tenant} holds no documents: retrieval will find nothing",
                highlight=False,
                markup=False,
            )
    else:
        tenant = None
    return tenant, fingerprint


def _run_with_progress(
    config: Any, plan: Any, settings: Any, root: Path, *, db: bool, concurrency: int
) -> dict[str, Any]:
    """Run the evaluation under a progress bar (right/done of the records so far)."""
    from disputatio.eval.runner import run_eval

    connect = None
    if db:
        from disputatio.storage.db import connect as db_connect

        def connect() -> Any:
            return db_connect(settings)

    tally = {"correct": 0, "done": 0}
    columns = (
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        TextColumn("{task.fields[last]}", markup=False),
    )
    from disputatio.storage.checkpoint import optional_checkpointer

    with Progress(*columns, console=console) as progress, optional_checkpointer(db) as saver:
        task = progress.add_task("eval", total=None, last="")

        def on_start(pending: int, finished: int) -> None:
            progress.update(task, total=pending, last=f"{finished} finished before")

        def on_record(record: dict[str, Any], done: int, total: int) -> None:
            tally["done"] += 1
            tally["correct"] += bool(record.get("correct"))
            mark = "error" if record.get("error") else ("✓" if record.get("correct") else "✗")
            last = (
                f"{record['dataset']}/{record['protocol']} {record['question_id']} {mark} "
                f"({tally['correct']}/{tally['done']} right)"
            )
            progress.update(task, completed=done, last=last)

        summary = run_eval(
            config,
            plan,
            _env_factory(config, settings, saver),
            out_root=root,
            concurrency=concurrency,
            connect=connect,
            on_start=on_start,
            on_record=on_record,
            on_interrupt=lambda in_flight: _on_interrupt(progress.console, in_flight),
            invocation={"argv": sys.argv[1:], "concurrency": concurrency},
        )
    return summary


def run(
    datasets: list[str] = opt.DATASETS,
    protocols: list[str] = opt.PROTOCOLS,
    n: int = opt.N,
    seed: int = opt.SEED,
    model: str | None = MODEL,
    concurrency: int = opt.CONCURRENCY,
    corpus: str = opt.CORPUS,
    tenant: str | None = TENANT,
    kb_limit: int | None = opt.KB_LIMIT,
    k: int | None = opt.K,
    rounds: int | None = opt.ROUNDS,
    temperatures: str | None = opt.TEMPERATURES,
    max_tokens: int | None = opt.MAX_TOKENS,
    section_chars: int | None = opt.SECTION_CHARS,
    hier_k: int | None = opt.HIER_K,
    hier_max_tokens: int | None = opt.HIER_MAX_TOKENS,
    hier_verdict_last: bool | None = opt.HIER_VERDICT_LAST,
    out: Path | None = opt.OUT,
    db: bool = opt.DB,
    refusal: bool = opt.REFUSAL,
) -> None:
    """Run protocols on the same drawn questions (resumable: run it again to continue)."""
    from disputatio.eval.config import build_config
    from disputatio.eval.datasets import expand_names
    from disputatio.eval.runner import Plan

    names, wanted = expand_names(split_list(datasets)), split_list(protocols)
    check_request(names, wanted, n, concurrency)
    for dataset, protocol in skipped_pairs(names, wanted):
        console.print(
            f"{dataset}: {protocol} skipped (numeric answers: no-retrieval protocols only)"
        )
    if corpus not in ("kb", "oracle", "tenant"):
        raise ConfigError(f"unknown corpus {corpus!r}; known: kb, oracle, tenant")
    settings = _run_settings(refusal, hier_verdict_last)
    chat = model or settings.models.chat
    local = chat.startswith("local:")
    temps = parse_temperatures(temperatures)
    tenant, fingerprint = _corpus_scope(settings, corpus, tenant, kb_limit)
    config = build_config(
        settings,
        model=chat,
        seed=seed,
        corpus=corpus,
        tenant=tenant,
        corpus_fingerprint=fingerprint,
        k=k if k is not None else (LOCAL_K if local else settings.medrag.k),
        rounds=rounds,
        temperatures=temps,
        max_tokens=max_tokens,
        section_max_chars=section_chars or (LOCAL_SECTION_CHARS if local else None),
        hier_k=hier_k,
        hier_max_tokens=hier_max_tokens,
    )
    plan = Plan(names, wanted, n or None)
    root = out or default_out(settings)
    console.print(f"run [bold]{config.run_id}[/] → {root / config.run_id}", highlight=False)
    _langsmith_env(config.run_id)
    summary = _run_with_progress(config, plan, settings, root, db=db, concurrency=concurrency)
    console.print(
        f"{summary['new']} new, {summary['errors']} errors, {summary['skipped']} finished "
        f"before → {summary['run_dir']}\nreport: disputatio eval report {summary['run_dir']}",
        highlight=False,
    )
    _langsmith_push(Path(summary["run_dir"]))


def _run_settings(refusal: bool, hier_verdict_last: bool | None) -> Any:
    """The process settings as this run uses them (both knobs are part of the run's identity).

    Without ``refusal`` the funnel always returns k sections (:func:`medrag_retrieval`);
    ``hier_verdict_last``, when given, sets ``debate.verdict_last``.
    """
    from disputatio.settings import get_settings

    settings = medrag_retrieval(get_settings(), refusal)
    if hier_verdict_last is not None:  # a settings value: part of the run's identity
        debate = settings.debate.model_copy(update={"verdict_last": hier_verdict_last})
        settings = settings.model_copy(update={"debate": debate})
    return settings


def _on_interrupt(out: Console, in_flight: int) -> None:
    """First Ctrl-C: say what happens; a second one stops at once (records are fsynced)."""
    if in_flight:
        out.print(
            f"interrupted: finishing the {in_flight} question(s) in flight so that they are "
            "saved; Ctrl-C again to stop now (they are redone on the next run)",
            highlight=False,
            markup=False,
        )
    signal.signal(signal.SIGINT, lambda *_: os._exit(EXIT_INTERRUPTED))


def _langsmith_env(run_id: str) -> None:
    if os.environ.get("LANGSMITH_API_KEY"):
        os.environ.setdefault("LANGSMITH_TRACING", "true")
        os.environ.setdefault("LANGSMITH_PROJECT", f"disputatio-eval-{run_id}")


def _langsmith_push(run_dir: Path) -> None:
    if not os.environ.get("LANGSMITH_API_KEY"):
        return
    from disputatio.eval.langsmith_sync import push_run

    try:
        url = push_run(run_dir)
    except Exception as exc:  # the run is on disk; LangSmith is an extra, never a failure
        console.print(
            f"warning: LangSmith push failed ({type(exc).__name__}: {exc}); "
            "the run itself is complete on disk",
            highlight=False,
            markup=False,
        )
        return
    console.print(f"LangSmith experiment: {url}", highlight=False)
