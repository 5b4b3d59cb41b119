"""The mixed load of ``benchmarks/server_load.py --mixed N``: every kind of request at once.

N concurrent clients (one API key, so one tenant and its limits) each run ``--rounds`` rounds
of ``GET /livez``, ``GET /readyz``, ``POST /query`` and ``POST /ingest`` (a small distinct
``.txt`` note; its ingestion runs in the server's in-process queue worker), while one more
client starts a hierarchical debate and streams it to its end. Every loop is bounded. A 429
must carry ``Retry-After``; the client waits that long (at most ``MAX_WAIT_S``) and tries again,
at most ``--retries`` times; every attempt is counted, and each request's outcome once (``ok``,
``429 after retries``, ``error``). After the load, every accepted
ingestion job is polled until it ends, and must have ended ``succeeded`` or ``skipped``.

Errors (the run fails): any 5xx, any transport error or timeout, any other 4xx, a 429 without
``Retry-After``, a failed ingestion job, a debate that streams no move or its ids out of order.
"""

from __future__ import annotations

import asyncio
import math
import os
import time
from collections import Counter, defaultdict
from typing import Any

import httpx

#: Longest wait a client honours from ``Retry-After`` (seconds).
MAX_WAIT_S = 30.0


class Tally:
    """Per-route status counts and latencies, and the error samples."""

    def __init__(self) -> None:
        self.status: dict[str, Counter[str]] = defaultdict(Counter)
        self.ms: dict[str, list[float]] = defaultdict(list)
        self.ok_ms: dict[str, list[float]] = defaultdict(list)
        self.outcomes: dict[str, Counter[str]] = defaultdict(Counter)
        self.errors: list[str] = []

    def add(self, route: str, status: str, ms: float) -> None:
        """Count one attempt of ``route``."""
        self.status[route][status] += 1
        self.ms[route].append(ms)
        if status.startswith("2"):
            self.ok_ms[route].append(ms)

    def table(self) -> list[dict[str, Any]]:
        """One row per route: counts by status, p50/p95/max latency (all; 2xx alone)."""
        rows = []
        for route in sorted(self.status):
            counts, ms, ok = self.status[route], sorted(self.ms[route]), self.ok_ms[route]
            rows.append(
                {
                    "route": route,
                    "requests": sum(counts.values()),
                    "statuses": dict(sorted(counts.items())),
                    "outcomes": dict(sorted(self.outcomes[route].items())),
                    "p50_ms": round(_pct(ms, 50), 1),
                    "p95_ms": round(_pct(ms, 95), 1),
                    "max_ms": round(ms[-1], 1),
                    "ok_p50_ms": round(_pct(ok, 50), 1) if ok else None,
                    "ok_p95_ms": round(_pct(ok, 95), 1) if ok else None,
                }
            )
        return rows


def _pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


async def _call(client: httpx.AsyncClient, tally: Tally, route: str, method: str, url: str,
                retries: int, **kw: Any) -> httpx.Response | None:  # fmt: skip
    """One request, 429s retried after their ``Retry-After``; None unless it got a 2xx.

    Its outcome is counted once: ``ok``, ``error``, or ``429 after retries`` (allowed).
    """
    resp = await _attempts(client, tally, route, method, url, retries, **kw)
    if resp is None:
        tally.outcomes[route]["error"] += 1
    elif resp.status_code == 429:
        tally.outcomes[route]["429 after retries"] += 1
        return None
    else:
        tally.outcomes[route]["ok"] += 1
    return resp


async def _attempts(client: httpx.AsyncClient, tally: Tally, route: str, method: str, url: str,
                    retries: int, **kw: Any) -> httpx.Response | None:  # fmt: skip
    resp = None
    for attempt in range(retries + 1):
        t0 = time.perf_counter()
        try:
            resp = await client.request(method, url, **kw)
        except httpx.HTTPError as exc:
            tally.add(route, type(exc).__name__, (time.perf_counter() - t0) * 1000)
            tally.errors.append(f"{route}: {type(exc).__name__}: {exc}")
            return None
        tally.add(route, str(resp.status_code), (time.perf_counter() - t0) * 1000)
        if resp.status_code == 429:
            wait = resp.headers.get("Retry-After")
            if wait is None:
                tally.errors.append(f"{route}: 429 without Retry-After")
                return None
            if attempt < retries:
                await asyncio.sleep(min(float(wait), MAX_WAIT_S))
            continue
        if resp.status_code >= 400:
            tally.errors.append(f"{route}: {resp.status_code}: {resp.text[:200]}")
            return None
        return resp
    return resp  # still 429 after the retries: allowed


async def _client(client: httpx.AsyncClient, tally: Tally, n: int, rounds: int, retries: int,
                  questions: list[str], jobs: list[str], run: str) -> None:  # fmt: skip
    for r in range(rounds):
        await _call(client, tally, "GET /livez", "GET", "/livez", retries)
        await _call(client, tally, "GET /readyz", "GET", "/readyz", retries)
        q = questions[(n + r) % len(questions)]
        resp = await _call(client, tally, "POST /query", "POST", "/query", retries,
                           json={"query": q, "top_k": 4})  # fmt: skip
        if resp is not None and "answer" not in resp.json():
            tally.errors.append(f"POST /query: no answer: {resp.text[:200]}")
        note = (
            f"Mixed-load note {run}-{n}-{r}. Patient {n} in round {r} had brucellosis confirmed "
            f"by a serum agglutination titre of 1:{160 * (r + 1)} and took doxycycline.\n"
        )
        files = {"file": (f"mixed-{run}-{n}-{r}.txt", note.encode(), "text/plain")}
        resp = await _call(client, tally, "POST /ingest", "POST", "/ingest", retries, files=files)
        if resp is not None:
            jobs.append(resp.json()["ingestion_job_id"])


