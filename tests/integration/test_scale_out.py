"""Two servers and two queue workers on one Postgres, on loopback, and a worker killed twice.

Many small files are uploaded through both servers (``--no-worker``: they only enqueue) while
two ``disputatio worker`` processes ingest them; one worker is SIGKILLed mid-batch. Every file
is ingested exactly once (one document per content hash, no duplicate chunk, one embedding per
chunk), a poison file lands in the dead letter after its attempts (seen through the API and the
CLI), and a debate started on one server, whose worker is then killed, is finished by another
worker and streamed from the other server with no move lost or repeated.

``SCALE_OUT_FILES`` sets the number of files (default 120, to stay near a minute on two cores;
``benchmarks/scale_out.py`` runs 500).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
from api.conftest import free_port, read_sse
from api.fakes import KEY_A

from disputatio.settings import Settings

pytestmark = pytest.mark.integration

CHILD = Path(__file__).resolve().parents[1] / "api" / "serve_child.py"
FILES = int(os.environ.get("SCALE_OUT_FILES", "120"))
POISON = b"<html><head><script>var poison = 1;</script></head><body></body></html>"


class Cluster:
    """Child processes of one test: servers and workers on one queue, logged to files."""

    def __init__(self, settings: Settings, db_url: str, logs: Path) -> None:
        self.queue = f"scale-{uuid.uuid4().hex[:8]}"
        self.env = {
            **os.environ,
            "DATABASE_URL": db_url,
            "DISPUTATIO_HOME": str(settings.home),
            "QUEUE_NAME": self.queue,
            "MAX_JOBS": "100000",
            "JOB_ATTEMPTS": "2",
            "FAKE_DELAY_S": "1.5",  # so the kill lands mid-debate on a loaded machine
            # a live worker starved of CPU on a loaded 2-core runner (a new worker loading its
            # models beside it) must not look dead: 3 s (the children's default) is too tight
            "WORKER_STALLED_S": "10",
        }
        self.logs = logs
        self.procs: list[subprocess.Popen[bytes]] = []

    def _spawn(self, *args: str) -> subprocess.Popen[bytes]:
        log = (self.logs / f"child-{len(self.procs)}.log").open("ab")
        proc = subprocess.Popen(
            [sys.executable, str(CHILD), *args],
            env=self.env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self.procs.append(proc)
        return proc

    def server(self) -> str:
        port = free_port()
        proc = self._spawn(str(port), "--no-worker")
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            assert proc.poll() is None, "a server exited"
            try:
                if httpx.get(f"http://127.0.0.1:{port}/", timeout=1).status_code == 200:
                    return f"http://127.0.0.1:{port}"
            except httpx.HTTPError:
                time.sleep(0.2)
        raise AssertionError("a server did not start")

    def worker(self) -> subprocess.Popen[bytes]:
        return self._spawn("worker")

    def kill(self, proc: subprocess.Popen[bytes]) -> None:
        os.killpg(proc.pid, signal.SIGKILL)  # no shutdown hook, no heartbeat, nothing
        proc.wait(timeout=30)

    def stop(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
        for proc in self.procs:
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)


@pytest.fixture
def cluster(settings: Settings, db_url: str, tmp_path: Path) -> Iterator[Cluster]:
    group = Cluster(settings, db_url, tmp_path)
    yield group
    group.stop()
    # pytest shows a test's captured output only when it fails: the children's last lines then
    for log in sorted(tmp_path.glob("child-*.log")):
        lines = log.read_text(errors="replace").splitlines()
        print(f"--- {log.name} (last 60 of {len(lines)} lines)", *lines[-60:], sep="\n")


def _states(db_url: str, queue: str) -> Counter[str]:
    with psycopg.connect(db_url) as conn:
        rows = conn.execute(
            "SELECT status::text, count(*) FROM procrastinate_jobs WHERE queue_name = %s"
            " GROUP BY status",
            (queue,),
        ).fetchall()
    return Counter({status: n for status, n in rows})


def _wait(db_url: str, queue: str, done: int, timeout: float) -> Counter[str]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        states = _states(db_url, queue)
        if states["succeeded"] + states["failed"] >= done and not states["todo"] + states["doing"]:
            return states
        time.sleep(0.5)
    raise AssertionError(f"tasks did not finish: {dict(_states(db_url, queue))}")


def _get(client: httpx.Client, path: str, **kwargs: Any) -> httpx.Response:
    """A GET, sent once more if the connection is reset (once on a loaded 2-core CI runner,
    2026-12-02: a server that is down fails the retry too, so the test still catches it)."""
    try:
        return client.get(path, **kwargs)
    except (httpx.ReadError, httpx.RemoteProtocolError):
        return client.get(path, **kwargs)


def test_two_servers_two_workers_ingest_every_file_once_and_finish_a_debate(
    cluster: Cluster, db_url: str
) -> None:
    servers = [cluster.server(), cluster.server()]
    first, second = cluster.worker(), cluster.worker()
    clients = [httpx.Client(base_url=u, headers={"X-API-Key": KEY_A}, timeout=60) for u in servers]
    batch = uuid.uuid4().hex[:8]
    texts = {
        f"note-{batch}-{i:04d}.txt": (
            f"Note {batch}-{i}: brucellosis case {i} was confirmed by serology and treated "
            f"with doxycycline for {6 + i % 4} weeks.\n"
        ).encode()
        for i in range(FILES)
    }

    def upload(item: tuple[int, tuple[str, bytes]]) -> dict[str, Any]:
        i, (name, data) = item
        resp = clients[i % 2].post("/ingest", files={"file": (name, data)})
        assert resp.status_code == 202, resp.text
        return dict(resp.json())

    with ThreadPoolExecutor(8) as pool:
        accepted = list(pool.map(upload, enumerate(texts.items())))
    poison = upload((1, (f"poison-{batch}.html", POISON)))

    # SIGKILL one worker mid-batch: the other takes its task up when its heartbeat is stale
    deadline = time.monotonic() + 120
    while _states(db_url, cluster.queue)["succeeded"] < FILES // 4:
        assert time.monotonic() < deadline, dict(_states(db_url, cluster.queue))
        time.sleep(0.2)
    cluster.kill(first)
    states = _wait(db_url, cluster.queue, FILES + 1, timeout=300)
    assert states["failed"] == 1, states  # the poison file, and nothing else

    # exactly once: one document per content hash, no duplicate chunk, one embedding each
    import hashlib

    hashes = [hashlib.sha256(d).hexdigest() for d in texts.values()]
    with psycopg.connect(db_url) as conn:
        docs = conn.execute(
            "SELECT sha256, count(*) FROM documents WHERE tenant = 'api-acme'"
            " AND sha256 = ANY(%s) GROUP BY sha256",
            (hashes,),
        ).fetchall()
        chunks = conn.execute(
            "SELECT count(*), count(DISTINCT (c.document_id, c.ordinal)),"
            " count(c.embedding), count(DISTINCT d.id) FROM child_chunks c"
            " JOIN documents d ON d.id = c.document_id WHERE d.sha256 = ANY(%s)",
            (hashes,),
        ).fetchone()
        jobs = conn.execute(
            "SELECT a.status, count(*) FROM api_jobs a WHERE a.id = ANY(%s::uuid[])"
            " GROUP BY a.status",
            ([a["ingestion_job_id"] for a in accepted],),
        ).fetchall()
    assert len(docs) == FILES and all(n == 1 for _, n in docs)
    assert chunks is not None
    n_chunks, distinct, embedded, n_docs = chunks
    assert n_chunks == distinct == embedded and n_docs == FILES and n_chunks >= FILES
    # a job whose document the killed worker's batch wrote before it recorded the job is
    # found "skipped" by the worker that takes it over, and recorded as succeeded (its own
    # file's document, written after it was submitted: ``api_jobs._OWN_DOCUMENT``; CI of
    # 2026-12-04 showed one such job of 120 as "skipped")
    assert dict(jobs) == {"succeeded": FILES}, jobs

    # the poison file: in the dead letter after its attempts, through either server and the CLI
    for client in clients:
        dead = _get(client, "/jobs", params={"state": "failed"}).json()["jobs"]
        entry = next(j for j in dead if j.get("ingestion_job_id") == poison["ingestion_job_id"])
        assert entry["attempts"] == 2 and entry["error"]
    cli = subprocess.run(
        [sys.executable, "-m", "disputatio", "jobs", "list", "--state", "failed", "--json"],
        env={**cluster.env, "DISPUTATIO_SERVER__QUEUE_NAME": cluster.queue},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert cli.returncode == 0, cli.stderr
    rows = [json.loads(line) for line in cli.stdout.splitlines() if line.startswith("{")]
    assert [r["ingestion_job_id"] for r in rows] == [poison["ingestion_job_id"]]

    # a debate started on one server, its worker killed, finished by another, streamed elsewhere
    third = cluster.worker()
    case_id = (
        clients[0]
        .post(
            "/debate/start",
            json={"protocol": "hierarchical", "question": "How is brucellosis diagnosed?"},
        )
        .json()["case_id"]
    )
    with clients[0].stream("GET", f"/debate/{case_id}/stream") as resp:
        before = read_sse(resp, stop_after=2)
    moves_before = [e for e in before if e["event"] == "move"]
    running = next(p for p in (second, third) if f"(server {p.pid})" in json.dumps(moves_before))
    cluster.kill(running)
    last = max(int(e["id"]) for e in before if "id" in e)
    with clients[1].stream(
        "GET", f"/debate/{case_id}/stream", headers={"Last-Event-ID": str(last)}
    ) as resp:
        after = read_sse(resp)
    session = _get(clients[1], f"/debate/{case_id}").json()
    for client in clients:
        client.close()

    assert session["status"] == "done", session
    assert after[-1]["event"] == "end" and any(e["event"] == "final" for e in after)
    events = [e for e in before + after if "id" in e]
    ids = [int(e["id"]) for e in events]
    assert ids == list(range(1, len(ids) + 1))  # nothing lost, nothing twice, in order
    moves = [e["data"] for e in events if e["event"] == "move"]
    assert all(n == 1 for n in Counter((m["field"], m["index"]) for m in moves).values())
    transcript = session["result"]["transcript"]
    assert [m["move"] for m in moves] == transcript
    survivor = third if running is second else second
    by_dead = [m for m in transcript if f"(server {running.pid})" in m["content"]]
    by_survivor = [m for m in transcript if f"(server {survivor.pid})" in m["content"]]
    assert by_dead and by_survivor and len(by_dead) + len(by_survivor) == len(transcript), (
        f"killed {running.pid}, survivor {survivor.pid}",
        [(m["agent"], m.get("round"), m["content"][-60:]) for m in transcript],
        [(e["event"], e.get("id")) for e in before + after],
    )
    assert transcript[: len(by_dead)] == by_dead  # resumed from the checkpoint, not rerun
