"""Small values kept in this process until Redis says they changed: Redis's client-side caching
(CLIENT TRACKING) in its broadcasting mode, on the one connection that is told.

A kept page costs one round trip to Redis, to read the versions of what it shows
(core.caching.versions), and that round trip is about half of its time. The versions change
far less often than they are read, so each process keeps the ones it has read, and Redis tells
it of every change to a key under the tracked prefix, made by any server: on a connection of
its own that redirects its invalidation messages to itself and subscribes to them (RESP2).
Each read first takes the messages already arrived (a poll of that socket, no round trip);
this process's own writes forget their keys at once (the cache backend calls `forget`).

Nothing is kept while that connection is down (it is tried again after `retry_after`
seconds), and a flush of Redis forgets everything. A value read from Redis is kept only if no
message arrived while it was being read (`generation`), so a change that lands mid-read is
never kept as current.
"""

import os
import threading
import time

import redis

INVALIDATE = "__redis__:invalidate"
MAX_KEPT = 50_000  # keys kept per process (then all forgotten and read again)


class Tracker:
    """Values of the cache's keys under `prefix` in the Redis at `url`, kept in this process;
    Redis names those keys `made_prefix` + the rest (the cache's make_key)."""

    def __init__(
        self, url: str, prefix: str, made_prefix: str, *, timeout: float, retry_after: float
    ):
        self.url = url
        self.prefix = prefix
        self.made_prefix = made_prefix
        self.timeout = timeout
        self.retry_after = retry_after
        self.lock = threading.Lock()
        self.kept: dict[str, object] = {}
        self.generation = 0
        self.connection = None
        self.pid = None
        self.retry_at = 0.0

    def lookup(self, keys) -> tuple[dict, int | None]:
        """What is kept of `keys`, and the token to `remember` what is read for the rest
        (None: nothing may be kept now)."""
        with self.lock:
            if not self._listening():
                return {}, None
            return {key: self.kept[key] for key in keys if key in self.kept}, self.generation

    def remember(self, found: dict, token: int | None) -> None:
        """Keep `found`, read from Redis after `lookup` gave `token`, unless a change arrived
        meanwhile."""
        with self.lock:
            if token is None or token != self.generation or self.connection is None:
                return
            if len(self.kept) + len(found) > MAX_KEPT:
                self.kept.clear()
            self.kept.update(found)

    def forget(self, keys=None) -> None:
        """Forget `keys` (all of them: None); what is being read meanwhile is not kept."""
        with self.lock:
            self._forget(keys)

    def stop(self) -> None:
        """Forget everything and hang up (Redis was found unreachable): try again later."""
        with self.lock:
            self._hang_up()

    def _forget(self, keys) -> None:
        self.generation += 1
        if keys is None:
            self.kept.clear()
        else:
            for key in keys:
                self.kept.pop(key, None)

    def _listening(self) -> bool:
        """Whether the connection is up with every message taken in: connect when due."""
        if self.pid != os.getpid():  # forked: the parent's socket is not this process's
            self.connection, self.pid = None, os.getpid()
            self._forget(None)
        if self.connection is None:
            if time.monotonic() < self.retry_at:
                return False
            self._connect()
        try:
            while self.connection is not None and self.connection.can_read(timeout=0):
                self._take(self.connection.read_response())
        except (redis.RedisError, OSError):
            self._hang_up()
        return self.connection is not None

    def _take(self, message) -> None:
        if not (isinstance(message, list) and message[:2] == [b"message", INVALIDATE.encode()]):
            return
        keys = message[2]
        if keys is None:  # a flush
            self._forget(None)
        else:
            made = len(self.made_prefix)
            self._forget([self.prefix + key.decode()[made:] for key in keys])

    def _connect(self) -> None:
        pool = redis.ConnectionPool.from_url(
            self.url,
            protocol=2,
            socket_connect_timeout=self.timeout,
            socket_timeout=self.timeout,
        )
        connection = pool.make_connection()
        try:
            connection.connect()
            connection.send_command("CLIENT", "ID")
            own_id = connection.read_response()
            connection.send_command(
                "CLIENT", "TRACKING", "ON", "REDIRECT", own_id, "BCAST", "PREFIX", self.made_prefix
            )
            connection.read_response()
            connection.send_command("SUBSCRIBE", INVALIDATE)
            connection.read_response()
        except (redis.RedisError, OSError):
            connection.disconnect()
            self.retry_at = time.monotonic() + self.retry_after
            return
        self.connection = connection
        self._forget(None)

    def _hang_up(self) -> None:
        if self.connection is not None:
            self.connection.disconnect()
        self.connection = None
        self.retry_at = time.monotonic() + self.retry_after
        self._forget(None)
