"""A Redis cache that the shop can live without.

Sessions (cached_db), rate limits and cached reads go through the cache. When Redis cannot be
reached, TolerantRedisCache answers from OutageCache instead: the rate limits (allauth's and
DRF's throttles) keep counting in this process's memory, and everything else is an empty cache
that forgets what it is given (reads miss, writes are dropped) while the database, the source
of truth, carries on alone. After a connection failure it leaves Redis alone for RETRY_AFTER
seconds, so a dead Redis costs one short timeout now and then instead of one per cache call;
then it tries Redis again, and counts there once Redis answers.

What that costs while Redis is down: every read goes to the database, and each process counts
the limits on its own (with N processes, a client spread over all of them gets up to N times a
limit's rate).
"""

import functools
import logging
import time

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

logger = logging.getLogger(__name__)

UNREACHABLE = (RedisConnectionError, RedisTimeoutError)
# Loopback or a LAN: a healthy Redis answers in a millisecond or two.
DEFAULT_OPTIONS = {"socket_connect_timeout": 0.5, "socket_timeout": 0.5}
DEFAULT_RETRY_AFTER = 5.0

# Monotonic time before which a server is not tried again, per LOCATION (shared by the
# per-thread cache objects of one process).
_down_until: dict[str, float] = {}


# The keys of the rate limits: allauth's counters and their locks (allauth.core.ratelimit) and
# DRF's throttles (SimpleRateThrottle.cache_format, which core/throttles.py keeps).
RATE_LIMIT_PREFIXES = ("allauth:rl:", "throttle_")
# Room for the counters of many clients: an outage must not let them push each other out.
OUTAGE_MAX_ENTRIES = 10_000


class OutageCache:
    """What the cache answers while Redis is unreachable (same methods, same arguments).

    Rate-limit keys (RATE_LIMIT_PREFIXES) live in a LocMemCache shared by the process's threads,
    so a limit keeps holding (per process, never switched off); allauth's lock is one of them,
    so it locks for real. Every other key is an empty cache that forgets what it is given: a
    page, fragment or version kept in one process's memory would go stale unseen (a write in
    another process bumps only that process's copy), so nothing else is kept.
    """

    def __init__(self, location: str):
        options = {"MAX_ENTRIES": OUTAGE_MAX_ENTRIES}
        self.memory = LocMemCache(f"while-down:{location}", {"OPTIONS": options})

    @staticmethod
    def counted(key) -> bool:
        return isinstance(key, str) and key.startswith(RATE_LIMIT_PREFIXES)

    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        # Any other key: an empty cache stores it (True).
        return self.memory.add(key, value, timeout, version) if self.counted(key) else True

    def get(self, key, default=None, version=None):
        return self.memory.get(key, default, version) if self.counted(key) else default

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        if self.counted(key):
            self.memory.set(key, value, timeout, version)

    def touch(self, key, timeout=DEFAULT_TIMEOUT, version=None):
        return self.counted(key) and self.memory.touch(key, timeout, version)

    def delete(self, key, version=None):
        return self.counted(key) and self.memory.delete(key, version)

    def has_key(self, key, version=None):
        return self.counted(key) and self.memory.has_key(key, version)

    def incr(self, key, delta=1, version=None):
        if not self.counted(key):
            raise ValueError(f"Key '{key}' not found (the cache is unavailable).")
        return self.memory.incr(key, delta, version)

    def get_many(self, keys, version=None):
        return self.memory.get_many([key for key in keys if self.counted(key)], version)

    def set_many(self, data, timeout=DEFAULT_TIMEOUT, version=None):
        kept = {key: value for key, value in data.items() if self.counted(key)}
        self.memory.set_many(kept, timeout, version)
        return [key for key in data if key not in kept]  # not stored

    def delete_many(self, keys, version=None):
        self.memory.delete_many([key for key in keys if self.counted(key)], version)

    def clear(self):
        self.memory.clear()
        return False  # Redis itself was not cleared


def _tolerant(method):
    """`method` of the cache, or OutageCache's when Redis is (or was just) unreachable."""
    name = method.__name__

    @functools.wraps(method)
    def wrapper(self, *args, **kwargs):
        if time.monotonic() < _down_until.get(self.location, 0.0):
            return getattr(self.outage, name)(*args, **kwargs)
        try:
            return method(self, *args, **kwargs)
        except UNREACHABLE as exc:
            self.mark_down(name, exc)
            return getattr(self.outage, name)(*args, **kwargs)

    return wrapper


class KeptClientsRedisCacheClient(RedisCacheClient):
    """Django's Redis client, but its `redis.Redis` objects are made once per connection pool
    and kept: Django makes one on every cache call, and each sets up some 170 response
    callbacks (a tenth of a cached page's time). A `redis.Redis` is safe to share between
    threads: every command takes a connection from the pool and gives it back."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._clients = {}

    def get_client(self, key=None, *, write=False):
        pool = self._get_connection_pool(write)
        client = self._clients.get(pool)
        if client is None:
            client = self._clients.setdefault(pool, self._client(connection_pool=pool))
        return client


class TolerantRedisCache(RedisCache):
    """Django's Redis cache; with Redis unreachable, OutageCache (see the module's doc).

    CACHES options: OPTIONS as for RedisCache (short socket timeouts by default) and
    RETRY_AFTER, the seconds to wait before trying a failed Redis again.
    """

    def __init__(self, server, params):
        options = {**DEFAULT_OPTIONS, **params.get("OPTIONS", {})}
        super().__init__(server, {**params, "OPTIONS": options})
        self._class = KeptClientsRedisCacheClient
        self.location = server if isinstance(server, str) else ",".join(server)
        self.retry_after = float(params.get("RETRY_AFTER", DEFAULT_RETRY_AFTER))
        self.outage = OutageCache(self.location)

    def mark_down(self, operation: str, exc: Exception) -> None:
        _down_until[self.location] = time.monotonic() + self.retry_after
        logger.warning(
            "Cache unavailable (%s: %s); serving without it for %ss.",
            operation,
            exc,
            self.retry_after,
        )

    add = _tolerant(RedisCache.add)
    get = _tolerant(RedisCache.get)
    set = _tolerant(RedisCache.set)
    touch = _tolerant(RedisCache.touch)
    delete = _tolerant(RedisCache.delete)
    has_key = _tolerant(RedisCache.has_key)
    incr = _tolerant(RedisCache.incr)
    get_many = _tolerant(RedisCache.get_many)
    set_many = _tolerant(RedisCache.set_many)
    delete_many = _tolerant(RedisCache.delete_many)
    clear = _tolerant(RedisCache.clear)
