"""The shared cache: django-redis, with what the shop needs while Redis is out of reach.

Sessions (cached_db), rate limits, versions and kept pages go through it. django-redis with
`IGNORE_EXCEPTIONS` (as cookiecutter-django configures it) already makes a Redis that cannot be
reached an empty cache: reads miss, writes are dropped, and the database, the source of truth,
carries on alone. This backend keeps the keys under OPTIONS' TRACK_PREFIX (the versions) in
the process, told of their changes by Redis (core.caching.tracking), and adds two things while
Redis is down:

- the rate limits keep counting, in this process's memory: allauth's counters and their lock
  (`add` must lock for real, or allauth refuses every sign-in) and DRF's throttles
  (RATE_LIMIT_PREFIXES). With N processes a client spread over all of them gets up to N
  times a limit's rate; every other key stays an empty cache (a version or a page kept in one
  process would go stale unseen: a write in another process bumps only its own copy);
- a pause: after a connection failure Redis is left alone for RETRY_AFTER seconds (OPTIONS),
  so a dead Redis costs one short timeout now and then, not one per cache call.
"""

import logging
import time
from threading import Lock

from django.core.cache.backends.dummy import DummyCache
from django.core.cache.backends.locmem import LocMemCache
from django_redis.cache import RedisCache as DjangoRedisCache
from django_redis.exceptions import ConnectionInterrupted
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from .tracking import Tracker

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
# One tracker per process, LOCATION and prefix: shared by the per-thread cache objects.
_trackers: dict[tuple[str, str], Tracker] = {}
_trackers_lock = Lock()


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
        return self.counters.set_many(
            {key: value for key, value in data.items() if counted(key)}, timeout, version
        )

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
                return method(*args, **kwargs)
            except ConnectionInterrupted as exc:
                if not isinstance(exc.__cause__, UNREACHABLE):
                    raise  # Redis answered (e.g. a wrong type): django-redis decides
                self.backend.mark_down(name, exc.__cause__)
                return getattr(self.backend.while_down, name)(*args, **kwargs)

        setattr(self, name, call)  # made once per name: found directly next time
        return call


def _forgets_its_key(name: str):
    """django-redis's write of one key `name`, after which this process forgets the key's
    tracked value (RedisCache below)."""

    def write(self, key, *args, **kwargs):
        result = getattr(DjangoRedisCache, name)(self, key, *args, **kwargs)
        self._written([key])
        return result

    write.__name__ = name
    return write


class RedisCache(DjangoRedisCache):
    """django-redis's cache; Redis unreachable: WhileDown, then a pause (the module's doc)."""

    def __init__(self, server, params):
        super().__init__(server, params)
        self.location = server if isinstance(server, str) else ",".join(server)
        options = params.get("OPTIONS", {})
        self.retry_after = float(options.get("RETRY_AFTER", DEFAULT_RETRY_AFTER))
        self.while_down = WhileDown(self.location)
        self.guarded = None
        self.track_prefix = options.get("TRACK_PREFIX", "")
        self.tracker = self._make_tracker(server, options) if self.track_prefix else None

    def _make_tracker(self, server, options) -> Tracker:
        url = server if isinstance(server, str) else server[0]  # the primary: it is written
        with _trackers_lock:
            return _trackers.setdefault(
                (self.location, self.track_prefix),
                Tracker(
                    url,
                    self.track_prefix,
                    self.make_key(self.track_prefix),
                    timeout=float(options.get("SOCKET_TIMEOUT") or 1.0),
                    retry_after=self.retry_after,
                ),
            )

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
        if self.tracker is not None:
            self.tracker.stop()
        logger.warning(
            "Cache unavailable (%s: %s); serving without it for %ss.",
            operation,
            exc,
            self.retry_after,
        )

    # --- Tracked keys: kept in the process, forgotten by every write of this process --------

    def _tracked(self, keys) -> list[str]:
        prefix = self.track_prefix
        return [k for k in keys if isinstance(k, str) and k.startswith(prefix)]

    def get_many(self, keys, version=None, client=None):
        tracker = self.tracker if version is None and client is None else None
        if tracker is None or self._paused():
            return super().get_many(keys, version=version, client=client)
        keys = list(keys)
        known, token = tracker.lookup(self._tracked(keys))
        rest = [key for key in keys if key not in known]
        found = super().get_many(rest) if rest else {}
        tracker.remember({key: found[key] for key in self._tracked(found)}, token)
        return {**known, **found}

    def _written(self, keys) -> None:
        if self.tracker is not None and (tracked := self._tracked(keys)):
            self.tracker.forget(tracked)

    set = _forgets_its_key("set")
    add = _forgets_its_key("add")
    incr = _forgets_its_key("incr")
    decr = _forgets_its_key("decr")
    delete = _forgets_its_key("delete")

    def set_many(self, data, *args, **kwargs):
        result = super().set_many(data, *args, **kwargs)
        self._written(list(data))
        return result

    def delete_many(self, keys, *args, **kwargs):
        keys = list(keys)
        result = super().delete_many(keys, *args, **kwargs)
        self._written(keys)
        return result

    def clear(self, *args, **kwargs):
        result = super().clear(*args, **kwargs)
        if self.tracker is not None:
            self.tracker.forget()
        return result
