"""No password in any line ``adjudicator serve`` writes: not the store's PostgreSQL
password when the store cannot be opened, not the IMAP password when a server echoes
the LOGIN command back in its refusal."""

from __future__ import annotations

import socket
import socketserver
import threading
from contextlib import contextmanager

from tests.pipeline.pipeline_helpers import assert_no_traceback, cli, command_env
from tests.service.conftest import wait_for
from tests.smtp_loopback import HOST, free_port

PASSWORD = "Sekr3t-Pass-1904"


def test_serve_does_not_print_the_store_password_when_it_cannot_open_the_store(referee, tmp_path):
    maildir = tmp_path / "Maildir"
    for folder in ("new", "cur", "tmp"):
        (maildir / folder).mkdir(parents=True)
    url = f"postgresql://referee:{PASSWORD}@{HOST}:{free_port()}/league?password={PASSWORD}"
    env = command_env(ADJUDICATOR_KEY=str(referee.key_file), ADJUDICATOR_KEY_PASSPHRASE="")

    done = cli("serve", "--store", url, "--maildir", maildir, "--health-file", tmp_path / "health", env=env)

    assert done.returncode != 0
    assert_no_traceback(done)
    assert "cannot open the store postgresql://referee:***@" in done.stderr, done.stderr
    assert PASSWORD not in done.stdout + done.stderr
    assert PASSWORD not in (tmp_path / "health").read_text(encoding="utf-8")


class EchoingImap(socketserver.StreamRequestHandler):
    """An IMAP server that refuses every LOGIN quoting the whole command line back."""

    def handle(self) -> None:
        self.wfile.write(b"* OK [CAPABILITY IMAP4rev1 AUTH=PLAIN] ready\r\n")
        for line in self.rfile:
            tag, _, rest = line.decode("utf-8", "replace").rstrip("\r\n").partition(" ")
            command = rest.split(" ", 1)[0].upper()
            if command == "CAPABILITY":
                self.wfile.write(f"* CAPABILITY IMAP4rev1\r\n{tag} OK done\r\n".encode())
            elif command == "LOGIN":
                self.wfile.write(f"{tag} NO [AUTHENTICATIONFAILED] refused: {rest}\r\n".encode())
            elif command == "LOGOUT":
                self.wfile.write(f"* BYE\r\n{tag} OK bye\r\n".encode())
                return
            else:
                self.wfile.write(f"{tag} BAD unknown\r\n".encode())


@contextmanager
def echoing_imap_server():
    server = socketserver.ThreadingTCPServer((HOST, 0), EchoingImap)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()


def test_an_imap_server_that_echoes_the_login_command_gets_no_password_into_the_log(referee, start_serve):
    with echoing_imap_server() as port:
        with socket.create_connection((HOST, port), timeout=5) as probe:  # it does echo the command
            probe.recv(200)
            probe.sendall(f"a1 LOGIN referee {PASSWORD}\r\n".encode())
            assert PASSWORD in probe.recv(200).decode()
        serve = start_serve("--imap", f"{HOST}:{port}", "--imap-user", "referee", "--imap-security", "none",
                            lmtp=False, env={"ADJUDICATOR_IMAP_PASSWORD": PASSWORD})
        wait_for(lambda: "trying again" in serve.log(), 20, serve.log)
        assert serve.terminate() == 0
    assert "refused: LOGIN referee" in serve.log()  # the server's answer is logged, without the password
    assert PASSWORD not in serve.log()
