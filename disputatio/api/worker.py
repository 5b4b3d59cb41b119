"""A queue worker: takes ingestion and debate tasks from Postgres and runs them.

``disputatio worker`` runs one in the foreground (any number of them, on any machine with the
``DATABASE_URL``); ``disputatio serve`` runs one in a background thread unless ``--no-worker``.
Each is a procrastinate worker (:mod:`disputatio.storage.queue`) with the two tasks registered
against one :class:`~disputatio.api.runs.Engine`, plus a side loop that gives the tasks of dead
workers (no heartbeat for ``server.worker_stalled_s``) to the living.

Ingestion: the task of one job ingests up to ``server.ingest_batch`` queued jobs of its tenant
in one run of the ingestion graph (:meth:`~disputatio.api.runs.Engine.ingest_job`), and
finishes the other jobs' tasks that are still waiting, so no worker runs them; one that a worker
took meanwhile finds its job finished and returns.

Start-up: as the worker connects and registers, a background thread loads the ingestion
models (the local embedding model with one short forward pass, and spaCy when it extracts
entities; :meth:`Worker.prewarm`), so the first ingestion task does not wait for a cold load
(``docs/scale_out.md``). An ingestion task waits for that load to end first; a load that
fails is logged and tried again by the first task, which then reports the error. The setting
``server.worker_prewarm`` (``disputatio worker --no-prewarm``) turns the load off.

Retries: a task that raises is run again after a backoff (``server.job_retry_base_s``, doubled
each time, at most ``job_retry_max_s``) until ``server.job_attempts`` runs are spent; then it
stays ``failed`` (the dead letter) with its error on the job's or run's row.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from procrastinate import App, JobContext
from procrastinate.exceptions import JobAborted
from procrastinate.jobs import Job

from disputatio.api import metrics, store
from disputatio.api.runs import Aborted, Engine
from disputatio.api.services import Services
from disputatio.storage import queue

logger = logging.getLogger(__name__)


class Worker:
    """One queue worker running the tasks with ``services`` (settings, injected models).

    Args:
        services: Settings and injection hooks (tests inject scripted models).
        concurrency: Tasks run at once (default ``server.worker_concurrency``).
        reap: Take up the tasks of dead workers (``Services.resume_on_startup``).
        prewarm: Load the ingestion models in a background thread as the worker starts
            (default ``server.worker_prewarm``).
    """

    def __init__(
        self,
        services: Services,
        *,
        concurrency: int | None = None,
        reap: bool | None = None,
        prewarm: bool | None = None,
    ) -> None:
        self.services = services
        self.settings = services.settings
        self.concurrency = concurrency or self.settings.server.worker_concurrency
        self.reap = services.resume_on_startup if reap is None else reap
        self.engine = Engine(services)
        self.name = f"{socket.gethostname()}:{os.getpid()}"
        self._ingest_gate = threading.Semaphore(1)  # ingestion is CPU-bound: one at a time
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._thread: threading.Thread | None = None
        self._started = threading.Event()
        self.prewarm_enabled = self.settings.server.worker_prewarm if prewarm is None else prewarm
        self.prewarmed = threading.Event()  # set when the prewarm thread ends (or none runs)
        self.prewarm_s: float | None = None  # how long the models took to load, once loaded

    # -- start-up -----------------------------------------------------------------------------

    def prewarm(self) -> None:
        """Load the ingestion models now, ahead of the first ingestion task.

        The embedding model (a local one: load and one short forward pass; a remote one is left
        alone) and the entity extractor (spaCy's pipeline). Runs in the background thread
        :meth:`run_async` starts; a failure is logged (the first ingestion task loads them
        again and reports the error on its job).
        """
        from disputatio.models.embeddings import warm_embeddings
        from disputatio.nodes.ingest.context import IngestContext, SharedExtractor

        t0 = time.perf_counter()
        try:
            context = self.services.ingest_context or IngestContext(settings=self.settings)
            warm_embeddings(context.get_embeddings())
            extractor = context.get_entity_extractor()
            if isinstance(extractor, SharedExtractor):  # spaCy (an LLM extractor loads nothing)
                extractor.extract_batch([])  # loads its pipeline, extracts nothing
            self.prewarm_s = time.perf_counter() - t0
            logger.info("ingestion models loaded in %.1f s", self.prewarm_s)
        except Exception:
            logger.exception("loading the ingestion models ahead failed; the first task will")
        finally:
            self.prewarmed.set()

    def _start_prewarm(self) -> None:
        if not self.prewarm_enabled:
            self.prewarmed.set()
            return
        threading.Thread(target=self.prewarm, name="prewarm-models", daemon=True).start()

    # -- tasks --------------------------------------------------------------------------------

    def _app(self) -> App:
        app = queue.worker_app(self.settings)
        retry = queue.backoff(self.settings)
        attempts = self.settings.server.job_attempts
        engine = self.engine
        gate = self._ingest_gate
        prewarmed = self.prewarmed

        @app.task(name=queue.TASK_INGEST, pass_context=True, retry=retry)
        def ingest(context: JobContext, tenant: str, job_id: str) -> None:
            """Ingest an uploaded file in a batch of queued ones (idempotent: by content hash).

            The gate is taken inside, around the batch: a task whose job another task's batch
            holds waits outside it. A task waits first for the models the worker loads as it
            starts (:meth:`Worker.prewarm`), so the two never load or import beside each other.
            """
            prewarmed.wait()  # the models loading since start-up: this batch gets them warm
            with _observed("ingest", context.job.attempts + 1 >= attempts):
                engine.ingest_job(job_id, gate)

        @app.task(name=queue.TASK_DEBATE, pass_context=True, retry=retry)
        def debate(context: JobContext, tenant: str, run_id: str) -> None:
            """Run or resume one debate from its checkpoint."""
            last = context.job.attempts + 1 >= attempts
            try:
                with _observed("debate", last):
                    engine.run_debate(run_id, last_attempt=last, should_abort=context.should_abort)
            except Aborted:
                raise JobAborted(f"debate {run_id} cancelled") from None

        @app.task(name=queue.TASK_PING)
        def ping(tenant: str = "") -> None:
            """Nothing: measures the queue's own overhead per task."""

        return app

    def _dead(self, job: Job, reason: str) -> None:
        """Record on its row why a task went to the dead letter without raising."""
        args = job.task_kwargs
        if job.task_name == queue.TASK_DEBATE and args.get("run_id"):
            self.engine.fail_run(str(args["run_id"]), reason)
        elif job.task_name == queue.TASK_INGEST and args.get("job_id"):
            store.update_job(self.settings, str(args["job_id"]), error=reason)

    async def _reaper(self, app: App) -> None:
        period = self.settings.server.worker_heartbeat_s
        while True:
            try:
                await queue.reap_stalled(app, self.settings, self._dead)
            except Exception:  # the next round tries again; the error is in the log
                logger.exception("taking up the tasks of dead workers failed")
            await asyncio.sleep(period)

    # -- running ------------------------------------------------------------------------------

    async def run_async(self, *, install_signal_handlers: bool = False) -> None:
        """Run until :meth:`stop` (or a signal, with ``install_signal_handlers``)."""
        server = self.settings.server
        self._loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()
        if install_signal_handlers:  # ours, not procrastinate's: its worker is restarted
            for sig in (signal.SIGINT, signal.SIGTERM):
                self._loop.add_signal_handler(sig, self._stop.set)
        self._start_prewarm()  # beside connecting and registering
        app = self._app()
        async with app.open_async():
            side = [asyncio.create_task(self._reaper(app))] if self.reap else []
            self._started.set()
            stop = asyncio.create_task(self._stop.wait())
            while True:
                worker = asyncio.create_task(self._procrastinate_worker(app))
                await asyncio.wait([worker, stop], return_when=asyncio.FIRST_COMPLETED)
                if stop.done():
                    break
                # procrastinate stops its worker when a side task fails (a dropped LISTEN
                # connection, a heartbeat that could not be written): a server must not be
                # left without one, so it starts again
                failure = None if worker.cancelled() else worker.exception()
                logger.error("the queue worker stopped (%s); starting it again", failure)
                await asyncio.sleep(min(server.worker_heartbeat_s, 5.0))
            for task in side:
                task.cancel()
            if not worker.done():
                worker.cancel()
            results: list[Any] = await asyncio.gather(worker, *side, return_exceptions=True)
            stop.cancel()
            for result in results[:1]:
                if isinstance(result, Exception) and not isinstance(result, asyncio.CancelledError):
                    raise result

    async def _procrastinate_worker(self, app: App) -> None:
        server = self.settings.server
        await app.run_worker_async(
            queues=[server.queue_name],
            name=self.name,
            concurrency=self.concurrency,
            fetch_job_polling_interval=server.queue_poll_s,
            abort_job_polling_interval=server.queue_poll_s,
            update_heartbeat_interval=server.worker_heartbeat_s,
            stalled_worker_timeout=server.worker_stalled_s,
            shutdown_graceful_timeout=server.worker_heartbeat_s,
            install_signal_handlers=False,
        )

    def run(self) -> None:
        """Run in the foreground until SIGINT/SIGTERM."""
        asyncio.run(self.run_async(install_signal_handlers=True))

    def start(self) -> None:
        """Run in a background thread (the worker ``disputatio serve`` embeds)."""
        self._thread = threading.Thread(target=self._thread_main, name="queue-worker", daemon=True)
        self._thread.start()
        self._started.wait(timeout=60)

    def _thread_main(self) -> None:
        try:
            asyncio.run(self.run_async())
        except Exception:
            logger.exception("the embedded queue worker stopped")
        finally:
            self._started.set()

    def stop(self, timeout: float = 30.0) -> None:
        """Stop the worker.

        Running tasks get ``worker_heartbeat_s`` to finish, then are aborted and queued again.
        """
        if self._loop is not None and self._stop is not None:
            self._loop.call_soon_threadsafe(self._stop.set)
        if self._thread is not None:
            self._thread.join(timeout=timeout)


@contextmanager
def _observed(task: str, last_attempt: bool) -> Iterator[None]:
    """Time one run of ``task`` into the metrics; count a retry or a dead letter if it raises."""
    t0 = time.perf_counter()
    try:
        yield
    except Aborted:
        metrics.task_finished(task, "aborted", time.perf_counter() - t0)
        raise
    except Exception:
        metrics.task_finished(task, "failed", time.perf_counter() - t0)
        (metrics.task_dead_lettered if last_attempt else metrics.task_retried)(task)
        raise
    metrics.task_finished(task, "succeeded", time.perf_counter() - t0)
