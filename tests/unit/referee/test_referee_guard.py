"""Which errors are retried, and the citation checks."""

from __future__ import annotations

import logging
from types import SimpleNamespace
from typing import Any, cast

import httpx
import pytest

from disputatio.errors import ConfigError, ModelError
from disputatio.nodes.referee.evidence import check_citations, citable, strip_labels
from disputatio.nodes.referee.guard import is_retryable, run_guarded
from disputatio.state.retrieval import Section


def _status(code: int) -> httpx.HTTPStatusError:
    request = httpx.Request("POST", "http://x")
    return httpx.HTTPStatusError(
        "x", request=request, response=httpx.Response(code, request=request)
    )


class RateLimitError(Exception):
    """Named like the OpenAI SDK's."""


@pytest.mark.parametrize(
    "exc",
    [
        httpx.ConnectError("x"),
        httpx.ReadTimeout("x"),
        TimeoutError(),
        ConnectionResetError(),
        _status(429),
        _status(503),
        RateLimitError("slow down"),
    ],
)
def test_transient_errors_are_retried(exc: Exception) -> None:
    assert is_retryable(exc)


@pytest.mark.parametrize(
    "exc", [ValueError("x"), ModelError("bad json"), _status(400), KeyError("k")]
)
def test_other_errors_are_not(exc: Exception) -> None:
    assert not is_retryable(exc)


def test_check_citations_maps_labels_and_ids_and_reads_brackets() -> None:
    sections = [Section(id=i, text="t") for i in ("pg-1", "pg-2", "fa-1")]
    allowed = citable(sections)
    assert allowed["S2"] == "pg-2" and allowed["fa-1"] == "fa-1"
    cited = ["[s1]", "id=pg-2", "zzz", "pg-1"]
    valid, invalid = check_citations(cited, "see [S3] and [1]", allowed)
    assert valid == ["pg-1", "pg-2", "fa-1"]
    assert invalid == ["zzz"]  # bracketed text that is no id ("[1]") is not reported


def test_labels_are_stripped_from_texts() -> None:
    assert strip_labels("fast [S1, S2] and cheap [s3].") == "fast and cheap."


def test_a_reported_failure_logs_one_line_and_keeps_the_traceback_for_verbose(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The failure is in the state as a PhaseError; the terminal (WARNING, the CLI's default
    level) gets one line, the traceback goes to INFO (``disputatio -v``)."""

    def work() -> dict[str, object]:
        raise ConfigError("unknown model string 'bogus:foo'")

    with caplog.at_level(logging.INFO, logger="disputatio.nodes.referee.guard"):
        update = run_guarded(None, "plan", "planner", work, max_attempts=1)
    (error,) = update["errors"]
    assert error["code"] == "INVALID_REQUEST" and "bogus:foo" in error["message"]
    warnings = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert warnings and all(r.exc_info is None for r in warnings)
    assert "bogus:foo" in warnings[-1].getMessage()
    assert any(r.levelno == logging.INFO and r.exc_info for r in caplog.records)


def test_a_guarded_turn_is_announced_before_its_work_runs() -> None:
    events: list[dict[str, object]] = []
    runtime = SimpleNamespace(
        execution_info=SimpleNamespace(node_attempt=1), stream_writer=events.append
    )

    def work() -> dict[str, object]:
        assert events == [
            {"event": "turn", "phase": "advocacy", "agent": "advocate-a", "status": "start"}
        ]
        return {"done": True}

    update = run_guarded(cast(Any, runtime), "advocacy", "advocate-a", work, max_attempts=1)
    assert update == {"done": True}
