"""The ``disputatio`` command line (typer + rich).

The error boundary of every command (no traceback ever reaches a user):

* usage errors (unknown option, missing argument, bad value) print typer's usage message and
  exit with status 2 (typer's own standalone handling);
* a :class:`~disputatio.errors.DisputatioError` prints one line, ``error: <message>``, and
  exits with status 2;
* any other failure prints one line, ``error: <Type>: <message>`` with a hint to rerun with
  ``-v``, and exits with status 1;
* ``-v`` / ``--verbose`` (anywhere on the command line) adds the details: the traceback,
  after the one line;
* Ctrl-C exits with status 130.

The boundary also covers importing the commands, since building a graph may read settings.
"""

from __future__ import annotations

import os
import sys
import traceback
from collections.abc import Sequence

from disputatio.errors import DisputatioError

#: Exit status of a failure that is not a usage error or a DisputatioError.
EXIT_FAILURE = 1
#: Exit status of a user error (typer's usage errors use the same).
EXIT_USAGE = 2
#: Exit status after Ctrl-C.
EXIT_INTERRUPTED = 130


#: The root option that asks for details; accepted anywhere on the command line.
VERBOSE_FLAGS = ("-v", "--verbose")


def wants_details(argv: Sequence[str]) -> bool:
    """Whether the command line asks for details (``-v`` / ``--verbose``)."""
    return any(arg in VERBOSE_FLAGS for arg in _options_part(argv))


def _options_part(argv: Sequence[str]) -> Sequence[str]:
    """``argv`` up to a ``--`` separator (what follows it is never an option)."""
    return argv[: list(argv).index("--")] if "--" in argv else argv


def hoist_verbose(argv: Sequence[str]) -> list[str]:
    """Move ``-v``/``--verbose`` to the front, where the root command reads it.

    The error line says "run with -v for details", and users add it at the end
    (``disputatio ask "…" -v``), which the subcommand would refuse as an unknown option.
    """
    head = list(_options_part(argv))
    if not any(arg in VERBOSE_FLAGS for arg in head):
        return list(argv)
    rest = [arg for arg in head if arg not in VERBOSE_FLAGS]
    return ["-v", *rest, *list(argv)[len(head) :]]


def _one_line(text: str) -> str:
    """``text`` on one line (the first non-empty line, at most 300 characters)."""
    line = next((part.strip() for part in str(text).splitlines() if part.strip()), "")
    return line if len(line) <= 300 else line[:299] + "…"


def report_failure(exc: BaseException, *, verbose: bool) -> int:
    """Print the one-line error (and the traceback when ``verbose``); return the exit status."""
    from rich.console import Console
    from rich.text import Text

    console = Console(stderr=True, highlight=False, soft_wrap=True)
    if isinstance(exc, DisputatioError):
        message, status = _one_line(exc.message), EXIT_USAGE
    else:
        detail = _one_line(str(exc))
        name = type(exc).__name__
        message = f"{name}: {detail}" if detail else name
        status = EXIT_FAILURE
    line = Text("error: ", style="bold red")
    line.append(message)  # never markup: messages may hold [brackets]
    if not verbose and not isinstance(exc, DisputatioError):
        line.append(" (run with -v for details)", style="dim")
    console.print(line)
    if verbose:
        console.print(Text("".join(traceback.format_exception(exc)).rstrip(), style="dim"))
    return status


def main(argv: Sequence[str] | None = None) -> None:
    """Console-script entry point with the error boundary described above."""
    args = hoist_verbose(sys.argv[1:] if argv is None else argv)
    verbose = wants_details(args)
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    try:
        from disputatio.cli.app import app

        app(args=args, prog_name="disputatio", standalone_mode=True)
    except SystemExit:
        raise
    except KeyboardInterrupt:
        sys.exit(EXIT_INTERRUPTED)
    except Exception as exc:  # the boundary: one line, details only with -v
        sys.exit(report_failure(exc, verbose=verbose))


__all__ = ["hoist_verbose", "main", "report_failure", "wants_details"]
