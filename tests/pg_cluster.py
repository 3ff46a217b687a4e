"""A private PostgreSQL server for the tests: ``initdb`` and ``pg_ctl`` from the
machine's PostgreSQL (``/usr/lib/postgresql/*/bin``, or ``PG_BIN``), a cluster in a
temporary folder listening only on a Unix socket there, trust authentication for
its one role, and a fresh database for every test that asks for one.

When the tests run as root (as CI does), the server runs as the ``postgres``
system user (or ``nobody``), since PostgreSQL refuses to run as root.
"""

from __future__ import annotations

import glob
import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path

import psycopg

ROLE = "adjudicator"


def server_binaries() -> Path:
    """The folder of ``initdb`` and ``pg_ctl``: PG_BIN, else the newest installed."""
    if os.environ.get("PG_BIN"):
        return Path(os.environ["PG_BIN"])
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=_version_of)
    if found:
        return Path(found[-1]).parent
    on_path = shutil.which("initdb")
    if on_path:
        return Path(on_path).parent
    raise RuntimeError(
        "no PostgreSQL server found (initdb): install it (apt-get install postgresql; "
        ".ci/run does) or set PG_BIN to the folder holding initdb and pg_ctl"
    )


def _version_of(path: str) -> tuple[int, ...]:
    return tuple(int(part) for part in Path(path).parts[-3].split(".") if part.isdigit())


def _server_user() -> str | None:
    """The user to run the server as when we are root, else None (ourselves)."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        try:
            pwd.getpwnam(name)
            return name
        except KeyError:
            continue
    raise RuntimeError("running as root, and no 'postgres' or 'nobody' user to run PostgreSQL as")


class PostgresCluster:
    """A running private cluster; :meth:`new_database` gives a store URL."""

    def __init__(self, durable: bool = False) -> None:
        """Start the cluster; ``durable`` keeps PostgreSQL's default fsync and
        synchronous commit (for benchmarks), else they are off (for speed in tests)."""
        self.binaries = server_binaries()
        self.folder = Path(tempfile.mkdtemp(prefix="adjudicator-pg-"))
        self.data = self.folder / "data"
        self.user = _server_user()
        self._numbers = itertools.count(1)
        if self.user is not None:
            entry = pwd.getpwnam(self.user)
            os.chown(self.folder, entry.pw_uid, entry.pw_gid)
        self._run("initdb", "-D", self.data, "-U", ROLE, "--auth=trust", "-E", "UTF8",
                  "--locale=C", "--no-sync")
        options = f"-k {self.folder} -c listen_addresses='' -c max_connections=200"
        if not durable:
            options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        self._run("pg_ctl", "-D", self.data, "-l", self.folder / "server.log", "-o", options,
                  "-w", "-t", "60", "start")

    def _run(self, program: str, *args) -> None:
        command = [str(self.binaries / program), *map(str, args)]
        if self.user is not None:
            command = ["runuser", "-u", self.user, "--", *command]
        done = subprocess.run(command, capture_output=True, text=True, timeout=120)
        if done.returncode:
            raise RuntimeError(f"{program} failed: {done.stdout}{done.stderr}")

    def url(self, database: str) -> str:
        """The URL of a database of the cluster, over the Unix socket."""
        return f"postgresql://{ROLE}@/{database}?host={self.folder}"

    def admin(self) -> psycopg.Connection:
        """An autocommit connection to the cluster's maintenance database."""
        return psycopg.connect(self.url("postgres"), autocommit=True)

    def new_database(self, prefix: str = "store") -> str:
        """Create an empty UTF-8 database and return its URL."""
        name = f"{prefix}_{os.getpid()}_{next(self._numbers)}"
        with self.admin() as connection:
            connection.execute(f'CREATE DATABASE "{name}" TEMPLATE template0 ENCODING \'UTF8\'')
        return self.url(name)

    def server_cpu_seconds(self) -> float:
        """CPU seconds used so far by the server: the postmaster, its live processes
        and the connections' processes that have ended."""
        main = int((self.data / "postmaster.pid").read_text().split()[0])
        tick = os.sysconf("SC_CLK_TCK")
        total = 0
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            pid, ppid = int(stat.parent.name), int(fields[1])
            if pid == main:
                total += sum(int(v) for v in fields[11:15])  # utime stime cutime cstime
            elif ppid == main:
                total += int(fields[11]) + int(fields[12])
        return total / tick

    def stop(self) -> None:
        """Stop the server at once and remove its folder."""
        try:
            self._run("pg_ctl", "-D", self.data, "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)
