"""Cached reads that every app server drops at once when their data changes.

Each name ("catalog", "reviews") has a version number in the shared cache; cached values
live under keys carrying that version, so `invalidate(name)` makes all of them stale in one
step, on every instance that shares the cache (Redis in production).
"""

from collections.abc import Callable
from typing import TypeVar

from django.core.cache import cache
from django.db import transaction

T = TypeVar("T")

TIMEOUT = 300  # seconds: the upper bound on staleness should an invalidation ever be missed


def _version_key(name: str) -> str:
    return f"version:{name}"


def version(name: str) -> int:
    value = cache.get(_version_key(name))
    if value is None:
        cache.add(_version_key(name), 1, timeout=None)
        value = cache.get(_version_key(name)) or 1
    return value


def cached(name: str, key: str, compute: Callable[[], T], timeout: int = TIMEOUT) -> T:
    """`compute()`, kept in the cache until `name` is invalidated."""
    full_key = f"{name}:{version(name)}:{key}"
    value = cache.get(full_key)
    if value is None:
        value = compute()
        cache.set(full_key, value, timeout)
    return value


def invalidate(name: str) -> None:
    """Drop every cached read of `name`: now, and again once the transaction commits (a
    reader in between may have cached the rows as they were before the commit)."""
    _bump(name)
    transaction.on_commit(lambda: _bump(name))


def _bump(name: str) -> None:
    try:
        cache.incr(_version_key(name))
    except ValueError:  # no version yet (or the cache was flushed)
        cache.set(_version_key(name), 2, timeout=None)
