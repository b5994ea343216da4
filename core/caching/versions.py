"""Values kept until what they show changes, dropped on every app server at once.

Each name ("catalog", "part:12", "orders") has a version in the shared cache. A value is kept
under its key at the versions of the names it shows (Django's own `version=` of the cache
calls), so `bump(name)`, called by the service that wrote, makes every such value stale in one
step, everywhere. Because its key names the versions, a copy may also be kept in this process
("local", a LocMemCache): a copy is never served stale, since its key names an old version.

Read the versions before the data they cover (a write in between then bumps past them), and
every version a request needs in one round trip (`read`); with Redis, each process keeps the
versions it has read until Redis says they changed (core.caching.tracking), so most reads
make no round trip at all.
"""

import secrets
from collections.abc import Callable, Iterable
from typing import TypeVar

from django.core.cache import cache, caches
from django.db import transaction

T = TypeVar("T")

TIMEOUT = 300  # seconds: the bound on staleness should a bump ever be missed
LOCAL = "local"  # the alias of this process's cache of small values (settings.CACHES)
_MISSING = object()


def read(names: Iterable[str], keys: Iterable[str] = ()) -> tuple[dict[str, int] | None, dict]:
    """The version of each of `names`, and what the shared cache holds under `keys`, in one
    round trip. The versions are None when the shared cache cannot tell (Redis down): then
    nothing may be kept or served."""
    wanted = {name: f"version:{name}" for name in names}
    keys = list(keys)
    found = cache.get_many([*wanted.values(), *keys])
    numbers = {name: found.get(key) or _start(key) for name, key in wanted.items()}
    known = numbers if all(numbers.values()) else None
    return known, {key: found[key] for key in keys if key in found}


def stamp(numbers: dict[str, int] | None) -> str | None:
    """Versions read by `read`, as the `version` of a kept value."""
    return None if numbers is None else ".".join(map(str, numbers.values()))


def current(*names: str) -> str | None:
    """The versions of `names` now, as the `version` of a kept value (None: see `read`)."""
    return stamp(read(names)[0])


def get(key: str, *, version: str | None, default=None, timeout: int = TIMEOUT, local=LOCAL):
    """The value kept under `key` at `version`: this process's copy (in the cache `local`),
    else the shared cache's (then copied here, for `timeout` seconds)."""
    if version is None:
        return default
    local = caches[local]
    value = local.get(key, _MISSING, version=version)
    if value is _MISSING:
        value = cache.get(key, _MISSING, version=version)
        if value is _MISSING:
            return default
        local.set(key, value, timeout, version=version)
    return value


def set(key: str, value, *, version: str | None, timeout: int = TIMEOUT, local=LOCAL) -> None:
    """Keep `value` under `key` at `version`, in the shared cache and in this process."""
    if version is not None:
        cache.set(key, value, timeout, version=version)
        caches[local].set(key, value, timeout, version=version)


def get_or_set(
    key: str,
    default: Callable[[], T],
    timeout: int = TIMEOUT,
    *,
    names: Iterable[str] = (),
    version: str | None = None,
) -> T:
    """get(), or else default() kept by set(). `version`: the versions of `names` as the
    request already read them (saves a round trip); read now when not given. While the
    shared cache cannot tell, default() every time."""
    version = version or current(*names)
    value = get(key, version=version, timeout=timeout)
    if value is None:
        value = default()
        set(key, value, version=version, timeout=timeout)
    return value


def delete(key: str, *, version: str) -> None:
    cache.delete(key, version=version)
    caches[LOCAL].delete(key, version=version)


def bump(*names: str) -> None:
    """Make stale every value kept under `names`: now, and again once the transaction commits
    (a reader in between may have kept the rows as they were before the commit); once when
    there is no transaction (the write is already committed)."""
    _bump(names)
    if transaction.get_connection().in_atomic_block:
        transaction.on_commit(lambda: _bump(names))


def _bump(names: Iterable[str]) -> None:
    # A version need only be new, not the next number: every name in one round trip
    # (set_many), where an increment is one per name.
    cache.set_many({f"version:{name}": _new_version() for name in names}, timeout=None)


def _start(key: str) -> int | None:
    """A first version, for a name without one yet (or after the cache was flushed)."""
    cache.add(key, _new_version(), timeout=None)
    return cache.get(key)


def _new_version() -> int:
    """A version never used before, on any server (62 random bits: an integer Redis can still
    count up), so that a flushed cache never brings back one that old copies were kept under."""
    return secrets.randbits(62)
