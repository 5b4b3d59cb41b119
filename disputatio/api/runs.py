"""What the queue's tasks do: run (or resume) a debate, ingest uploaded files in batches.

A debate run is one LangGraph thread (``thread_id`` = the case id) compiled against the Postgres
checkpointer. The protocol's graph, context, input and fields come from its entry in the graph
registry (:mod:`disputatio.graphs.registry`). While it runs, every new item of the protocol's
move lists (``move_fields``) becomes an event in ``api_events`` keyed ``"<field>:<index>"``; the
key is unique per run, so a step that is re-executed after a crash cannot repeat a move, and
since moves are read from the checkpointed state none is lost. Streams read those events
(:mod:`disputatio.api.debates`).

Both are tasks of the durable queue (:mod:`disputatio.storage.queue`), run by any worker
(:mod:`disputatio.api.worker`): a task whose worker died is taken up by another, and goes on
from the run's last checkpoint (a debate) or finds the document already stored under its
content hash (ingestion), so nothing is written twice. An ingestion task claims its job and
other queued jobs of the tenant (``server.ingest_batch``) in ``api_jobs`` and ingests their files
in one run of the ingestion graph, the path ``disputatio ingest`` takes, so the models see whole
batches and the documents are written together (:mod:`disputatio.storage.documents_batch`); the
other jobs' tasks are then finished with their outcome unless a worker has already taken them
(:func:`~disputatio.storage.api_jobs.finish_batch`).
"""

from __future__ import annotations

import hashlib
import json
import logging
import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import AbstractContextManager, ExitStack, nullcontext
from pathlib import Path
from typing import Any, cast

from langgraph.types import Command

from disputatio.api import store
from disputatio.api.schemas import verdict_body
from disputatio.api.services import Services
from disputatio.graphs import registry
from disputatio.storage import api_jobs

logger = logging.getLogger(__name__)


def _jsonable(value: Any) -> Any:
    if hasattr(value, "model_dump"):
        return value.model_dump(mode="json")
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    if isinstance(value, str | int | float | bool) or value is None:
        return value
    return str(value)


class Aborted(Exception):
    """The run was cancelled while it ran (raised between two steps of its graph)."""


