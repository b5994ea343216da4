"""The shared cache: django-redis, with what the shop needs while Redis is out of reach.

Sessions (cached_db), rate limits, versions and kept pages go through it. django-redis with
`IGNORE_EXCEPTIONS` (as cookiecutter-django configures it) already makes a Redis that cannot be
reached an empty cache: reads miss, writes are dropped, and the database, the source of truth,
carries on alone. This backend adds three things:

- the rate limits keep counting, in this process's memory: allauth's counters and their lock
  (`add` must lock for real, or allauth refuses every sign-in) and DRF's throttles
  (RATE_LIMIT_PREFIXES). With N processes a client spread over all of them gets up to N
  times a limit's rate; every other key stays an empty cache (a version or a page kept in one
  process would go stale unseen: a write in another process bumps only its own copy);
- a pause: after a connection failure Redis is left alone for RETRY_AFTER seconds (OPTIONS),
  so a dead Redis costs one short timeout now and then, not one per cache call;
- `set_many` answers the keys it could not write, as Django's caches do (django-redis answers
  nothing): core.caching.versions writes a bump again that Redis did not take.
"""

import logging
import time

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.dummy import DummyCache
from django.core.cache.backends.locmem import LocMemCache
from django_redis.cache import RedisCache as DjangoRedisCache
from django_redis.exceptions import ConnectionInterrupted
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

logger = logging.getLogger(__name__)

UNREACHABLE = (RedisConnectionError, RedisTimeoutError)
DEFAULT_RETRY_AFTER = 5.0
# allauth's counters and locks (allauth.core.internal.ratelimit), DRF's throttles
# (SimpleRateThrottle.cache_format).
RATE_LIMIT_PREFIXES = ("allauth:rl:", "throttle_")
# Room for the counters of many clients: an outage must not let them push each other out.
OUTAGE_MAX_ENTRIES = 10_000

# Monotonic time before which a server is not tried again, per LOCATION: shared by the
# per-thread cache objects of one process.
_down_until: dict[str, float] = {}


def counted(key) -> bool:
    return isinstance(key, str) and key.startswith(RATE_LIMIT_PREFIXES)


class WhileDown:
    """What the cache answers while Redis is unreachable, in the client's calls: rate-limit
    keys in a LocMemCache shared by the process's threads, every other key an empty cache
    (Django's DummyCache: a miss, a dropped write, `add` answering True)."""

    def __init__(self, location: str):
        options = {"OPTIONS": {"MAX_ENTRIES": OUTAGE_MAX_ENTRIES}}
        self.counters = LocMemCache(f"while-down:{location}", options)
        self.nothing = DummyCache(location, {})

    def __getattr__(self, name):
        def call(key, *args, client=None, **kwargs):
            return getattr(self.counters if counted(key) else self.nothing, name)(
                key, *args, **kwargs
            )

        return call

    def get_many(self, keys, version=None, client=None):
        return self.counters.get_many([key for key in keys if counted(key)], version)

    def set_many(self, data, timeout=None, version=None, client=None):
        """The keys not written: all but the rate limits'."""
        self.counters.set_many(
            {key: value for key, value in data.items() if counted(key)}, timeout, version
        )
        return [key for key in data if not counted(key)]

    def delete_many(self, keys, version=None, client=None):
        return self.counters.delete_many([key for key in keys if counted(key)], version)

    def clear(self, client=None):
        self.counters.clear()
        return False  # Redis itself was not cleared

    def close(self, **kwargs):
        pass  # nothing to close: Django closes the caches after every request


class Guarded:
    """The django-redis client's calls, answered by WhileDown when Redis cannot be reached
    (and for RETRY_AFTER seconds after)."""

    def __init__(self, client, backend: "RedisCache"):
        self.client = client
        self.backend = backend

    def __getattr__(self, name):
        method = getattr(self.client, name)

        def call(*args, **kwargs):
            try:
                result = method(*args, **kwargs)
            except ConnectionInterrupted as exc:
                if not isinstance(exc.__cause__, UNREACHABLE):
                    raise  # Redis answered (e.g. a wrong type): django-redis decides
                self.backend.mark_down(name, exc.__cause__)
                return getattr(self.backend.while_down, name)(*args, **kwargs)
            if self.backend.location in _down_until:
                self.backend.mark_up()
            return result

        setattr(self, name, call)  # made once per name: found directly next time
        return call


class RedisCache(DjangoRedisCache):
    """django-redis's cache; Redis unreachable: WhileDown, then a pause (the module's doc)."""

    def __init__(self, server, params):
        super().__init__(server, params)
        self.location = server if isinstance(server, str) else ",".join(server)
        options = params.get("OPTIONS", {})
        self.retry_after = float(options.get("RETRY_AFTER", DEFAULT_RETRY_AFTER))
        self.while_down = WhileDown(self.location)
        self.guarded = None

    def _paused(self) -> bool:
        return time.monotonic() < _down_until.get(self.location, 0.0)

    @property
    def client(self):
        if self._paused():
            return self.while_down
        if self.guarded is None:
            self.guarded = Guarded(super().client, self)
        return self.guarded

    def mark_down(self, operation: str, exc: Exception) -> None:
        _down_until[self.location] = time.monotonic() + self.retry_after
        logger.warning(
            "Cache unavailable (%s: %s); serving without it for %ss.",
            operation,
            exc,
            self.retry_after,
        )

    def mark_up(self) -> None:
        if _down_until.pop(self.location, None) is not None:
            logger.warning("Cache reachable again.")

    def set_many(self, data, timeout=DEFAULT_TIMEOUT, version=None, client=None):
        """django-redis's set_many, answering the keys not written (Django's contract): none,
        or all of them when Redis could not take them (WhileDown, or an error it answered)."""
        try:
            return self.client.set_many(data, timeout, version=version, client=client) or []
        except ConnectionInterrupted as exc:  # Redis answered an error (say, out of memory)
            logger.warning("Cache refused a write (set_many: %s).", exc.__cause__ or exc)
            return list(data)

    def clear(self, *args, **kwargs):
        """Empty Redis (the shop's database of it), and believe no version read before."""
        from . import versions  # imports this module

        result = super().clear(*args, **kwargs)
        versions.forget()
        return result
