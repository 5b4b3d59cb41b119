"""Log-probability verdicts through ``eval run -m vllm:…`` / ``-m openai:…`` (issue #26).

A tiny OpenAI-compatible HTTP server on 127.0.0.1 (the standard library's, in a thread) answers
``/v1/chat/completions`` with OpenAI-shaped ``logprobs``; ``disputatio eval run`` reaches it by
the model string alone, as it would reach vLLM, llama.cpp or OpenAI: nothing in the harness is
replaced. The server says "yes" to every test question (p 0.6 against 0.4) and "yes" more
strongly to the content-free inputs (0.9), so the raw verdict is always ``yes`` and contextual
calibration (``p / prior``) turns it to ``no``: the answers prove the log-probabilities were
read and the calibration applied.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from disputatio.cli import eval_report, eval_run
from disputatio.prompts.eval import CONTENT_FREE_INPUTS

from .logprob_fakes import completion

RAW = {"Yes": 0.6, "No": 0.4}
CONTENT_FREE = {"Yes": 0.9, "No": 0.1}


def app() -> typer.Typer:
    cli = typer.Typer()
    cli.command("run")(eval_run.run)
    cli.command("report")(eval_report.report)
    return cli


def is_content_free(body: dict[str, Any]) -> bool:
    """Whether a request asks about one of the content-free inputs, not a question."""
    asked = re.search(r"<question>\n(.*?)\n</question>", body["messages"][-1]["content"], re.S)
    return asked is not None and asked.group(1).strip() in CONTENT_FREE_INPUTS


def answer(body: dict[str, Any]) -> dict[str, Any]:
    """The scripted endpoint: :data:`CONTENT_FREE` for a content-free input, else :data:`RAW`."""
    return completion(CONTENT_FREE if is_content_free(body) else RAW)


@pytest.fixture
def endpoint() -> Iterator[tuple[str, list[dict[str, Any]]]]:
    """``(base URL, request bodies)`` of a local OpenAI-compatible server."""
    requests: list[dict[str, Any]] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            body["_path"] = self.path
            requests.append(body)
            data = json.dumps(answer(body)).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *_args: Any) -> None:  # quiet
            return

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1", requests
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.parametrize("provider", ["vllm", "openai"])
def test_log_probability_verdicts_work_through_the_openai_compatible_model_strings(
    provider: str,
    endpoint: tuple[str, list[dict[str, Any]]],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    base_url, requests = endpoint
    monkeypatch.setenv("DISPUTATIO_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("NO_PROXY", "127.0.0.1")
    monkeypatch.setenv("no_proxy", "127.0.0.1")
    if provider == "vllm":
        model = f"vllm:scripted-model@{base_url}"
    else:  # the OpenAI client reads its base URL from the environment
        monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
        monkeypatch.setenv("OPENAI_BASE_URL", base_url)
        monkeypatch.delenv("OPENAI_API_BASE", raising=False)
        model = "openai:scripted-model"
    args = ["run", "-d", "mirage:bioasq", "-p", "cot_logprob,cot_calibrated", "-n", "2"]
    args += ["--corpus", "oracle", "--no-db", "-o", str(tmp_path / "runs"), "-m", model]
    result = CliRunner().invoke(app(), args)
    assert result.exit_code == 0, result.output

    (run_dir,) = (tmp_path / "runs").iterdir()
    records = [json.loads(x) for x in (run_dir / "results.jsonl").read_text().splitlines()]
    answers = {(r["protocol"], r["answer"]) for r in records}
    assert answers == {("cot_logprob", "yes"), ("cot_calibrated", "no")}
    assert len(records) == 4 and not any(r.get("error") for r in records)
    for record in records:
        raw = record["calibration"]["raw_probs"]
        assert raw["yes"] == pytest.approx(RAW["Yes"]) and raw["no"] == pytest.approx(RAW["No"])

    assert requests and all(b["_path"] == "/v1/chat/completions" for b in requests)
    assert all(b["model"] == "scripted-model" for b in requests)
    assert all(b["logprobs"] is True and b["top_logprobs"] == 20 for b in requests)
    assert all(b["temperature"] == 0.0 for b in requests)
    # the prior: each content-free input asked once per run
    assert sum(map(is_content_free, requests)) == len(CONTENT_FREE_INPUTS)

    report = CliRunner().invoke(app(), ["report", str(run_dir), "-o", str(tmp_path / "rep")])
    assert report.exit_code == 0, report.output
    text = (tmp_path / "rep" / "report.md").read_text()
    assert "| **cot_calibrated** (this run) |" in text and "## MIRAGE table" in text