async def _debate(client: httpx.AsyncClient, tally: Tally, question: str, retries: int
                  ) -> dict[str, Any]:  # fmt: skip
    t0 = time.perf_counter()
    resp = await _call(client, tally, "POST /debate/start", "POST", "/debate/start", retries,
                       json={"protocol": "hierarchical", "question": question})  # fmt: skip
    if resp is None:
        return {"started": False}
    ids: list[int] = []
    moves, ended, status = 0, False, "not opened"
    t1 = time.perf_counter()
    try:
        async with client.stream("GET", resp.json()["stream_url"]) as stream:
            status = str(stream.status_code)
            async for line in stream.aiter_lines():
                if line.startswith("id: "):
                    ids.append(int(line[4:]))
                elif line == "event: move":
                    moves += 1
                elif line == "event: end":
                    ended = True
                    break
    except httpx.HTTPError as exc:
        tally.errors.append(f"debate stream: {type(exc).__name__}: {exc}")
        status = type(exc).__name__
    tally.add("GET /debate/{id}/stream", status, (time.perf_counter() - t1) * 1000)
    in_order = ids == list(range(1, len(ids) + 1))
    ok = bool(ended and moves and in_order)
    tally.outcomes["GET /debate/{id}/stream"]["ok" if ok else "error"] += 1
    if not ok:
        tally.errors.append(f"debate: ended={ended} moves={moves} ids in order={in_order}")
    return {"started": True, "moves": moves, "ended": ended, "ids_in_order": in_order,
            "total_ms": round((time.perf_counter() - t0) * 1000)}  # fmt: skip


async def _drain(client: httpx.AsyncClient, tally: Tally, jobs: list[str]) -> dict[str, Any]:
    """Poll every accepted ingestion job until it ends (bounded: 15 minutes)."""
    t0 = time.perf_counter()
    outcomes: Counter[str] = Counter()
    for job in jobs:
        for _ in range(1800):
            resp = await client.get(f"/ingest/status/{job}")
            if resp.status_code != 200:
                tally.errors.append(f"ingest status {job}: {resp.status_code}")
                break
            status = resp.json()["status"]
            if status not in ("queued", "running"):
                outcomes[status] += 1
                if status not in ("succeeded", "skipped"):
                    tally.errors.append(f"ingestion job {job}: {status}: {resp.json()['error']}")
                break
            await asyncio.sleep(0.5)
        else:
            tally.errors.append(f"ingestion job {job} did not end in 15 minutes")
    return {"accepted": len(jobs), "outcomes": dict(outcomes),
            "drain_s": round(time.perf_counter() - t0, 1)}  # fmt: skip


async def mixed(url: str, key: str, clients: int, rounds: int, retries: int,
                questions: list[str]) -> dict[str, Any]:  # fmt: skip
    """Run the mixed load against ``url``; the per-route table, debate, ingestion and errors."""
    tally = Tally()
    jobs: list[str] = []
    run = f"{int(time.time())}"
    limits = httpx.Limits(max_connections=clients + 8)
    load_before = os.getloadavg()[0]
    async with httpx.AsyncClient(
        base_url=url, headers={"X-API-Key": key}, timeout=300, limits=limits
    ) as client:
        t0 = time.perf_counter()
        debate = asyncio.ensure_future(_debate(client, tally, questions[0], retries))
        await asyncio.gather(
            *(_client(client, tally, n, rounds, retries, questions, jobs, run)
              for n in range(clients))
        )  # fmt: skip
        load_s = time.perf_counter() - t0
        debate_result = await debate
        ingestion = await _drain(client, tally, jobs)
    statuses: Counter[str] = Counter()
    for counts in tally.status.values():
        statuses.update(counts)
    return {
        "clients": clients,
        "rounds": rounds,
        "retries": retries,
        "load_s": round(load_s, 1),
        "routes": tally.table(),
        "status_histogram": dict(sorted(statuses.items())),
        "five_xx": sum(v for k, v in statuses.items() if k.startswith("5")),
        "debate": debate_result,
        "ingestion": ingestion,
        "errors": len(tally.errors),
        "error_samples": tally.errors[:10],
        "load_before": round(load_before, 2),
        "load_after": round(os.getloadavg()[0], 2),
    }


def markdown(result: dict[str, Any]) -> str:
    """The per-route table and one line each for statuses, the debate and the ingestion."""
    rows = [
        "| route | attempts | statuses | outcomes | p50 ms | p95 ms | max ms | 2xx p50 / p95 ms |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in result["routes"]:
        statuses = ", ".join(f"{k}: {v}" for k, v in r["statuses"].items())
        outcomes = ", ".join(f"{k}: {v}" for k, v in r["outcomes"].items())
        rows.append(
            f"| {r['route']} | {r['requests']} | {statuses} | {outcomes} | {r['p50_ms']:.0f} | "
            f"{r['p95_ms']:.0f} | {r['max_ms']:.0f} | {r['ok_p50_ms'] or 0:.0f} / "
            f"{r['ok_p95_ms'] or 0:.0f} |"
        )
    rows += [
        "",
        f"statuses: {result['status_histogram']}; 5xx: {result['five_xx']}; "
        f"errors: {result['errors']}; load phase {result['load_s']} s",
        f"debate: {result['debate']}",
        f"ingestion: {result['ingestion']}",
    ]
    return "\n".join(rows)
