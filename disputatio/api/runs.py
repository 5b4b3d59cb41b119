"""Debate runs and ingestion jobs in background threads, checkpointed so a restart resumes them.

A debate run is one LangGraph thread (``thread_id`` = the case id) compiled against the Postgres
checkpointer. The protocol's graph, context, input and fields come from its entry in the graph
registry (:mod:`disputatio.graphs.registry`). While it runs, every new item of the protocol's
move lists (``move_fields``) becomes an event in ``api_events`` keyed ``"<field>:<index>"``; the
key is unique per run, so a step that is re-executed after a crash cannot repeat a move, and
since moves are read from the checkpointed state none is lost. Streams read those events
(:mod:`disputatio.api.debates`).

Each running debate holds a lease renewed every ``run_lease_s / 3`` seconds; on startup and on
every renewal tick the engine claims runs whose lease expired (their server died) and resumes
them on their thread.
"""

from __future__ import annotations

import hashlib
import json
import logging
import threading
from collections.abc import Iterator, Mapping
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


class Engine:
    """Runs debates and ingestion jobs of one app in background threads."""

    def __init__(self, services: Services) -> None:
        self.services = services
        self.settings = services.settings
        self._owned: set[str] = set()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._ingest_gate = threading.Semaphore(1)  # ingestion is CPU-bound: one at a time
        self._ticker: threading.Thread | None = None

    # -- lifecycle ------------------------------------------------------------------------

    def start(self) -> None:
        """Start the lease ticker and resume what a dead server left unfinished."""
        self._ticker = threading.Thread(target=self._renew_leases, name="leases", daemon=True)
        self._ticker.start()
        if self.services.resume_on_startup:
            for job in store.pending_jobs(self.settings):
                self.submit_job(job["id"], job["tenant"], job["collection"], job["path"],
                                job["request"])  # fmt: skip
            self.resume_orphans()

    def resume_orphans(self) -> list[str]:
        """Claim runs whose lease expired and resume each on its thread; return their ids."""
        claimed = store.claim_orphans(self.settings, self.settings.server.run_lease_s)
        for run in claimed:
            logger.info("resuming run %s after a restart", run["id"])
            self.submit_run(
                run["id"], run["tenant"], run["protocol"], run["request"], resume=run["resume"]
            )
        return [r["id"] for r in claimed]

    def stop(self) -> None:
        """Stop renewing leases (runs still going are resumed by the next server)."""
        self._stop.set()

    def _renew_leases(self) -> None:
        """Every ``run_lease_s / 3``: renew our runs' leases, adopt runs whose lease expired."""
        lease = self.settings.server.run_lease_s
        while not self._stop.wait(lease / 3):
            with self._lock:
                owned = list(self._owned)
            try:
                for run_id in owned:
                    store.renew_lease(self.settings, run_id, lease)
                if self.services.resume_on_startup:
                    self.resume_orphans()
            except Exception:  # the next tick tries again; a lost lease means a resume
                logger.warning("lease upkeep failed; retrying next tick", exc_info=True)

    # -- debates --------------------------------------------------------------------------

    def submit_run(
        self,
        run_id: str,
        tenant: str,
        protocol: str,
        request: Mapping[str, Any],
        *,
        resume: Any = None,
    ) -> None:
        """Run (or resume) a debate in a background thread."""
        with self._lock:
            self._owned.add(run_id)
        store.renew_lease(self.settings, run_id, self.settings.server.run_lease_s)
        thread = threading.Thread(
            target=self._run,
            args=(run_id, tenant, protocol, dict(request), resume),
            name=f"run-{run_id[:8]}",
            daemon=True,
        )
        thread.start()

    def _run(
        self, run_id: str, tenant: str, protocol: str, request: dict[str, Any], resume: Any
    ) -> None:
        try:
            self._execute(run_id, tenant, protocol, request, resume)
        except Exception as exc:
            logger.exception("run %s failed", run_id)
            message = f"{type(exc).__name__}: {exc}".splitlines()[0][:500]
            try:
                store.append_event(self.settings, run_id, "error", "error", {"message": message})
                store.update_run(self.settings, run_id, status="failed", error=message)
            except Exception:
                logger.exception("cannot record the failure of run %s", run_id)
        finally:
            with self._lock:
                self._owned.discard(run_id)

    def _compiled(self, spec: registry.GraphSpec, saver: Any, long_term: Any = None) -> Any:
        return spec.build().compile(checkpointer=saver, store=long_term, name=spec.name)

    def _execute(
        self, run_id: str, tenant: str, protocol: str, request: dict[str, Any], resume: Any
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

    def submit_job(
        self, job_id: str, tenant: str, collection: str, path: str, request: Mapping[str, Any]
    ) -> None:
        """Ingest one stored file in a background thread."""
        thread = threading.Thread(
            target=self._ingest,
            args=(job_id, tenant, collection, path, dict(request)),
            name=f"job-{job_id[:8]}",
            daemon=True,
        )
        thread.start()

    def _ingest(
        self, job_id: str, tenant: str, collection: str, path: str, request: dict[str, Any]
    ) -> None:
        with self._ingest_gate:
            try:
                store.update_job(self.settings, job_id, status="running")
                result = self._ingest_file(tenant, collection, path, request)
                status = {"new": "succeeded", "replaced": "succeeded", "skipped": "skipped"}.get(
                    str(result.get("status")), "failed"
                )
                store.update_job(
                    self.settings,
                    job_id,
                    status=status,
                    document_id=result.get("document_id"),
                    error=result.get("error"),
                    result=result,
                )
            except Exception as exc:
                logger.exception("ingestion job %s failed", job_id)
                message = f"{type(exc).__name__}: {exc}".splitlines()[0][:500]
                store.update_job(self.settings, job_id, status="failed", error=message)

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


def _output_keys(graph: Any) -> set[str]:
    schema = graph.get_output_jsonschema()
    return set(schema.get("properties", {}))
