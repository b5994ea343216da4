"""A TCP proxy of the tests' own, to cut the shop off from PostgreSQL or Redis and restore it
(tests/test_faults.py, tests/test_faults_redis.py, tests/test_faults_cache.py)."""

import asyncio
import threading
from dataclasses import dataclass, field

import pytest
import redis

from scripts.servers import free_port

postgres_only = pytest.mark.postgres(reason="a database that can go away needs a server")
REDIS = ("127.0.0.1", 6379)
ATTEMPTS = 15  # wrong passwords from one address: past every sign-in limit


def redis_answers() -> bool:
    try:
        return redis.Redis(*REDIS, socket_connect_timeout=0.5).ping()
    except redis.RedisError:
        return False


needs_redis = pytest.mark.skipif(not redis_answers(), reason="no Redis on 127.0.0.1:6379")


SAID_KEPT = 65_536  # bytes of what a client said kept per connection, to pick connections by


@dataclass(eq=False)
class Link:
    """One client's connection through the proxy."""

    said: bytearray = field(default_factory=bytearray)  # what the client sent first
    silent: bool = False  # nothing more is forwarded either way; nothing is closed


class TcpProxy:
    """127.0.0.1:<port> forwarded to `upstream`, on an event loop in a thread of its own.

    stop() closes the listener and every open connection; start() listens again on the same
    port. cut_when(data) cuts every connection the moment a client sends bytes containing
    `data` (they are not forwarded): the server sees its client vanish mid-conversation.
    silence(data) stops forwarding on the connections whose client has sent `data` (every
    one, and every new one until speak(), when `data` is None) without closing anything: what
    a NAT or a load balancer that forgot a connection does (no FIN, no RST; packets vanish).
    `delivered` counts the bytes forwarded from the upstream to the clients.
    """

    def __init__(self, host: str, port: int):
        self.upstream = (host, port)
        self.port = free_port()
        self.trigger: bytes | None = None
        self.accepted = 0
        self.delivered = 0
        self.silent_all = False
        self._server = None
        self._transports: set[asyncio.Transport] = set()
        self._links: set[Link] = set()
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._thread.start()

    def _run(self, coroutine):
        return asyncio.run_coroutine_threadsafe(coroutine, self._loop).result(timeout=10)

    def start(self) -> "TcpProxy":
        async def listen():
            self._server = await asyncio.start_server(
                self._forward, "127.0.0.1", self.port, reuse_address=True
            )

        self._run(listen())
        return self

    def stop(self) -> None:
        async def close():
            self._server.close()
            self._cut()
            await self._server.wait_closed()

        self._run(close())

    def cut_when(self, data: bytes) -> None:
        self.trigger = data

    def silence(self, data: bytes | None = None) -> int:
        """Forward nothing more on the connections whose client has said `data` (None: every
        connection, new ones too), and close none of them; how many were silenced."""

        async def mark():
            chosen = [link for link in self._links if data is None or data in link.said]
            for link in chosen:
                link.silent = True
            self.silent_all = self.silent_all or data is None
            return len(chosen)

        return self._run(mark())

    def speak(self) -> None:
        """New connections are forwarded again (those silenced stay silent, as after a NAT
        forgot them)."""

        async def unmark():
            self.silent_all = False

        self._run(unmark())

    def close(self) -> None:
        self.stop()

        async def settle():  # the cut connections' tasks finish before the loop stops
            others = asyncio.all_tasks() - {asyncio.current_task()}
            await asyncio.gather(*others, return_exceptions=True)

        self._run(settle())
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=10)

    def _cut(self) -> None:
        for transport in list(self._transports):
            transport.abort()
        self._transports.clear()

    async def _forward(self, client_reader, client_writer):
        self.accepted += 1
        try:
            server_reader, server_writer = await asyncio.open_connection(*self.upstream)
        except OSError:
            client_writer.transport.abort()
            return
        self._transports |= {client_writer.transport, server_writer.transport}
        link = Link(silent=self.silent_all)
        self._links.add(link)
        try:
            await asyncio.gather(
                self._pipe(client_reader, server_writer, link, from_client=True),
                self._pipe(server_reader, client_writer, link),
            )
        finally:
            self._links.discard(link)

    async def _pipe(self, reader, writer, link: Link, from_client=False):
        try:
            while data := await reader.read(65536):
                if from_client and self.trigger and self.trigger in data:
                    self.trigger = None
                    self._cut()
                    return
                if from_client and len(link.said) < SAID_KEPT:
                    link.said += data[: SAID_KEPT - len(link.said)]
                if link.silent:
                    continue  # swallowed: the other side waits for ever
                writer.write(data)
                await writer.drain()
                if not from_client:
                    self.delivered += len(data)
        except OSError:
            pass
        finally:
            writer.transport.abort()
            self._transports.discard(writer.transport)
