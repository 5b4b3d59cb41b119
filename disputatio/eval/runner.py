"""Run protocols on the same drawn questions, resumably: the engine of ``disputatio eval run``.

::

    from disputatio.eval.runner import Plan, run_eval
    summary = run_eval(config, Plan(("bioasq",), ("cot", "medrag", "sc_rag"), n=50), env_for,
                       out_root=Path("runs"))

For each data set the questions are drawn once (the first ``n`` of a seeded shuffle, so a larger
``n`` later extends the same draw) and every protocol answers those same questions. Work is
per question: the question's protocols run in the registry's order (debates before the
self-consistency that matches their budget), ``concurrency`` questions at a time. Each finished
record is appended to ``results.jsonl`` (fsynced) before anything else, then mirrored to the
database (when a connection factory is given) and to the seed-shaped log files; a restarted run
skips every finished (dataset, protocol, question).
"""

from __future__ import annotations

import logging
import random
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from disputatio.errors import ConfigError, DisputatioError
from disputatio.eval.config import EvalConfig
from disputatio.eval.datasets import load_all
from disputatio.eval.numeric import is_numeric
from disputatio.eval.protocols import ProtocolEnv, ProtocolSpec, eval_protocols
from disputatio.eval.question import Question
from disputatio.eval.results import (
    ResultsLog,
    heal_question_logs,
    key_of,
    now,
    write_dataset_results,
    write_manifest,
    write_question_log,
)

logger = logging.getLogger(__name__)

#: ``(dataset, questions) -> ProtocolEnv``: the models and retriever of one data set.
EnvFactory = Callable[[str, Sequence[Question]], ProtocolEnv]
#: ``(record, done, total)`` after each finished record.
OnRecord = Callable[[dict[str, Any], int, int], None]


@dataclass(frozen=True)
class Plan:
    """What one invocation asks for (not part of the run's identity).

    Attributes:
        datasets: Data set names.
        protocols: Protocol names (see :func:`~disputatio.eval.protocols.eval_protocols`).
        n: Questions per data set (None: all).
        loader: ``name -> every question`` (None: the shipped data sets, ``load_all``).
    """

    datasets: tuple[str, ...]
    protocols: tuple[str, ...]
    n: int | None = 20
    loader: Callable[[str], list[Question]] | None = None


def draw(questions: Sequence[Question], n: int | None, seed: int) -> list[Question]:
    """The first ``n`` questions of a seeded shuffle of ``questions`` sorted by id.

    Prefix-stable: ``draw(qs, 20, s)`` is the start of ``draw(qs, 50, s)``.
    """
    ordered = sorted(questions, key=lambda q: q.id)
    random.Random(seed).shuffle(ordered)
    return ordered if n is None else ordered[:n]


def applicable(spec: ProtocolSpec, question: Question, corpus: str) -> bool:
    """Whether ``spec`` can answer ``question``.

    Numeric questions take no retrieval protocol, and numeric-only protocols take nothing else;
    the oracle corpus serves only data sets that ship gold snippets, and so do the protocols
    that read the question's own context.
    """
    if spec.needs_context and not question.context:
        return False
    if is_numeric(question):
        return spec.answers_numbers
    if spec.numeric_only:
        return False
    return not (spec.retrieval and corpus == "oracle" and not question.context)


def matched_target(
    done: Mapping[tuple[str, str, str], dict[str, Any]],
    dataset: str,
    spec: ProtocolSpec,
    question_id: str,
) -> dict[str, Any] | None:
    """The finished record of the first of ``spec.matched_to`` that answered this question.

    Self-consistency without retrieval matches the MedRAG debate without retrieval where that
    ran (GSM8K included), else the hierarchical one.
    """
    for name in spec.matched_to:
        record = done.get((dataset, name, question_id))
        if record is not None:
            return record
    return None


