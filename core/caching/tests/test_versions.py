"""core.versioned_cache: shared versions, an in-process memory that can't go stale."""

from django.core.cache import cache
from django.test import override_settings

from core import versioned_cache as vc

DUMMY = {"default": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}}


def test_a_value_is_kept_until_its_name_is_invalidated(db):
    assert vc.cached("things", "k", lambda: "first") == "first"
    assert vc.cached("things", "k", lambda: "second") == "first"
    vc.invalidate("things")
    assert vc.cached("things", "k", lambda: "third") == "third"


def test_another_instance_sees_an_invalidation_made_elsewhere():
    """The version lives in the shared cache: bumping it there is enough."""
    vc.cached("things", "k", lambda: "old")
    cache.incr("version:things")
    assert vc.cached("things", "k", lambda: "new") == "new"


def test_a_flushed_shared_cache_never_revives_old_copies():
    vc.cached("things", "k", lambda: "before the flush")
    cache.clear()  # e.g. Redis restarted; this process still holds its memory
    assert vc.cached("things", "k", lambda: "after the flush") == "after the flush"


@override_settings(CACHES=DUMMY)
def test_without_a_working_shared_cache_values_are_computed_every_time():
    calls = []
    for _ in range(2):
        vc.cached("things", "k", lambda: calls.append(1) or len(calls))
    assert len(calls) == 2
