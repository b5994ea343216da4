"""core.caching.versions: shared versions, believed for a second in each process, living a
bounded time in Redis; copies in this process that can't go stale; bumps Redis did not take,
written again."""

import os
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from unittest import mock

import pytest
import redis
from django.conf import settings
from django.core.cache import cache, caches
from django.db import transaction
from django.test import override_settings
from django_redis.cache import RedisCache as DjangoRedisCache

from core.caching import versions
from tests.faults import REDIS, TcpProxy, needs_redis
from tests.test_faults_redis import tolerant_cache

ROOT = Path(__file__).resolve().parents[3]
DUMMY = {
    "default": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"},
    "local": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "t"},
}


@pytest.fixture
def on_redis(settings):
    """The shop's Redis cache, whatever REDIS_URL says (a Redis db of the tests' own)."""
    tolerant_cache(settings, f"redis://{REDIS[0]}:{REDIS[1]}/15")
    yield
    cache.clear()


def kept(value: str, **kwargs) -> str:
    return versions.get_or_set("things:k", lambda: value, names=["things"], **kwargs)


@contextmanager
def redis_reads():
    """The reads of several keys that reach Redis (django-redis's get_many), as a list."""
    calls, get_many = [], DjangoRedisCache.get_many

    def counted(backend, keys, *args, **kwargs):
        calls.append(list(keys))
        return get_many(backend, keys, *args, **kwargs)

    with mock.patch.object(DjangoRedisCache, "get_many", autospec=True, side_effect=counted):
        yield calls


def test_a_value_is_kept_until_its_name_is_bumped(db):
    assert kept("first") == "first"
    assert kept("second") == "first"
    versions.bump("things")
    assert kept("third") == "third"


def test_a_bump_of_another_name_leaves_it_kept():
    kept("first")
    versions.bump("other things")
    assert kept("second") == "first"


def test_a_version_read_once_is_believed_without_a_round_trip(on_redis):
    first = versions.current("things", "other things")
    with redis_reads() as calls:
        assert versions.current("things", "other things") == first
        assert versions.read(["things"], ["session"])[0] == {"things": int(first.split(".")[0])}
    assert calls == [["session"]]  # the versions from the process, the rest from Redis


def test_another_server_s_bump_is_seen_once_the_belief_lapses(on_redis):
    """The version lives in the shared cache: bumping it there is enough, within TRUST
    seconds, though this process still holds its own copy of the value."""
    kept("old")
    cache.incr("version:things")
    assert kept("new") == "old"  # believed: no round trip for a second
    time.sleep(versions.TRUST)
    assert kept("new") == "new"


def test_a_flushed_shared_cache_never_revives_old_copies(on_redis):
    kept("before the flush")
    # Redis restarted, or flushed by someone else; this process still holds its copy.
    redis.Redis.from_url(settings.CACHES["default"]["LOCATION"]).flushdb()
    time.sleep(versions.TRUST)
    assert caches[versions.LOCAL].get("things:k", version=versions.current("things")) is None
    assert kept("after the flush") == "after the flush"


def test_a_version_lives_a_bounded_time_in_redis_and_values_no_longer(on_redis):
    """Should a bump never reach Redis, what is kept under the old version goes all the same."""
    version = versions.current("things")
    versions.set("things:v", 1, version=version, timeout=3600)
    assert 0 < cache.ttl("version:things") <= versions.LIFETIME
    assert 0 < cache.ttl("things:v", version=version) <= versions.LIFETIME
    versions.bump("things")
    assert 0 < cache.ttl("version:things") <= versions.LIFETIME


def test_the_bound_is_the_shops_promise_by_configuration():
    """API.md: no page or API answer kept for visitors is more than 30 s behind a committed
    write. A version lives LIFETIME seconds and is believed TRUST more."""
    assert settings.CACHE_MAX_STALENESS == 30  # the default (nothing sets it in the tests)
    assert versions.LIFETIME + versions.TRUST == settings.CACHE_MAX_STALENESS


