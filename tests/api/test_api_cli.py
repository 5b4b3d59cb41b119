"""``disputatio serve``: the command itself, on the test database, behind the configured keys."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from disputatio.settings import Settings

from .conftest import free_port
from .fakes import KEY_A, TENANT_A

pytestmark = pytest.mark.integration

CLI = [sys.executable, "-m", "disputatio"]


def test_hash_key_prints_the_sha256_to_configure() -> None:
    out = subprocess.run(
        [*CLI, "serve", "--hash-key", "s3cret"], capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == hashlib.sha256(b"s3cret").hexdigest()


def test_disputatio_serve_serves_the_page_and_the_api(
    api_settings: Settings, db_url: str, tmp_path: Path
) -> None:
    port = free_port()
    keys = {hashlib.sha256(KEY_A.encode()).hexdigest(): TENANT_A}
    env = {
        **os.environ,
        "DATABASE_URL": db_url,
        "DISPUTATIO_HOME": str(api_settings.home),
        "DISPUTATIO_SERVER__API_KEYS": json.dumps(keys),
    }
    log = tmp_path / "serve.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [*CLI, "serve", "--port", str(port), "--log-level", "warning"],
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            assert proc.poll() is None, log.read_text()[-2000:]
            assert time.monotonic() < deadline, "disputatio serve did not start"
            try:
                if httpx.get(url + "/", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.3)
        assert httpx.get(url + "/static/app.js").status_code == 200
        assert httpx.get(url + "/sessions").status_code == 401
        sessions = httpx.get(url + "/sessions", headers={"Authorization": f"Bearer {KEY_A}"})
        assert sessions.status_code == 200 and "sessions" in sessions.json()
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=30)
    assert proc.returncode in (0, -signal.SIGTERM)