class Engine:
    """Runs the debates and ingestion jobs of the queue's tasks with one app's services."""

    def __init__(self, services: Services) -> None:
        self.services = services
        self.settings = services.settings
        self._batch_done = threading.Condition()  # wakes tasks waiting on this worker's batches

    # -- debates --------------------------------------------------------------------------

    def run_debate(
        self, run_id: str, *, last_attempt: bool, should_abort: Callable[[], bool]
    ) -> None:
        """Run (or resume) a debate from its checkpoint; record a failure on the last attempt.

        Raises:
            Aborted: The run was cancelled.
            Exception: Whatever failed (the queue retries it while attempts are left).
        """
        run = store.load_run(self.settings, run_id)
        if run is None or run["status"] in store.TERMINAL:
            return  # deleted, cancelled or finished: nothing to do
        try:
            self._execute(
                run_id, run["tenant"], run["protocol"], dict(run["request"] or {}),
                run["resume"], should_abort,
            )  # fmt: skip
        except Aborted:
            raise
        except Exception as exc:
            message = f"{type(exc).__name__}: {exc}".splitlines()[0][:500]
            if last_attempt:
                self.fail_run(run_id, message)
            else:
                store.update_run(self.settings, run_id, status="queued", error=message)
            raise

    def fail_run(self, run_id: str, message: str) -> None:
        """Record a run's failure: its error event, then its terminal status."""
        logger.error("run %s failed: %s", run_id, message)
        store.append_event(self.settings, run_id, "error", "error", {"message": message})
        store.update_run(self.settings, run_id, status="failed", error=message)

    def _compiled(self, spec: registry.GraphSpec, saver: Any, long_term: Any = None) -> Any:
        return spec.build().compile(checkpointer=saver, store=long_term, name=spec.name)

    def _execute(
        self,
        run_id: str,
        tenant: str,
        protocol: str,
        request: dict[str, Any],
        resume: Any,
        should_abort: Callable[[], bool],
    ) -> None:
        from disputatio.storage.checkpoint import open_checkpointer, open_store, unfinished

        spec = registry.by_protocol(protocol)
        context = self.services.context(spec.name, tenant)
        config: Any = {"configurable": {"thread_id": run_id}, "recursion_limit": 500}
        known = store.event_keys(self.settings, run_id)
        with ExitStack() as stack:
            saver = stack.enter_context(open_checkpointer(self.settings))
            # e.g. the RDC agents' private diaries live in the LangGraph store (seed §9)
            long_term = (
                stack.enter_context(open_store(self.settings)) if spec.long_term_store else None
            )
            graph = self._compiled(spec, saver, long_term)
            snapshot = graph.get_state(config)
            pending = [i for t in snapshot.tasks for i in t.interrupts]
            running = unfinished(snapshot)
            inputs: Any
            if resume is not None and pending:
                inputs = Command(resume=resume)
            elif running:
                inputs = None  # a crashed or interrupted run: go on from the last checkpoint
            elif snapshot.values:
                inputs = None  # finished before the crash: only record the result below
            else:
                inputs = spec.graph_input(request, run_id)
            store.update_run(self.settings, run_id, status="running")
            self._event(run_id, known, "status:running", "status", {"status": "running"})
            if inputs is not None or running:
                stream = graph.stream(
                    inputs, config, context=context, stream_mode="values", durability="sync"
                )
                for values in cast(Iterator[dict[str, Any]], stream):
                    self._record_moves(run_id, spec, known, values)
                    if should_abort():
                        raise Aborted(run_id)
            snapshot = graph.get_state(config)
            self._record_moves(run_id, spec, known, snapshot.values)
            pending = [i for t in snapshot.tasks for i in t.interrupts]
            if pending:  # the interrupt events and the status in one transaction
                asks = [
                    (f"interrupt:{i.id}", "interrupt", {"interrupt_id": i.id, "value": i.value})
                    for i in pending
                ]
                self._settle(run_id, known, asks, status="interrupted", resume=None)
                return
            values = snapshot.values
            result = {k: _jsonable(v) for k, v in values.items() if k in _output_keys(graph)}
            verdict = verdict_body(protocol, run_id, result)  # what GET …/verdict answers
            final = [("final", "final", {"verdict": verdict})]
            self._settle(run_id, known, final, status="done", result=result, resume=None)

    def _record_moves(
        self, run_id: str, spec: registry.GraphSpec, known: set[str], values: Mapping[str, Any]
    ) -> None:
        for name in spec.snapshot_fields:
            if values.get(name):
                value = _jsonable(values[name])
                digest = hashlib.sha1(
                    json.dumps(value, sort_keys=True).encode(), usedforsecurity=False
                ).hexdigest()[:16]
                self._event(run_id, known, f"{name}:{digest}", name, {name: value})
        for name in spec.move_fields:
            for index, item in enumerate(values.get(name) or []):
                data = {"field": name, "index": index, "move": item}
                self._event(run_id, known, f"{name}:{index}", "move", data)

    def _settle(
        self,
        run_id: str,
        known: set[str],
        events: list[tuple[str, str, dict[str, Any]]],
        **fields: Any,
    ) -> None:
        """Write a run's last ``events`` of a step and its ``fields`` in one transaction.

        The events come first, so a stream that sees the new status has every event to send,
        and a client that reads an event sees the status it announces.
        """
        new = [(k, t, _jsonable(d)) for k, t, d in events if k not in known]
        store.update_run_with_events(self.settings, run_id, new, **fields)
        known.update(k for k, _, _ in new)

    def _event(
        self, run_id: str, known: set[str], key: str, type_: str, data: dict[str, Any]
    ) -> None:
        if key in known:
            return
        store.append_event(self.settings, run_id, key, type_, _jsonable(data))
        known.add(key)

    # -- ingestion ------------------------------------------------------------------------

    def ingest_job(self, job_id: str, gate: AbstractContextManager[Any] | None = None) -> None:
        """Ingest a job's stored file, with up to ``server.ingest_batch - 1`` other queued jobs.

        Under ``gate`` (the worker's one-ingestion-at-a-time semaphore) the job is claimed
        together with other queued, unclaimed jobs of its tenant, collection and inputs
        (:func:`~disputatio.storage.api_jobs.claim_batch`), their files are ingested in one run
        of the ingestion graph, and every job's outcome is recorded; the queue tasks of the other
        jobs recorded there that no worker has taken yet are finished with it (no worker runs
        them). A job another job's task has claimed is waited for (outside the gate, polling)
        until that batch records it (then there is nothing to do), releases it (its file failed:
        ingested alone now) or stops refreshing its claim for ``server.worker_stalled_s`` (its
        worker died: taken over). A job that failed once is ingested alone.

        Raises:
            IngestFailed: This job's file was not ingested (the queue retries, then
                dead-letters it); the other jobs of its batch are recorded first.
        """
        server = self.settings.server
        while True:
            with gate or nullcontext():
                state, jobs = api_jobs.claim_batch(
                    self.settings, job_id, server.ingest_batch, server.worker_stalled_s,
                    max_bytes=int(server.ingest_batch_mb * 1024 * 1024),
                )  # fmt: skip
                if state == "done":
                    return
                if state == "claimed":
                    try:
                        self._ingest_batch(job_id, jobs)
                    finally:
                        with self._batch_done:
                            self._batch_done.notify_all()
                    return
            with self._batch_done:  # a batch of this worker wakes it at once, another's polls
                self._batch_done.wait(CLAIM_POLL_S)

    def _ingest_batch(self, owner: str, jobs: list[dict[str, Any]]) -> None:
        """Ingest the claimed ``jobs`` (``owner``'s first) in one graph run; record outcomes."""
        ids = [job["id"] for job in jobs]
        stop = threading.Event()
        beat = threading.Thread(
            target=self._refresh, args=(owner, ids, stop), name="ingest-claims", daemon=True
        )
        beat.start()
        try:
            results = self._ingest_files(jobs)
        except Exception as exc:  # the run itself failed: every job of the batch failed
            stop.set()
            beat.join()  # no refresh races the release below
            message = f"{type(exc).__name__}: {exc}".splitlines()[0][:500]
            api_jobs.finish_batch(self.settings, owner, [{"id": i, "error": message} for i in ids])
            raise
        finally:
            stop.set()
            beat.join()
        outcomes: list[dict[str, Any]] = []
        for job, result in zip(jobs, results, strict=True):
            status = _OUTCOME.get(str(result.get("status")))
            if status is None:
                error = result.get("error") or f"ingestion ended {result.get('status')!r}"
                outcomes.append({"id": job["id"], "error": str(error)[:500], "result": result})
            else:
                outcomes.append(
                    {
                        "id": job["id"],
                        "status": status,
                        "document_id": result.get("document_id"),
                        "source": str(Path(job["path"]).expanduser().resolve()),
                        "result": result,
                        "file_meta": _file_meta(job["request"]) if len(jobs) > 1 else None,
                    }
                )
        recorded = api_jobs.finish_batch(self.settings, owner, outcomes)
        logger.debug("batch %s recorded %d of its %d jobs", owner, len(recorded), len(jobs))
        if "error" in outcomes[0]:
            raise IngestFailed(outcomes[0]["error"])

    def _refresh(self, owner: str, ids: list[str], stop: threading.Event) -> None:
        """Keep the batch's claims fresh until ``stop`` (its own tasks then keep waiting)."""
        period = self.settings.server.worker_heartbeat_s
        while not stop.wait(period):
            try:
                api_jobs.refresh_claims(self.settings, owner, ids)
            except Exception:  # the next beat tries again; a claim left stale is taken over
                logger.exception("refreshing the claims of batch %s failed", owner)

    def _ingest_files(self, jobs: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """One ingestion-graph run over the jobs' files; one result per job, in order.

        The jobs share tenant, collection, tags and metadata (``claim_batch`` groups them so);
        the per-file keys (``PER_FILE_KEYS``) go into the run's metadata only for a lone job,
        and are stamped on a batch's documents afterwards (``finish_batch``).
        """
        first = jobs[0]
        request = dict(first["request"] or {})
        metadata = dict(request.get("metadata") or {})
        tags = list(metadata.pop("tags", None) or [])
        metadata.pop("collection", None)
        if len(jobs) == 1:
            metadata.update(_file_meta(request))
        elif request.get("language"):  # shared by the batch (the lexical index reads it)
            metadata["language"] = request["language"]
        inputs = {
            "paths": [job["path"] for job in jobs],
            "tenant": first["tenant"],
            "collection": first["collection"],
            "tags": tags,
            "metadata": metadata,
            "force": False,
        }
        graph = ingest_graph()
        context = self.services.ingest_context
        out = graph.invoke(inputs, context=context) if context else graph.invoke(inputs)
        by_path: dict[str, list[Any]] = {}
        for result in out.get("results") or []:
            by_path.setdefault(str(result.get("path")), []).append(result)
        results = []
        for job in jobs:
            found = by_path.get(str(Path(job["path"]).expanduser())) or []
            if found:
                results.append(cast(dict[str, Any], _jsonable(found.pop(0))))
            else:
                name = Path(job["path"]).name
                results.append({"status": "failed", "error": f"nothing ingested from {name}"})
        return results


#: Seconds between two looks at a job that another job's batch holds.
CLAIM_POLL_S = 0.5

_OUTCOME = {"new": "succeeded", "replaced": "succeeded", "skipped": "skipped"}


def ingest_graph() -> Any:
    """The compiled ingestion graph (the one ``disputatio ingest`` runs; tests wrap it)."""
    from disputatio.graphs.ingest import graph

    return graph


def _file_meta(request: Mapping[str, Any] | None) -> dict[str, Any]:
    """The metadata a job's request gives its one document (``language`` and its file's keys)."""
    request = request or {}
    keys = ("language", *(k for k in api_jobs.PER_FILE_KEYS if k != "file_id"))
    return {key: request[key] for key in keys if request.get(key)}


class IngestFailed(Exception):
    """A file could not be ingested (its error is on the job's row)."""


def _output_keys(graph: Any) -> set[str]:
    schema = graph.get_output_jsonschema()
    return set(schema.get("properties", {}))
