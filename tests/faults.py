"""A TCP proxy of the tests' own, to cut the shop off from PostgreSQL or Redis and restore it
(tests/test_faults.py, tests/test_faults_redis.py)."""

import asyncio
import threading

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


class TcpProxy:
    """127.0.0.1:<port> forwarded to `upstream`, on an event loop in a thread of its own.

    stop() closes the listener and every open connection; start() listens again on the same
    port. cut_when(data) cuts every connection the moment a client sends bytes containing
    `data` (they are not forwarded): the server sees its client vanish mid-conversation.
    """

    def __init__(self, host: str, port: int):
        self.upstream = (host, port)
        self.port = free_port()
        self.trigger: bytes | None = None
        self.accepted = 0
        self._server = None
        self._transports: set[asyncio.Transport] = set()
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
        await asyncio.gather(
            self._pipe(client_reader, server_writer, watch=True),
            self._pipe(server_reader, client_writer),
        )

    async def _pipe(self, reader, writer, watch=False):
        try:
            while data := await reader.read(65536):
                if watch and self.trigger and self.trigger in data:
                    self.trigger = None
                    self._cut()
                    return
                writer.write(data)
                await writer.drain()
        except OSError:
            pass
        finally:
            writer.transport.abort()
            self._transports.discard(writer.transport)
