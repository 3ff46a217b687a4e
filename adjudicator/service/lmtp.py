"""The LMTP endpoint: how a mail server (e.g. Postfix's ``lmtp`` transport) delivers
to the adjudicator. LMTP is SMTP without queues: the server answers each recipient
once the message is taken (RFC 2033), so the mail server keeps, and delivers again
later, any message not answered ``250``.

Here ``250`` is sent only once the message is durable in the campaign store (taken
in, its receipt or refusal queued); while the store cannot take it (busy, unavailable)
the answer is ``451``, a temporary failure the mail server retries.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
from typing import Any, Callable

from aiosmtpd.controller import Controller, UnixSocketController
from aiosmtpd.lmtp import LMTP

from adjudicator.service.settings import LmtpEndpoint

log = logging.getLogger("adjudicator.serve")

MAX_MESSAGE_BYTES = 10 * 1024 * 1024


class DeliveryHandler:
    """aiosmtpd handler: each message goes to the desk; one answer per recipient."""

    def __init__(self, submit: Callable[[bytes, str], Any]) -> None:
        self.submit = submit

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        peer = session.peer if isinstance(session.peer, tuple) else "local"
        origin = f"lmtp:{peer[0]}:{peer[1]}" if isinstance(peer, tuple) else "lmtp:socket"
        content = envelope.original_content or envelope.content
        if isinstance(content, str):
            content = content.encode("utf-8", "surrogateescape")
        try:
            taken = await asyncio.wrap_future(self.submit(bytes(content), origin))
        except Exception as err:  # noqa: BLE001 - a temporary failure: the mail server delivers again
            reply = f"451 4.3.0 not taken in now, deliver again later ({type(err).__name__})"
        else:
            reply = f"250 2.0.0 {taken.outcome}"
        return "\r\n".join(reply for _ in envelope.rcpt_tos or [None])


class LenientLmtp(LMTP):
    """LMTP that takes lines longer than SMTP's 1,000 characters (mail programs do write
    them, and a mail server passes them on): a player's orders are never refused for it."""

    line_length_limit = 64 * 1024


class _LmtpOnInet(Controller):
    def factory(self) -> LMTP:
        return LenientLmtp(self.handler, **self.SMTP_kwargs)


class _LmtpOnSocket(UnixSocketController):
    def factory(self) -> LMTP:
        return LenientLmtp(self.handler, **self.SMTP_kwargs)


class LmtpServer:
    """The endpoint on its own thread (aiosmtpd's controller)."""

    def __init__(self, endpoint: LmtpEndpoint, submit: Callable[[bytes, str], Any]) -> None:
        self.endpoint = endpoint
        handler = DeliveryHandler(submit)
        # the name in the greeting, found once: by default each connection looks it up again
        options = {"data_size_limit": MAX_MESSAGE_BYTES, "ident": "adjudicator LMTP",
                   "server_hostname": socket.getfqdn()}
        if endpoint.socket is not None:
            self.controller: Controller | UnixSocketController = _LmtpOnSocket(
                handler, unix_socket=endpoint.socket, **options)
        else:
            self.controller = _LmtpOnInet(handler, hostname=endpoint.host, port=endpoint.port or 24, **options)

    def start(self) -> None:
        if self.endpoint.socket is not None and self.endpoint.socket.is_socket():
            _remove_stale_socket(self.endpoint.socket)
        self.controller.start()
        if self.endpoint.socket is not None:
            os.chmod(self.endpoint.socket, 0o660)
        if not self.endpoint.is_loopback:
            log.warning("LMTP listens on %s, beyond this machine: anyone who reaches it can deliver mail "
                        "(orders still need the player's password or signature)", self.endpoint.describe())

    def stop(self) -> None:
        self.controller.stop()
        if self.endpoint.socket is not None:
            try:
                os.unlink(self.endpoint.socket)
            except FileNotFoundError:
                pass


def _remove_stale_socket(path: Any) -> None:
    """Remove a socket left by a killed run; refuse to take over one a live service answers on."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
        try:
            probe.connect(str(path))
        except OSError:
            os.unlink(path)
            return
    raise OSError(f"another service already listens on the LMTP socket {path}: stop it first")
