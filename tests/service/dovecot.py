"""A real IMAP server for the tests: Dovecot from the system packages (``apt-get install
dovecot-imapd``; ``.ci/run`` installs it), started on the loopback interface with a
configuration of its own in a temporary folder, one user with a password.

Without Dovecot the IMAP tests are skipped, unless ADJUDICATOR_REQUIRE_DOVECOT=1 (as in
CI), when they fail."""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

import pytest

from tests.smtp_loopback import HOST, free_port

USER, PASSWORD = "referee", "imap-secret-1904"

CONFIG = """\
protocols = imap
listen = {host}
base_dir = {root}/run
state_dir = {root}/state
log_path = {root}/dovecot.log
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
mail_location = maildir:{root}/mail/%u
default_login_user = {login_user}
default_internal_user = {internal_user}
first_valid_uid = 1
first_valid_gid = 1
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {root}/passwd
}}
userdb {{
  driver = static
  args = uid={uid} gid={gid} home={root}/home/%u
}}
service imap-login {{
  inet_listener imap {{
    address = {host}
    port = {port}
  }}
  inet_listener imaps {{
    port = 0
  }}
}}
service anvil {{
  chroot =
}}
service imap-login {{
  chroot =
}}
"""


@dataclass(frozen=True)
class ImapServer:
    host: str
    port: int
    user: str
    password: str


def dovecot_binary() -> str:
    found = shutil.which("dovecot") or ("/usr/sbin/dovecot" if Path("/usr/sbin/dovecot").exists() else None)
    if found is None:
        message = "Dovecot is not installed (apt-get install dovecot-imapd)"
        if os.environ.get("ADJUDICATOR_REQUIRE_DOVECOT") == "1":
            pytest.fail(message)
        pytest.skip(message)
    return found


@contextlib.contextmanager
def dovecot() -> Iterator[ImapServer]:
    """Run Dovecot on a free loopback port while the block runs (its files in a folder
    of their own, readable by Dovecot's users, removed afterwards)."""
    binary = dovecot_binary()
    root = Path(tempfile.mkdtemp(prefix="adjudicator-dovecot-"))
    try:
        with _running(binary, root) as server:
            yield server
    finally:
        shutil.rmtree(root, ignore_errors=True)


@contextlib.contextmanager
def _running(binary: str, root: Path) -> Iterator[ImapServer]:
    port = free_port()
    if os.geteuid() == 0:  # Dovecot refuses mail access as root: the mail belongs to its own user
        owner = pwd.getpwnam("dovecot")
        login_user, internal_user = "dovenull", "dovecot"
    else:
        owner = pwd.getpwuid(os.getuid())
        login_user = internal_user = owner.pw_name
    for sub in ("run", "state", "mail", "home"):
        (root / sub).mkdir(parents=True, exist_ok=True)
    (root / "passwd").write_text(f"{USER}:{{PLAIN}}{PASSWORD}\n", encoding="utf-8")
    for path in (root, root / "mail", root / "home", root / "state"):
        os.chown(path, owner.pw_uid, owner.pw_gid)
    root.chmod(0o755)
    (root / "dovecot.conf").write_text(CONFIG.format(
        host=HOST, port=port, root=root, uid=owner.pw_uid, gid=owner.pw_gid,
        login_user=login_user, internal_user=internal_user), encoding="utf-8")
    process = subprocess.Popen([binary, "-F", "-c", str(root / "dovecot.conf")],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        _wait_listening(port, process, root)
        yield ImapServer(HOST, port, USER, PASSWORD)
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)


def _wait_listening(port: int, process: subprocess.Popen, root: Path, timeout: float = 20) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if process.poll() is not None:
            output = process.stdout.read().decode(errors="replace") if process.stdout else ""
            log = (root / "dovecot.log").read_text(errors="replace") if (root / "dovecot.log").exists() else ""
            pytest.fail(f"Dovecot stopped at start ({process.returncode}):\n{output}\n{log}")
        with socket.socket() as probe:
            probe.settimeout(0.5)
            if probe.connect_ex((HOST, port)) == 0:
                return
        time.sleep(0.05)
    pytest.fail(f"Dovecot did not listen on {HOST}:{port} within {timeout} s")
