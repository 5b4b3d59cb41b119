"""Two processes share the real local model server; its host exits mid-request (0.5B).

Before the hand-off (2026-12-03), the host's exit waited for the other process's request, which
waited for the host: both sat idle until the client's timeout, and the request failed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from disputatio.settings import Settings

pytestmark = [pytest.mark.integration, pytest.mark.model]

NAME = "qwen2.5-coder-0.5b"

HOST = f"""
import time
from disputatio.models.local import ensure_server
from disputatio.models.local_handoff import in_flight
base = ensure_server({NAME!r})
print(base, flush=True)
while not in_flight(base):  # another process's request is being decoded: leave now
    time.sleep(0.05)
"""

CLIENT = f"""
import json, time
from disputatio.models import get_chat_model
from disputatio.models.local import running_server
first = running_server({NAME!r})
llm = get_chat_model("local:{NAME}", max_tokens=48)
a = llm.invoke("Count from one to twenty in words.").content
while running_server({NAME!r}) == first:  # the host withdraws its run file, then leaves
    time.sleep(0.1)
b = llm.invoke("Name one colour.").content
print(json.dumps({{"first": first, "a": a, "b": b, "second": running_server({NAME!r})}}))
"""


def test_host_exit_waits_for_the_request_in_flight_and_the_client_moves_on(
    settings: Settings, tmp_path: Path
) -> None:
    env = {
        **os.environ,
        "DISPUTATIO_HOME": str(tmp_path),
        "DISPUTATIO_LOCAL_LLM__CACHE_DIR": str(settings.model_cache_dir),
        "DISPUTATIO_MODELS__TIMEOUT_S": "120",  # a deadlock fails in minutes, not ten
        "DISPUTATIO_MODELS__MAX_RETRIES": "0",
    }
    host = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(HOST)], env=env, stdout=subprocess.PIPE, text=True
    )
    try:
        assert host.stdout is not None
        base = host.stdout.readline().strip()
        assert base.startswith("http://127.0.0.1:"), "the host did not start its server"
        client = subprocess.run(
            [sys.executable, "-c", textwrap.dedent(CLIENT)],
            env=env,
            capture_output=True,
            text=True,
            timeout=400,
        )
        assert client.returncode == 0, client.stderr[-2000:]
        out = json.loads(client.stdout.strip().splitlines()[-1])
        assert host.wait(timeout=60) == 0
    finally:
        host.kill()
    assert out["first"] == base  # the client used the host's server ...
    assert out["a"].strip()  # ... and got its answer although the host left meanwhile
    assert out["b"].strip() and out["second"] not in (None, base)  # then a server of its own
