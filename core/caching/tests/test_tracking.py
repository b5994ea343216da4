"""core.caching.tracking: versions kept in the process, forgotten the moment Redis says they
changed, on the real Redis."""

from contextlib import contextmanager
from unittest import mock

import pytest
import redis
from django.conf import settings
from django.core.cache import cache
from django_redis.cache import RedisCache as DjangoRedisCache

from core.caching import versions
from core.caching.tracking import Tracker
from tests.faults import REDIS, TcpProxy, needs_redis

pytestmark = needs_redis


def another_server() -> redis.Redis:
    """A connection of its own to the shop's Redis, as another app server has."""
    return redis.Redis.from_url(settings.CACHES["default"]["LOCATION"])


@contextmanager
def redis_reads():
    """The reads of several keys that reach Redis (django-redis's get_many), as a list."""
    calls, get_many = [], DjangoRedisCache.get_many

    def counted(backend, keys, *args, **kwargs):
        calls.append(list(keys))
        return get_many(backend, keys, *args, **kwargs)

    with mock.patch.object(DjangoRedisCache, "get_many", autospec=True, side_effect=counted):
        yield calls


def test_a_version_read_once_is_answered_in_the_process():
    versions.bump("things", "other things")
    first = versions.current("things", "other things")
    with redis_reads() as calls:
        assert versions.current("things", "other things") == first
        assert versions.read(["things"], ["session"])[0] == {"things": int(first.split(".")[0])}
    assert calls == [["session"]]  # the versions from the process, the rest from Redis


def test_a_change_made_by_another_server_is_seen_at_the_next_read():
    versions.current("things")
    another_server().set(cache.make_key("version:things"), 7)
    assert versions.current("things") == "7"


def test_a_bump_made_here_is_seen_at_once():
    first = versions.current("things")
    versions.bump("things")
    assert versions.current("things") != first


def test_a_flush_by_another_server_forgets_every_version():
    first = versions.current("things")
    another_server().flushdb()
    assert versions.current("things") != first  # a new first version, never the old one


def tracker_at(url: str, retry_after: float = 0) -> Tracker:
    made = cache.make_key("version:")
    return Tracker(url, "version:", made, timeout=0.5, retry_after=retry_after)


def test_a_value_read_while_it_changed_is_not_kept():
    tracker = tracker_at(settings.CACHES["default"]["LOCATION"])
    known, token = tracker.lookup(["version:race"])
    assert known == {} and token is not None
    # The old value is on its way back from Redis when another server changes it.
    another_server().set(cache.make_key("version:race"), 2)
    assert tracker.connection.can_read(timeout=1)
    tracker.lookup([])  # takes the message in
    tracker.remember({"version:race": 1}, token)
    assert tracker.lookup(["version:race"])[0] == {}
    tracker.remember({"version:race": 2}, tracker.lookup(["version:race"])[1])
    assert tracker.lookup(["version:race"])[0] == {"version:race": 2}
    tracker.stop()


def test_a_lost_connection_forgets_everything_and_nothing_is_kept_until_it_is_back():
    proxy = TcpProxy(*REDIS).start()
    try:
        tracker = tracker_at(f"redis://127.0.0.1:{proxy.port}/15")
        tracker.remember({"version:a": 1}, tracker.lookup(["version:a"])[1])
        assert tracker.lookup(["version:a"])[0] == {"version:a": 1}

        proxy.stop()  # Redis restarted, or the network cut: changes would go unseen
        assert tracker.lookup(["version:a"]) == ({}, None)
        tracker.remember({"version:a": 1}, 0)
        assert tracker.lookup(["version:a"]) == ({}, None)  # not reachable: nothing kept

        proxy.start()
        known, token = tracker.lookup(["version:a"])
        assert known == {} and token is not None  # listening again, from nothing
        tracker.stop()
    finally:
        proxy.close()


def test_an_unreachable_redis_is_tried_again_only_after_the_pause():
    proxy = TcpProxy(*REDIS)  # not listening yet
    try:
        tracker = tracker_at(f"redis://127.0.0.1:{proxy.port}/15", retry_after=600)
        assert tracker.lookup(["version:a"]) == ({}, None)
        proxy.start()
        assert tracker.lookup(["version:a"]) == ({}, None)
        assert proxy.accepted == 0
    finally:
        proxy.close()


@pytest.mark.parametrize(
    "write", ["set", "add", "incr", "delete", "set_many", "delete_many", "clear"]
)
def test_every_write_of_this_process_forgets_the_version_it_wrote(write):
    """At once, before Redis's message could arrive: the process reads its own writes."""
    cache.set("version:things", 1)
    assert versions.current("things") == "1"
    assert cache.tracker.kept == {"version:things": 1}
    {
        "set": lambda: cache.set("version:things", 2),
        "add": lambda: cache.delete("version:things") and cache.add("version:things", 2),
        "incr": lambda: cache.incr("version:things"),
        "delete": lambda: cache.delete("version:things"),
        "set_many": lambda: cache.set_many({"version:things": 2}),
        "delete_many": lambda: cache.delete_many(["version:things"]),
        "clear": lambda: cache.clear(),
    }[write]()
    assert cache.tracker.kept == {}
    assert versions.current("things") != "1"
