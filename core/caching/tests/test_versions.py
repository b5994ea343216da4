"""core.caching.versions: shared versions, and copies in this process that can't go stale."""

import pytest
from django.core.cache import cache, caches
from django.db import transaction
from django.test import override_settings

from core.caching import versions

DUMMY = {
    "default": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"},
    "local": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "t"},
}


def kept(value: str, **kwargs) -> str:
    return versions.get_or_set("things:k", lambda: value, names=["things"], **kwargs)


def test_a_value_is_kept_until_its_name_is_bumped(db):
    assert kept("first") == "first"
    assert kept("second") == "first"
    versions.bump("things")
    assert kept("third") == "third"


def test_a_bump_of_another_name_leaves_it_kept():
    kept("first")
    versions.bump("other things")
    assert kept("second") == "first"


def test_another_instance_sees_a_bump_made_elsewhere():
    """The version lives in the shared cache: bumping it there is enough, even though this
    process still holds its own copy."""
    kept("old")
    cache.incr("version:things")
    assert kept("new") == "new"


def test_a_flushed_shared_cache_never_revives_old_copies():
    kept("before the flush")
    cache.clear()  # e.g. Redis restarted; this process still holds its copy
    assert caches[versions.LOCAL].get("things:k", version=versions.current("things")) is None
    assert kept("after the flush") == "after the flush"


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


@override_settings(CACHES=DUMMY)
def test_without_a_working_shared_cache_values_are_computed_every_time():
    calls = []
    for _ in range(2):
        versions.get_or_set("things:k", lambda: calls.append(1) or len(calls), names=["things"])
    assert len(calls) == 2
    assert versions.current("things") is None
