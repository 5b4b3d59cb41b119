"""The CLI's error boundary, run as real subprocesses: no traceback ever reaches a user."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest


def _cli(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "disputatio", *args],
        capture_output=True,
        text=True,
        env={**os.environ, "DISPUTATIO_HOME": str(tmp_path), "COLUMNS": "100"},
        timeout=120,
    )


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["ask", "q", "--bogus"], "No such option: --bogus"),
        (["ask", "q", "--tenant"], "'--tenant' requires an argument"),
        (["query"], "Missing argument"),
        (["--nope"], "No such option"),
        (["referee", "q", "--bogus"], "No such option"),
        (["ask", "--resume"], "--resume needs --thread-id"),
        (["ingest", "/no/such/folder"], "'/no/such/folder' does not exist"),
    ],
)
def test_usage_errors_print_typers_usage_and_exit_2(
    tmp_path: Path, args: list[str], needle: str
) -> None:
    proc = _cli(tmp_path, *args)
    assert proc.returncode == 2, proc.stderr
    assert needle in " ".join(proc.stderr.split())
    # click prints the usage line with every usage error that knows its command
    assert "Usage: disputatio" in proc.stderr or "requires an argument" in needle
    assert "Traceback" not in proc.stderr + proc.stdout


def test_a_user_error_is_one_line_and_v_adds_the_traceback(tmp_path: Path) -> None:
    proc = _cli(tmp_path, "ask", "q", "--protocol", "telepathy")
    lines = [ln for ln in proc.stderr.splitlines() if ln.strip()]
    assert proc.returncode == 2 and lines == [
        "error: unknown protocol 'telepathy' (known: hierarchical, medrag)"
    ]
    verbose = _cli(tmp_path, "-v", "ask", "q", "--protocol", "telepathy")
    assert verbose.returncode == 2 and "Traceback" in verbose.stderr
    assert verbose.stderr.startswith("error: unknown protocol")
    # where the hint's reader puts it: at the end, after the subcommand's own options
    last = _cli(tmp_path, "ask", "q", "--protocol", "telepathy", "-v")
    assert last.returncode == 2 and "Traceback" in last.stderr
    assert last.stderr.startswith("error: unknown protocol") and "No such option" not in last.stderr


def test_verbose_is_read_anywhere_before_a_double_dash() -> None:
    from disputatio.cli import hoist_verbose, wants_details

    assert hoist_verbose(["ask", "q", "--verbose"]) == ["-v", "ask", "q"]
    assert hoist_verbose(["ask", "q"]) == ["ask", "q"]
    assert hoist_verbose(["chat", "--", "-v"]) == ["chat", "--", "-v"]
    assert not wants_details(["chat", "--", "-v"])


def test_an_unexpected_failure_is_one_line_with_a_hint(tmp_path: Path) -> None:
    code = textwrap.dedent(
        """
        import sys
        from disputatio.cli import main
        from disputatio.cli.app import app

        @app.command("boom")
        def boom() -> None:
            raise RuntimeError("the disk is on fire\\nsecond line")

        main(sys.argv[1:])
        """
    )
    env = {**os.environ, "DISPUTATIO_HOME": str(tmp_path)}
    proc = subprocess.run(
        [sys.executable, "-c", code, "boom"], capture_output=True, text=True, env=env, timeout=120
    )
    lines = [ln for ln in proc.stderr.splitlines() if ln.strip()]
    assert proc.returncode == 1
    assert lines == ["error: RuntimeError: the disk is on fire (run with -v for details)"]
    verbose = subprocess.run(
        [sys.executable, "-c", code, "-v", "boom"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert verbose.returncode == 1 and "Traceback" in verbose.stderr
    assert "RuntimeError: the disk is on fire" in verbose.stderr


def test_ask_takes_tenant_and_collection(tmp_path: Path) -> None:
    proc = _cli(tmp_path, "ask", "--help")
    assert proc.returncode == 0
    for option in ("--tenant", "--collection", "--show-context", "--show-transcript"):
        assert option in proc.stdout
