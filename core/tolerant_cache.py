"""A Redis cache that the shop can live without.

Sessions (cached_db), rate limits and cached reads go through the cache. When Redis cannot be
reached, TolerantRedisCache behaves like an empty cache that forgets what it is given: reads
miss, writes are dropped, and the database (the source of truth) carries on alone. `add`
answers True (stored) then: allauth takes a lock with it before counting a rate limit, and a
lock that nobody can take would refuse every sign-in with a 429. After a connection failure
it leaves Redis alone for RETRY_AFTER seconds, so a dead Redis costs one short timeout now
and then instead of one per cache call.

What that costs while Redis is down: every read goes to the database, and the rate limits
that count in the cache (allauth's, DRF's throttles) let requests through.
"""

import functools
import logging
import time

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


def _tolerant(method, fallback):
    """`method` of the cache, or `fallback(*args)` when Redis is (or was just) unreachable."""

    @functools.wraps(method)
    def wrapper(self, *args, **kwargs):
        if time.monotonic() < _down_until.get(self.location, 0.0):
            return fallback(*args, **kwargs)
        try:
            return method(self, *args, **kwargs)
        except UNREACHABLE as exc:
            self.mark_down(method.__name__, exc)
            return fallback(*args, **kwargs)

    return wrapper


def _missing_key(*args, **kwargs):
    raise ValueError("Key not found (the cache is unavailable).")


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
    """Django's Redis cache; with Redis unreachable, an empty cache (see the module's doc).

    CACHES options: OPTIONS as for RedisCache (short socket timeouts by default) and
    RETRY_AFTER, the seconds to wait before trying a failed Redis again.
    """

    def __init__(self, server, params):
        options = {**DEFAULT_OPTIONS, **params.get("OPTIONS", {})}
        super().__init__(server, {**params, "OPTIONS": options})
        self._class = KeptClientsRedisCacheClient
        self.location = server if isinstance(server, str) else ",".join(server)
        self.retry_after = float(params.get("RETRY_AFTER", DEFAULT_RETRY_AFTER))

    def mark_down(self, operation: str, exc: Exception) -> None:
        _down_until[self.location] = time.monotonic() + self.retry_after
        logger.warning(
            "Cache unavailable (%s: %s); serving without it for %ss.",
            operation,
            exc,
            self.retry_after,
        )

    get = _tolerant(RedisCache.get, lambda key, default=None, version=None: default)
    get_many = _tolerant(RedisCache.get_many, lambda *args, **kwargs: {})
    has_key = _tolerant(RedisCache.has_key, lambda *args, **kwargs: False)
    add = _tolerant(RedisCache.add, lambda *args, **kwargs: True)
    set = _tolerant(RedisCache.set, lambda *args, **kwargs: None)
    set_many = _tolerant(RedisCache.set_many, lambda data, *args, **kwargs: list(data))
    touch = _tolerant(RedisCache.touch, lambda *args, **kwargs: False)
    incr = _tolerant(RedisCache.incr, _missing_key)
    delete = _tolerant(RedisCache.delete, lambda *args, **kwargs: False)
    delete_many = _tolerant(RedisCache.delete_many, lambda *args, **kwargs: None)
    clear = _tolerant(RedisCache.clear, lambda *args, **kwargs: False)
