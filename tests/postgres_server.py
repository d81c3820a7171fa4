"""A throwaway PostgreSQL server for the tests: initdb + pg_ctl from the machine's PostgreSQL.

The server lives in a temporary folder, listens on a free loopback port and a private unix socket,
trusts local connections and is stopped (and its folder removed) at the end of the session. Each
test that needs a database gets a fresh one (`create_database`), so tests never see each other's
rows. PostgreSQL refuses to run as root, so as root the server runs as the `postgres` user (or
`nobody`) through runuser, owning its folder.
"""

from __future__ import annotations

import contextlib
import glob
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

UNPRIVILEGED_USERS = ("postgres", "nobody")


class PostgresMissing(RuntimeError):
    """No initdb/pg_ctl on this machine."""


def find_bin_dir() -> Path:
    """The newest /usr/lib/postgresql/<major>/bin holding initdb, or the folder of an initdb on PATH."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(Path(p).parts[-3]))
    if found:
        return Path(found[-1]).parent
    on_path = shutil.which("initdb")
    if on_path:
        return Path(on_path).parent
    raise PostgresMissing("PostgreSQL is not installed (no initdb): apt-get install -y postgresql")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _run_as() -> str | None:
    """The user to run the server as: None when we are not root."""
    if os.geteuid() != 0:
        return None
    for name in UNPRIVILEGED_USERS:
        with contextlib.suppress(KeyError):
            pwd.getpwnam(name)
            return name
    raise PostgresMissing("running as root and no unprivileged user (postgres, nobody) to run PostgreSQL as")


class PostgresServer:
    """One running server; `dsn(database)` to connect, `create_database()` for a fresh empty one."""

    def __init__(self) -> None:
        self.bin_dir = find_bin_dir()
        self.user = _run_as()
        self.folder = Path(tempfile.mkdtemp(prefix="parlor-pg-"))
        self.data = self.folder / "data"
        self.socket_dir = self.folder / "socket"
        self.port = free_port()
        self._names = itertools.count(1)

    def _command(self, program: str, *args: str) -> list[str]:
        command = [str(self.bin_dir / program), *args]
        return ["runuser", "-u", self.user, "--", *command] if self.user else command

    def start(self) -> None:
        self.socket_dir.mkdir()
        if self.user:
            entry = pwd.getpwnam(self.user)
            for path in (self.folder, self.socket_dir):
                os.chown(path, entry.pw_uid, entry.pw_gid)
        subprocess.run(self._command("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust",
                                     "-E", "UTF8", "--no-locale"),
                       check=True, capture_output=True)
        options = (f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.socket_dir} "
                   "-c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200")
        subprocess.run(self._command("pg_ctl", "-D", str(self.data), "-l", str(self.folder / "server.log"),
                                     "-o", options, "-w", "-t", "60", "start"),
                       check=True, capture_output=True)

    def stop(self) -> None:
        with contextlib.suppress(subprocess.CalledProcessError):
            subprocess.run(self._command("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop"),
                           check=True, capture_output=True)
        shutil.rmtree(self.folder, ignore_errors=True)

    def dsn(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def create_database(self) -> str:
        """A new empty database; returns its DATABASE_URL."""
        name = f"parlor_test_{os.getpid()}_{next(self._names)}"
        subprocess.run([str(self.bin_dir / "createdb"), "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres",
                        name], check=True, capture_output=True)
        return self.dsn(name)

    def log(self) -> str:
        with contextlib.suppress(OSError):
            return (self.folder / "server.log").read_text()
        return ""
