"""Mail servers on loopback for the tests: a real SMTP server (aiosmtpd) that keeps what it
receives (and can hold a sender in the middle of a mail), and one that accepts connections and
never answers (a hanging mail server)."""

import asyncio
import socket
import threading
import time
from email import message_from_bytes, policy
from email.message import EmailMessage

from aiosmtpd.controller import Controller

from tests.stripe_fake import free_port


class Received(list):
    """The messages the server got, as parsed e-mails with their envelope recipients."""

    def wait_for(self, count: int, timeout: float = 30) -> "Received":
        deadline = time.monotonic() + timeout
        while len(self) < count and time.monotonic() < deadline:
            time.sleep(0.05)
        return self

    def to(self, address: str) -> list[EmailMessage]:
        return [message for message in self if address in message.envelope_to]


class Hold:
    """Once `after` messages have arrived, the next sender is held at its recipient (the mail
    not yet taken) until release(); `holding` is set while one is held."""

    def __init__(self, after: int):
        self.after = after
        self.holding = threading.Event()
        self.released = threading.Event()

    def release(self) -> None:
        self.released.set()


class _Keep:
    def __init__(self, received: Received, refuse_once: set[str]):
        self.received = received
        self.refuse_once = refuse_once
        self.hold: Hold | None = None

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        hold = self.hold
        if hold and not hold.released.is_set() and len(self.received) >= hold.after:
            hold.holding.set()
            while not hold.released.is_set():
                await asyncio.sleep(0.02)
            return "451 Try again later"
        if address in self.refuse_once:  # a transient failure: the next try goes through
            self.refuse_once.discard(address)
            return "451 Try again later"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        message = message_from_bytes(envelope.original_content, policy=policy.default)
        message.envelope_to = list(envelope.rcpt_tos)
        self.received.append(message)
        return "250 Message accepted for delivery"


class SMTPServer:
    """aiosmtpd on a free loopback port: start(), `messages`, stop()."""

    def __init__(self):
        self.messages = Received()
        self.refuse_once: set[str] = set()  # recipients refused (451) the next time only
        self.handler = _Keep(self.messages, self.refuse_once)
        self.controller = Controller(
            self.handler,
            hostname="127.0.0.1",
            port=free_port(),
            ready_timeout=10,
        )

    @property
    def port(self) -> int:
        return self.controller.port

    def hold_after(self, count: int) -> Hold:
        """Hold the sender of the message after the first `count` (see Hold)."""
        self.handler.hold = Hold(count)
        return self.handler.hold

    def start(self) -> "SMTPServer":
        self.controller.start()
        return self

    def stop(self) -> None:
        self.controller.stop()


class SilentServer:
    """Accepts TCP connections on loopback and never says a word, until stop()."""

    def __init__(self):
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.listener.settimeout(0.05)
        self.connections: list[socket.socket] = []
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._accept, daemon=True)

    def start(self) -> "SilentServer":
        self.thread.start()
        return self

    def _accept(self) -> None:
        while not self.stopped.is_set():
            try:
                connection, _ = self.listener.accept()
            except TimeoutError:
                continue
            self.connections.append(connection)

    def stop(self) -> None:
        self.stopped.set()
        self.thread.join(timeout=5)
        self.listener.close()
        for connection in self.connections:
            connection.close()
