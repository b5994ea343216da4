"""Values kept until what they show changes, dropped on every app server at once.

Each name ("items", "item:12") has a version in the shared cache. A value is kept under its
key at the versions of the names it shows (Django's own `version=` of the cache calls), so
`bump(name)`, called by the service that wrote, makes every such value stale in one step,
everywhere. Because its key names the versions, a copy may also be kept in this process
("local", a LocMemCache): a copy is never served at a version that is not current.

Read the versions before the data they cover (a write in between then bumps past them), and
every version a request needs in one round trip (`read`). Each process believes a version it
has read for TRUST seconds without asking again, so most reads make no round trip at all; a
bump made here is believed at once.

Nothing kept is ever more than settings.CACHE_MAX_STALENESS (30 s) behind a committed write,
whatever happens to connections and servers (API.md, "Private answers"):
- a change made on any server is seen everywhere within TRUST seconds: no process listens
  for changes, so nothing can go quiet unnoticed;
- a version lives at most LIFETIME seconds in the shared cache, then the next reader starts a
  new one: should a bump never reach Redis, what was kept under the old version is dropped
  all the same. A value is read after its versions, and a page names every name a value it
  shows names (or it would not go stale with it), so a page is never older than its oldest
  version: LIFETIME + TRUST is the bound;
- a bump that could not be written (Redis out of reach from here) is written again at this
  process's next read or bump of versions, and until it is, this process keeps and serves
  nothing under versions (`read` answers None).
"""

import logging
import secrets
import threading
import time
from collections.abc import Callable, Iterable
from typing import TypeVar

from django.conf import settings
from django.core.cache import cache, caches
from django.core.cache.backends.dummy import DummyCache
from django.core.cache.backends.locmem import LocMemCache
from django.db import transaction

T = TypeVar("T")
logger = logging.getLogger(__name__)

STALENESS = settings.CACHE_MAX_STALENESS  # seconds: the bound, 30 unless configured lower
TRUST = 1  # seconds a version read from the shared cache is believed in this process
LIFETIME = STALENESS - TRUST  # seconds a version lives in the shared cache (29)
# Seconds a value may be asked to be kept (the default, and the cap of a caller's own): it is
# kept no longer than LIFETIME all the same, after which its versions have changed.
TIMEOUT = 300
BELIEVED = 100_000  # versions believed per process (then all forgotten and read again)
LOCAL = "local"  # the alias of this process's cache of small values (settings.CACHES)
_MISSING = object()

_believed: dict[str, tuple[int, float]] = {}  # name -> (version, until: monotonic seconds)
_unwritten: set[str] = set()  # names whose last bump did not reach the shared cache
_bumping = threading.Lock()
_thread = threading.local()  # `pending`: names this thread bumps once its transaction commits


def read(names: Iterable[str], keys: Iterable[str] = ()) -> tuple[dict[str, int] | None, dict]:
    """The version of each of `names`, and what the shared cache holds under `keys`, in one
    round trip (none when every version is believed and no key is asked). The versions are
    None when they cannot be told (Redis out of reach, a bump of this process not written
    yet): then nothing may be kept or served."""
    names, keys = list(names), list(keys)
    if _unwritten and not _write_unwritten():
        return None, {}
    now, numbers = time.monotonic(), {}
    believing = _shared()
    for name in names if believing else ():
        believed = _believed.get(name)
        if believed is not None and believed[1] > now:
            numbers[name] = believed[0]
    asked = [name for name in names if name not in numbers]
    found = cache.get_many([*map(_key, asked), *keys]) if asked or keys else {}
    if len(_believed) + len(asked) > BELIEVED:
        _believed.clear()
    for name in asked:
        numbers[name] = found.get(_key(name)) or _start(_key(name))
        if numbers[name] and believing:
            _believed[name] = (numbers[name], now + TRUST)
    ordered = {name: numbers[name] for name in names}
    known = ordered if all(ordered.values()) else None
    return known, {key: found[key] for key in keys if key in found}


