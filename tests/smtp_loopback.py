"""A real SMTP server (aiosmtpd) on the loopback interface, for the tests that send mail."""

from __future__ import annotations

import contextlib
import socket
from collections.abc import Iterator
from dataclasses import dataclass, field
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser

from aiosmtpd.controller import Controller

HOST = "127.0.0.1"


@dataclass
class Received:
    """One message as the server received it."""

    mail_from: str
    rcpt_tos: list[str]
    content: bytes
    peer: tuple = ()

    @property
    def message(self) -> EmailMessage:
        return BytesParser(policy=policy.default).parsebytes(self.content)


@dataclass
class RecordingHandler:
    """An aiosmtpd handler that keeps what it receives and refuses what it is told to
    (recipients at RCPT, or messages to some recipients at DATA)."""

    refuse_rcpt: dict[str, str] = field(default_factory=dict)
    refuse_data: dict[str, str] = field(default_factory=dict)
    received: list[Received] = field(default_factory=list)

    async def handle_RCPT(self, server, client, envelope, address, rcpt_options):
        if address in self.refuse_rcpt:
            return self.refuse_rcpt[address]
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, client, envelope):
        for address in envelope.rcpt_tos:
            if address in self.refuse_data:
                return self.refuse_data[address]
        self.received.append(Received(envelope.mail_from, list(envelope.rcpt_tos), envelope.content, client.peer))
        return "250 Message accepted for delivery"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


@contextlib.contextmanager
def smtp_server(handler: RecordingHandler, port: int | None = None, **smtp_options) -> Iterator[int]:
    """Run an SMTP server on the loopback interface while the block runs; yield its port."""
    port = port or free_port()
    controller = Controller(handler, hostname=HOST, port=port, **smtp_options)
    controller.start()
    try:
        yield port
    finally:
        controller.stop()
