"""Load on the HTTP API over loopback: POST /query at 1, 8 and 32 concurrent clients, and a
debate started and streamed while that load runs; or (``--mixed N``) N clients mixing every kind
of request at once.

The server is the app of ``disputatio serve`` (uvicorn, one process, Postgres checkpointer) in
a child process, on the embedded Postgres under ``--home``. The chat model is SCRIPTED (a fixed
answer citing the first section shown; debate agents likewise), so the numbers measure the
server, auth, database and the real retrieval funnel (embeddings, three channels, rerank), not
LLM generation (see the model rows of /work/shared/REFERENCE.md or docs for that).

    DISPUTATIO_HOME=/tmp/dh-server-bench .venv/bin/python benchmarks/server_load.py \
        --clients 1,8,32 --requests 64

Every client loop is bounded (``--requests`` per level, split over the clients); the run fails
when any request errors, or when a debate under load streams no move or its event ids out of
order. Prints a markdown table (and ``--json`` a JSON dump).

``--mixed 64`` (``benchmarks/server_mixed.py``): 64 clients, each ``--rounds`` rounds of
``GET /livez``, ``GET /readyz``, ``POST /query`` and ``POST /ingest`` (small text files, ingested
by the server's in-process queue worker), and one debate started and streamed to its end, all at
once, with the server's default per-tenant limits (429s allowed if they carry ``Retry-After``;
clients honour it up to ``--retries`` times). Prints per-route counts, statuses and p50/p95
latency; exits non-zero on any 5xx or error.

    DISPUTATIO_HOME=/tmp/dh-scale-mixed .venv/bin/python benchmarks/server_load.py \
        --mixed 64 --rounds 2 --json
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx

KEY, TENANT = "bench-key-0123456789", "bench"
ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "disputatio" / "data" / "sample_corpus"
QUESTIONS = [
    "How is brucellosis diagnosed?",
    "What causes Q fever?",
    "Which criteria define adult-onset Still's disease?",
    "What is retrieval-augmented generation?",
    "How do vector databases index embeddings?",
    "Why do multi-agent debates improve answers?",
    "What treatment is given for brucellosis?",
    "Which animals transmit Coxiella burnetii?",
]
_SECTION = re.compile(r'<section id="([^"]+)"|\bid="([^"]+)"')


# ----------------------------------------------------------------------------- the server
def _serve(port: int, home: Path, default_limits: bool = False) -> None:
    """Child process: the API with scripted chat models (retrieval and database are real)."""
    import uvicorn
    from langchain_core.messages import BaseMessage

    from disputatio.api.app import create_app
    from disputatio.api.auth import hash_key
    from disputatio.api.services import Services
    from disputatio.settings import ServerSettings, load_settings
    from disputatio.testing import ScriptedChatModel

    def citing(text: str) -> Any:
        def reply(messages: list[BaseMessage]) -> str:
            for m in messages:
                found = _SECTION.search(str(m.content))
                if found:
                    return f"{text} [{found.group(1) or found.group(2)}]."
            return f"{text}."

        return reply

    def overrides(graph: str, tenant: str) -> dict[str, Any]:
        def model(text: str) -> ScriptedChatModel:
            return ScriptedChatModel(script=[citing(text)], repeat_last=True)

        if graph == "rag":
            return {"models": {"answerer": model("The corpus answers this")}}
        return {
            "models": {
                "worker-root-0": model("The first worker's answer"),
                "worker-root-1": model("A different answer from the second worker"),
                "reviewer": model("The review"),
                "summarizer": model("The summary"),
            },
            "flat": True,
            "workers": 2,
            "rounds": 2,
            "max_tool_calls": 0,
        }

    server = ServerSettings(api_keys={hash_key(KEY): TENANT})
    if not default_limits:  # the query levels measure latency, not the per-tenant limits
        server = server.model_copy(
            update={
                "max_runs_per_tenant": 8,
                "max_jobs_per_tenant": 16,
                "max_queries_per_tenant": 64,
            }
        )
    settings = load_settings(home=home, server=server)
    app = create_app(Services(settings=settings, context_overrides=overrides))
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning", access_log=False)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _start(home: Path, log: Path, *extra: str) -> tuple[subprocess.Popen[bytes], str]:
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, __file__, "--serve", str(port), "--home", str(home), *extra],
        stdout=log.open("ab"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"server exited; see {log}")
        try:
            if httpx.get(url + "/", timeout=1).status_code == 200:
                return proc, url
        except httpx.HTTPError:
            time.sleep(0.3)
    proc.kill()
    raise SystemExit("server did not start")


# ----------------------------------------------------------------------------- the load
def _pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    rank = max(0, math.ceil(p / 100 * len(ordered)) - 1)
    return ordered[rank]


async def _ingest(client: httpx.AsyncClient) -> None:
    jobs = []
    for path in sorted(CORPUS.iterdir()):
        if path.name == "README.md":
            continue
        resp = await client.post("/ingest", files={"file": (path.name, path.read_bytes())})
        resp.raise_for_status()
        jobs.append(resp.json()["ingestion_job_id"])
    for job in jobs:
        for _ in range(600):  # bounded: 5 minutes
            status = (await client.get(f"/ingest/status/{job}")).json()["status"]
            if status not in ("queued", "running"):
                if status == "failed":
                    raise SystemExit(f"ingestion job {job} failed")
                break
            await asyncio.sleep(0.5)


async def _client_loop(
    client: httpx.AsyncClient, n: int, offset: int, lat: list[float], errors: list[str]
) -> None:
    for i in range(n):
        q = QUESTIONS[(offset + i) % len(QUESTIONS)]
        t0 = time.perf_counter()
        try:
            resp = await client.post("/query", json={"query": q, "top_k": 4})
            body = resp.json()
            if resp.status_code != 200 or ("answer" not in body):
                errors.append(f"{resp.status_code}: {str(body)[:200]}")
        except httpx.HTTPError as exc:
            errors.append(f"{type(exc).__name__}: {exc}")
        lat.append((time.perf_counter() - t0) * 1000)


async def _debate(client: httpx.AsyncClient) -> dict[str, Any]:
    t0 = time.perf_counter()
    resp = await client.post(
        "/debate/start", json={"protocol": "hierarchical", "question": QUESTIONS[0]}
    )
    resp.raise_for_status()
    started = (time.perf_counter() - t0) * 1000
    first: float | None = None
    ids: list[int] = []
    moves = 0
    async with client.stream("GET", resp.json()["stream_url"]) as stream:
        event = None
        async for line in stream.aiter_lines():
            if line.startswith("id: "):
                ids.append(int(line[4:]))
            elif line.startswith("event: "):
                event = line[7:]
                if event == "move":
                    moves += 1
                    first = first or (time.perf_counter() - t0) * 1000
                if event == "end":
                    break
    total = (time.perf_counter() - t0) * 1000
    ok = ids == list(range(1, len(ids) + 1)) and moves > 0
    return {"start_ms": started, "first_move_ms": first, "total_ms": total, "moves": moves,
            "events_in_order": ok}  # fmt: skip


async def _level(url: str, clients: int, total: int, with_debate: bool) -> dict[str, Any]:
    per = max(1, math.ceil(total / clients))
    lat: list[float] = []
    errors: list[str] = []
    limits = httpx.Limits(max_connections=clients + 4)
    async with httpx.AsyncClient(
        base_url=url, headers={"X-API-Key": KEY}, timeout=600, limits=limits
    ) as client:
        t0 = time.perf_counter()
        tasks = [_client_loop(client, per, i, lat, errors) for i in range(clients)]
        debate_task = asyncio.ensure_future(_debate(client)) if with_debate else None
        await asyncio.gather(*tasks)
        wall = time.perf_counter() - t0
        debate = await debate_task if debate_task else None
    return {
        "clients": clients,
        "requests": len(lat),
        "errors": len(errors),
        "error_samples": errors[:3],
        "p50_ms": statistics.median(lat),
        "p90_ms": _pct(lat, 90),
        "p99_ms": _pct(lat, 99),
        "max_ms": max(lat),
        "throughput_rps": len(lat) / wall,
        "debate": debate,
    }


async def _main(args: argparse.Namespace) -> list[dict[str, Any]]:
    home = Path(args.home)
    home.mkdir(parents=True, exist_ok=True)
    extra = ("--default-limits",) if args.mixed else ()
    proc, url = _start(home, home / "server_load.log", *extra)
    try:
        async with httpx.AsyncClient(base_url=url, headers={"X-API-Key": KEY}, timeout=600) as c:
            await _ingest(c)
            await _client_loop(c, 3, 0, [], [])  # warm-up: models loaded, caches filled
        if args.mixed:
            from server_mixed import mixed

            return [await mixed(url, KEY, args.mixed, args.rounds, args.retries, QUESTIONS)]
        results = []
        for clients in [int(x) for x in args.clients.split(",")]:
            results.append(await _level(url, clients, args.requests, not args.no_debate))
        return results
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=30)


def _table(results: list[dict[str, Any]]) -> str:
    rows = [
        "| clients | requests | errors | p50 ms | p90 ms | p99 ms | max ms | req/s | debate under"
        " load: start / first move / done ms (moves, ids in order) |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in results:
        d = r["debate"]
        debate = (
            f"{d['start_ms']:.0f} / {d['first_move_ms']:.0f} / {d['total_ms']:.0f} "
            f"({d['moves']}, {'yes' if d['events_in_order'] else 'NO'})"
            if d
            else "—"
        )
        rows.append(
            f"| {r['clients']} | {r['requests']} | {r['errors']} | {r['p50_ms']:.0f} | "
            f"{r['p90_ms']:.0f} | {r['p99_ms']:.0f} | {r['max_ms']:.0f} | "
            f"{r['throughput_rps']:.2f} | {debate} |"
        )
    return "\n".join(rows)


def main() -> None:
    """Parse arguments; run the server (``--serve``) or the load."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--home", default=os.environ.get("DISPUTATIO_HOME", "/tmp/dh-bench"))
    parser.add_argument("--clients", default="1,8,32", help="Concurrency levels.")
    parser.add_argument("--requests", type=int, default=64, help="Queries per level.")
    parser.add_argument("--no-debate", action="store_true", help="No debate under load.")
    parser.add_argument("--json", action="store_true", help="Also print the raw results.")
    parser.add_argument("--mixed", type=int, default=0, help="Clients of the mixed load.")
    parser.add_argument("--rounds", type=int, default=2, help="--mixed: rounds per client.")
    parser.add_argument("--retries", type=int, default=3, help="--mixed: retries of a 429.")
    parser.add_argument("--serve", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--default-limits", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        _serve(args.serve, Path(args.home), args.default_limits)
        return
    results = asyncio.run(_main(args))
    if args.mixed:
        from server_mixed import markdown

        print(markdown(results[0]))
        if args.json:
            print(json.dumps(results[0], indent=2))
        if results[0]["errors"] or results[0]["five_xx"]:
            raise SystemExit("the mixed load had 5xx answers or errors")
        return
    print(_table(results))
    if args.json:
        print(json.dumps(results, indent=2))
    if any(r["errors"] for r in results):
        raise SystemExit("some requests failed")
    if any(r["debate"] and not r["debate"]["events_in_order"] for r in results):
        raise SystemExit("a debate under load streamed no move or its events out of order")


if __name__ == "__main__":
    main()