def stamp(numbers: dict[str, int] | None) -> str | None:
    """Versions read by `read`, as the `version` of a kept value."""
    return None if numbers is None else ".".join(map(str, numbers.values()))


def current(*names: str) -> str | None:
    """The versions of `names` now, as the `version` of a kept value (None: see `read`)."""
    return stamp(read(names)[0])


def get(key: str, *, version: str | None, default=None, timeout: int = TIMEOUT, local=LOCAL):
    """The value kept under `key` at `version`: this process's copy (in the cache `local`),
    else the shared cache's (then copied here)."""
    if version is None:
        return default
    local = caches[local]
    value = local.get(key, _MISSING, version=version)
    if value is _MISSING:
        value = cache.get(key, _MISSING, version=version)
        if value is _MISSING:
            return default
        local.set(key, value, min(timeout, LIFETIME), version=version)
    return value


def set(key: str, value, *, version: str | None, timeout: int = TIMEOUT, local=LOCAL) -> None:
    """Keep `value` under `key` at `version` (no longer than its versions live), in the
    shared cache and in this process."""
    if version is not None:
        timeout = min(timeout, LIFETIME)
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
    versions cannot be told, default() every time."""
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
        _bump_after_commit(names)


def _bump_after_commit(names: Iterable[str]) -> None:
    """Bump `names` again once the transaction commits, with every other name its writes
    bumped, in one round trip: the first of its commit callbacks takes them all. Names left by
    a transaction that rolled back go with the next one's (a bump too many is harmless)."""
    pending = getattr(_thread, "pending", None)
    if pending is None:
        pending = _thread.pending = []
    pending.extend(names)
    transaction.on_commit(_bump_pending)


def _bump_pending() -> None:
    names, _thread.pending = getattr(_thread, "pending", []), []
    if names:
        _bump(names)


def forget() -> None:
    """Believe no version read before now, and leave the bumps not written (the tests, after
    emptying the caches)."""
    _believed.clear()
    _unwritten.clear()


def _shared() -> bool:
    """Whether versions are worth believing here: the shared cache is a round trip away,
    written by other processes too (Redis); one in this process is read as fast."""
    return not isinstance(caches["default"], LocMemCache | DummyCache)


def _key(name: str) -> str:
    return f"version:{name}"


def _bump(names: Iterable[str]) -> None:
    # A version need only be new, not the next number: every name in one round trip
    # (set_many), where an increment is one per name. Bumps not written before go with it.
    with _bumping:
        new = {name: _new_version() for name in {*names, *_unwritten}}
        if not new:
            return
        was_behind = bool(_unwritten)
        # Django's set_many answers the keys it could not write (core.caching.redis: all of
        # them while Redis is out of reach).
        written = {_key(name): number for name, number in new.items()}
        failed = {*(cache.set_many(written, timeout=LIFETIME) or ())}
        now = time.monotonic()
        for name, number in new.items():
            if _key(name) in failed:
                _unwritten.add(name)
                _believed.pop(name, None)
            else:
                _unwritten.discard(name)
                _believed[name] = (number, now + TRUST)
        behind = sorted(_unwritten)
    if behind and not was_behind:
        logger.warning(
            "Versions not written (%s): this process keeps and serves no kept value until "
            "they are, and tries again at each read.",
            ", ".join(behind),
        )
    elif was_behind and not behind:
        logger.warning("Versions written again: this process keeps and serves kept values.")


def _write_unwritten() -> bool:
    """Try the bumps not written yet again; whether none is left."""
    _bump(())
    return not _unwritten


def _start(key: str) -> int | None:
    """A first version, for a name without one yet (or whose version lived its LIFETIME, or
    after the cache was flushed): the first reader's, on every server (`add`)."""
    cache.add(key, _new_version(), timeout=LIFETIME)
    return cache.get(key)


def _new_version() -> int:
    """A version never used before, on any server (62 random bits: an integer Redis can still
    count up), so that a flushed cache never brings back one that old copies were kept under."""
    return secrets.randbits(62)
