"""Cached reads that every app server drops at once when their data changes.

Each name ("catalog", "reviews") has a version in the shared cache; cached values live under
keys carrying that version, so `invalidate(name)` makes all of them stale in one step, on
every instance that shares the cache (Redis in production). Values are also kept in a small
in-process memory under the same versioned keys: a request then costs one round trip to the
shared cache (for the versions), and a stale copy can never be served because its key names
an old version.
"""

import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import TypeVar

from django.core.cache import cache
from django.db import transaction

T = TypeVar("T")

TIMEOUT = 300  # seconds: the upper bound on staleness should an invalidation ever be missed
LOCAL_ENTRIES = 256


class LocalMemory:
    """A small least-recently-used memory of this process, with the shared cache's timeout."""

    def __init__(self, size: int):
        self.size = size
        self.entries: OrderedDict[str, tuple[float, object]] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: str):
        with self.lock:
            entry = self.entries.get(key)
            if entry is None or entry[0] < time.monotonic():
                return None
            self.entries.move_to_end(key)
            return entry[1]

    def set(self, key: str, value, timeout: int) -> None:
        with self.lock:
            self.entries[key] = (time.monotonic() + timeout, value)
            self.entries.move_to_end(key)
            while len(self.entries) > self.size:
                self.entries.popitem(last=False)

    def clear(self) -> None:
        with self.lock:
            self.entries.clear()


local = LocalMemory(LOCAL_ENTRIES)


def _version_key(name: str) -> str:
    return f"version:{name}"


def versions(*names: str) -> str | None:
    """The current versions of `names`, in one round trip to the shared cache; None when
    the shared cache can't tell (it is down): then nothing may be served from memory."""
    return versions_and(names, [])[0]


def versions_and(names: tuple[str, ...], keys: list[str]) -> tuple[str | None, dict]:
    """versions(*names), and the values of `keys` that the shared cache holds, in the same
    round trip."""
    found = cache.get_many([_version_key(name) for name in names] + keys)
    numbers = [found.get(_version_key(name)) or _start(name) for name in names]
    current = ".".join(map(str, numbers)) if all(numbers) else None
    return current, {key: found[key] for key in keys if key in found}


def _start(name: str) -> int | None:
    """A first version for `name`: the clock, so that a flushed cache never brings back a
    version number that old copies were kept under."""
    cache.add(_version_key(name), time.time_ns(), timeout=None)
    return cache.get(_version_key(name))


def recall(key: str):
    """The value kept under the (already versioned) `key`, from this process or else the
    shared cache; None when there is none."""
    value = local.get(key)
    if value is None:
        value = cache.get(key)
        if value is not None:
            local.set(key, value, TIMEOUT)
    return value


def keep(key: str, value, timeout: int = TIMEOUT) -> None:
    cache.set(key, value, timeout)
    local.set(key, value, timeout)


def remember(key: str, compute: Callable[[], T], timeout: int = TIMEOUT) -> T:
    """recall(key), or else compute() and keep it."""
    value = recall(key)
    if value is None:
        value = compute()
        keep(key, value, timeout)
    return value


def cached(
    name: str,
    key: str,
    compute: Callable[[], T],
    timeout: int = TIMEOUT,
    *,
    version: str | None = None,
) -> T:
    """`compute()`, kept until `name` is invalidated (computed afresh while the shared
    cache is down). `version`: `versions(name)` as this request already read it (saves a
    round trip); read now when not given."""
    version = version or versions(name)
    if version is None:
        return compute()
    return remember(f"{name}:{version}:{key}", compute, timeout)


def invalidate(name: str) -> None:
    """Drop every cached read of `name`: now, and again once the transaction commits (a
    reader in between may have cached the rows as they were before the commit); once when
    there is no transaction (the write is already committed)."""
    _bump(name)
    if transaction.get_connection().in_atomic_block:
        transaction.on_commit(lambda: _bump(name))


def _bump(name: str) -> None:
    try:
        cache.incr(_version_key(name))
    except ValueError:  # no version yet (or the cache was flushed)
        _start(name)