def _failed(question: Question, exc: BaseException) -> dict[str, Any]:
    return {
        "question_id": question.id,
        "answer": None,
        "status": "ERROR",
        "consensus_type": "failed",
        "usage": {},
        "wall_ms": 0.0,
        "log": {},
        "error": f"{type(exc).__name__}: {exc}",
    }


class _Run:
    """State shared by the worker threads of one invocation."""

    def __init__(
        self,
        config: EvalConfig,
        run_dir: Path,
        connect: Callable[[], Any] | None,
        on_record: OnRecord | None,
    ) -> None:
        self.config = config
        self.run_dir = run_dir
        self.log = ResultsLog(run_dir / "results.jsonl")
        self.done = self.log.finished()
        self.connect = connect
        self.on_record = on_record
        self.lock = threading.Lock()
        self.count = 0
        self.total = 0
        self.stats = {"new": 0, "errors": 0, "skipped": 0}

    def finish(self, record: dict[str, Any]) -> None:
        """Persist one record: JSONL first (the resumption truth), then DB and log files."""
        self.log.append(record)
        if not record.get("error"):
            self.done[key_of(record)] = record
        write_question_log(self.run_dir, record, self.config.corpus)
        if self.connect is not None:
            from disputatio.eval.store import save_eval_record

            with self.connect() as conn:
                save_eval_record(conn, self.config, record)
        with self.lock:
            self.count += 1
            self.stats["errors" if record.get("error") else "new"] += 1
            done = self.count
        if self.on_record is not None:
            self.on_record(record, done, self.total)


def _question_task(
    run: _Run,
    dataset: str,
    question: Question,
    index: int,
    specs: Sequence[ProtocolSpec],
    env: ProtocolEnv,
) -> None:
    for spec in specs:
        key = (dataset, spec.name, question.id)
        if key in run.done:
            continue
        target = matched_target(run.done, dataset, spec, question.id)
        thread_id = f"eval:{run.config.run_id}:{dataset}:{spec.name}:{question.id}"
        t0 = time.perf_counter()
        try:
            record = spec.run(question, env, thread_id, target)
            record["error"] = None
        except (ConfigError, ImportError):
            raise
        except Exception as exc:  # one failed question must not end a long run
            logger.warning("%s %s %s failed: %s", dataset, spec.name, question.id, exc)
            record = _failed(question, exc)
        if not isinstance(record.get("wall_ms"), int | float) or record["wall_ms"] <= 0:
            record["wall_ms"] = (time.perf_counter() - t0) * 1000.0
        gold = question.gold
        record.update(
            run_id=run.config.run_id,
            dataset=dataset,
            protocol=spec.name,
            question_id=question.id,
            index=index,
            question=question.question,
            options=question.options,
            gold=gold,
            correct=record.get("answer") is not None and record.get("answer") == gold,
            thread_id=thread_id,
            finished_at=now(),
        )
        run.finish(record)


def _checked_specs(plan: Plan, concurrency: int) -> list[ProtocolSpec]:
    """The plan's protocols in registry order.

    Raises:
        ConfigError: An unknown protocol, a concurrency below 1 or a negative ``n``.
    """
    registry = eval_protocols()
    unknown = [p for p in plan.protocols if p not in registry]
    if unknown:
        raise ConfigError(f"unknown protocol {', '.join(unknown)}; known: {', '.join(registry)}")
    if concurrency < 1:
        raise ConfigError("--concurrency must be >= 1")
    if plan.n is not None and plan.n < 0:
        raise ConfigError("--n must be >= 0 (0: every question)")
    return [registry[name] for name in registry if name in plan.protocols]


