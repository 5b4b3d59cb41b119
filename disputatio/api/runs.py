"""What the queue's tasks do: run (or resume) a debate, ingest one uploaded file.

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
content hash (ingestion), so nothing is written twice.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Callable, Iterator, Mapping
from contextlib import ExitStack
from pathlib import Path
from typing import Any, cast

from langgraph.types import Command

from disputatio.api import store
from disputatio.api.schemas import verdict_body
from disputatio.api.services import Services
from disputatio.graphs import registry

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
        from disputatio.storage.checkpoint import open_checkpointer, open_store

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
            inputs: Any
            if resume is not None and pending:
                inputs = Command(resume=resume)
            elif snapshot.next or pending:
                inputs = None  # a crashed or interrupted run: go on from the last checkpoint
            elif snapshot.values:
                inputs = None  # finished before the crash: only record the result below
            else:
                inputs = spec.graph_input(request, run_id)
            store.update_run(self.settings, run_id, status="running")
            self._event(run_id, known, "status:running", "status", {"status": "running"})
            if inputs is not None or snapshot.next:
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
            if pending:
                for intr in pending:
                    payload = {"interrupt_id": intr.id, "value": _jsonable(intr.value)}
                    self._event(run_id, known, f"interrupt:{intr.id}", "interrupt", payload)
                store.update_run(self.settings, run_id, status="interrupted", resume=None)
                return
            values = snapshot.values
            result = {k: _jsonable(v) for k, v in values.items() if k in _output_keys(graph)}
            verdict = verdict_body(protocol, run_id, result)  # what GET …/verdict answers
            # the event first: a stream that sees the terminal status has every event to send
            self._event(run_id, known, "final", "final", {"verdict": verdict})
            store.update_run(self.settings, run_id, status="done", result=result, resume=None)

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

    def _event(
        self, run_id: str, known: set[str], key: str, type_: str, data: dict[str, Any]
    ) -> None:
        if key in known:
            return
        store.append_event(self.settings, run_id, key, type_, _jsonable(data))
        known.add(key)

    # -- ingestion ------------------------------------------------------------------------

    def ingest_job(self, job_id: str) -> None:
        """Ingest a job's stored file and record the outcome on its row.

        Raises:
            IngestFailed: Nothing was ingested (the queue retries, then dead-letters it).
        """
        job = store.load_job(self.settings, job_id)
        if job is None:
            return  # its row is gone: nothing to ingest
        try:
            result = self._ingest_file(
                job["tenant"], job["collection"], job["path"], dict(job["request"] or {})
            )
        except Exception as exc:
            message = f"{type(exc).__name__}: {exc}".splitlines()[0][:500]
            store.update_job(self.settings, job_id, error=message)
            raise
        status = {"new": "succeeded", "replaced": "succeeded", "skipped": "skipped"}.get(
            str(result.get("status"))
        )
        error = result.get("error")
        if status is None:
            message = str(error or f"ingestion ended {result.get('status')!r}")[:500]
            store.update_job(self.settings, job_id, error=message, result=result)
            raise IngestFailed(message)
        store.update_job(
            self.settings,
            job_id,
            status=status,
            document_id=result.get("document_id"),
            error=None,
            result=result,
        )

    def _ingest_file(
        self, tenant: str, collection: str, path: str, request: dict[str, Any]
    ) -> dict[str, Any]:
        from disputatio.graphs.ingest import graph

        metadata = dict(request.get("metadata") or {})
        tags = list(metadata.pop("tags", None) or [])
        metadata.pop("collection", None)
        for key in ("language", "mime_type", "file_name", "url"):
            if request.get(key):
                metadata[key] = request[key]
        inputs = {
            "paths": [path],
            "tenant": tenant,
            "collection": collection,
            "tags": tags,
            "metadata": metadata,
            "force": False,
        }
        context = self.services.ingest_context
        out = graph.invoke(inputs, context=context) if context else graph.invoke(inputs)
        results = out.get("results") or []
        if not results:
            return {"status": "failed", "error": f"nothing ingested from {Path(path).name}"}
        return cast(dict[str, Any], _jsonable(results[0]))


class IngestFailed(Exception):
    """A file could not be ingested (its error is on the job's row)."""


def _output_keys(graph: Any) -> set[str]:
    schema = graph.get_output_jsonschema()
    return set(schema.get("properties", {}))