@pytest.mark.slow  # Django started again in a process of its own
@pytest.mark.parametrize("value", ["31", "1"])
def test_a_bound_above_the_promise_stops_the_start(value):
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    result = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT,
        env={**env, "DEBUG": "1", "CACHE_MAX_STALENESS": value},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode != 0
    assert f"CACHE_MAX_STALENESS must be 2 to 30 (seconds), not {value}." in result.stderr


def test_a_flush_made_here_believes_no_version_read_before(on_redis):
    first = versions.current("things")
    cache.clear()
    assert versions.current("things") != first


def test_the_verbs_at_a_version_read_once():
    version = versions.current("things", "other things")
    versions.set("things:v", 1, version=version)
    assert versions.get("things:v", version=version) == 1
    caches[versions.LOCAL].clear()  # another process: from the shared cache, then kept here
    assert versions.get("things:v", version=version) == 1
    assert caches[versions.LOCAL].get("things:v", version=version) == 1
    assert versions.get_or_set("things:v", lambda: 2, version=version) == 1
    versions.delete("things:v", version=version)
    assert versions.get("things:v", version=version, default="gone") == "gone"


def test_versions_and_values_are_read_together():
    cache.set("session", {"who": 1})
    numbers, found = versions.read(["things"], ["session", "nothing"])
    assert set(numbers) == {"things"}
    assert found == {"session": {"who": 1}}


@pytest.mark.django_db(transaction=True)
def test_a_bump_in_a_transaction_is_made_again_once_it_commits():
    """A reader between the bump and the commit may keep the rows as they were: the second
    bump, after the commit, makes what it kept stale too."""
    with transaction.atomic():
        versions.bump("things")
        kept("read before the commit")
    assert kept("after the commit") == "after the commit"


@pytest.mark.django_db(transaction=True)
def test_the_bumps_of_a_transaction_are_made_again_together_once_it_commits():
    with mock.patch.object(cache, "set_many", wraps=cache.set_many) as writes, transaction.atomic():
        versions.bump("things")
        versions.bump("other things")
    written = [set(call.args[0]) for call in writes.call_args_list]
    assert written == [
        {"version:things"},
        {"version:other things"},
        {"version:things", "version:other things"},  # at the commit, in one round trip
    ]


@pytest.mark.django_db(transaction=True)
def test_the_names_of_a_transaction_rolled_back_go_with_the_next_commit():
    with mock.patch.object(cache, "set_many", wraps=cache.set_many) as writes:
        with pytest.raises(RuntimeError), transaction.atomic():
            versions.bump("things")
            raise RuntimeError
        with transaction.atomic():
            versions.bump("other things")
    assert set(writes.call_args.args[0]) == {"version:things", "version:other things"}


@override_settings(CACHES=DUMMY)
def test_without_a_working_shared_cache_values_are_computed_every_time():
    calls = []
    for _ in range(2):
        versions.get_or_set("things:k", lambda: calls.append(1) or len(calls), names=["things"])
    assert len(calls) == 2
    assert versions.current("things") is None


@pytest.mark.slow  # a TCP proxy cut and restored
@needs_redis
def test_a_bump_redis_did_not_take_is_written_once_it_is_back(settings, caplog):
    """The server that wrote cannot reach Redis: it keeps and serves nothing under versions
    until its bump is written, which its next read of versions does once Redis answers."""
    proxy = TcpProxy(*REDIS).start()
    try:
        tolerant_cache(settings, f"redis://127.0.0.1:{proxy.port}/15", retry_after=0)
        before = versions.current("things")
        assert before is not None

        proxy.stop()
        versions.bump("things")
        assert versions.current("things") is None  # nothing kept or served meanwhile
        assert "Versions not written (things)" in caplog.text

        proxy.start()
        after = versions.current("things")
        assert after not in (None, before)
        assert redis.Redis(*REDIS, db=15).get(cache.make_key("version:things")) == after.encode()
        assert "Versions written again" in caplog.text
    finally:
        proxy.close()
        redis.Redis(*REDIS, db=15).flushdb()