def _pending_work(
    run: _Run,
    plan: Plan,
    questions: Mapping[str, Sequence[Question]],
    specs: list[ProtocolSpec],
) -> tuple[list[tuple[str, Question, int, list[ProtocolSpec]]], int]:
    """The questions with a record still to make, and how many records are missing.

    Each item is ``(data set, question, draw index, applicable protocols)``; protocols already
    recorded in ``run`` are counted in its ``skipped`` stat.
    """
    work: list[tuple[str, Question, int, list[ProtocolSpec]]] = []
    pending = 0
    for dataset in plan.datasets:
        drawn = draw(questions[dataset], plan.n, run.config.seed)
        for i, question in enumerate(drawn):
            todo = [s for s in specs if applicable(s, question, run.config.corpus)]
            missing = [s for s in todo if (dataset, s.name, question.id) not in run.done]
            run.stats["skipped"] += len(todo) - len(missing)
            if missing:
                work.append((dataset, question, i, todo))
                pending += len(missing)
    return work, pending


def run_eval(
    config: EvalConfig,
    plan: Plan,
    env_for: EnvFactory,
    *,
    out_root: Path,
    concurrency: int = 1,
    connect: Callable[[], Any] | None = None,
    on_start: Callable[[int, int], None] | None = None,
    on_record: OnRecord | None = None,
    on_interrupt: Callable[[int], None] | None = None,
    invocation: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Run ``plan`` under ``config`` into ``out_root/<run id>``; resume what is there.

    Args:
        config: The run's identity.
        plan: Data sets, protocols and questions per data set.
        env_for: Builds the models/retriever of one data set (called once per data set).
        out_root: Folder holding run folders.
        concurrency: Questions in flight at once.
        connect: Opens a database connection (context manager); None: files only.
        on_start: Called with ``(pending, already finished)`` before the first question.
        on_record: Called after each finished record.
        on_interrupt: Called on Ctrl-C with the number of questions in flight, before waiting
            for them to finish (their records are saved; nothing queued is started).
        invocation: Extra facts for the manifest (command line...).

    Returns:
        ``{"run_id", "run_dir", "new", "errors", "skipped", "pending"}``.

    Raises:
        ConfigError: Unknown data set or protocol, or a run folder of another identity.
    """
    specs = _checked_specs(plan, concurrency)
    loader = plan.loader or load_all
    # every data set is loaded (an unknown name raises) before the run folder is touched
    questions = {dataset: loader(dataset) for dataset in plan.datasets}
    run_dir = out_root / config.run_id
    facts = {"datasets": list(plan.datasets), "protocols": list(plan.protocols), "n": plan.n}
    write_manifest(run_dir, config.identity(), {**facts, **(invocation or {})})
    run = _Run(config, run_dir, connect, on_record)
    _heal(run)
    work, pending = _pending_work(run, plan, questions, specs)
    run.total = pending
    if on_start is not None:
        on_start(pending, run.stats["skipped"])
    envs: dict[str, ProtocolEnv] = {}
    for dataset in dict.fromkeys(d for d, *_ in work):
        env = env_for(dataset, questions[dataset])
        # per-run parameters (calibrations) are kept in the run folder
        envs[dataset] = env if env.run_dir is not None else replace(env, run_dir=run_dir)
    with ThreadPoolExecutor(max_workers=concurrency) as pool:
        futures = [
            pool.submit(_question_task, run, d, q, i, todo, envs[d]) for d, q, i, todo in work
        ]
        try:
            for future in futures:
                future.result()
        except BaseException as exc:
            for future in futures:
                future.cancel()
            if isinstance(exc, KeyboardInterrupt) and on_interrupt is not None:
                on_interrupt(sum(1 for future in futures if future.running()))
            raise
    write_dataset_results(run_dir, run.done.values(), config.corpus)
    return {"run_id": config.run_id, "run_dir": str(run_dir), "pending": pending, **run.stats}


def _heal(run: _Run) -> None:
    """Redo the side files of finished records a kill left without them (DB rows, logs)."""
    healed = heal_question_logs(run.run_dir, run.done.values(), run.config.corpus)
    if any(healed.values()):
        logger.info("log files repaired: %s", healed)
    if run.connect is not None and run.done:
        from disputatio.eval.store import save_eval_record

        try:
            with run.connect() as conn:
                for record in run.done.values():
                    save_eval_record(conn, run.config, record)
        except DisputatioError:
            raise
