"""pytest plugin: the marker `postgres(reason=...)` (pyproject.toml) names a test that cannot
pass on SQLite, and why: PostgreSQL's full-text search, a column length SQLite does not enforce,
a PostgreSQL server of its own to cut off or load. Nothing else: every other test passes on both.

`make test` runs every test on PostgreSQL; `make test-sqlite` leaves these out
(`-m "not postgres ..."`). Run on SQLite all the same, such a test is skipped with its reason,
and a skip fails the run (tests/skip_guard.py). With TEST_POSTGRES_ON_SQLITE=1 it runs there
anyway: tests/test_postgres_only.py does, to see each of them fail.
"""

import os

import pytest

MARKER = "postgres"
RUN_ANYWAY = "TEST_POSTGRES_ON_SQLITE"


def pytest_collection_modifyitems(items):
    """A test marked `postgres` says why: `@pytest.mark.postgres(reason="...")`."""
    unexplained = [item.nodeid for item in items if _marker(item) and not _reason(item)]
    if unexplained:
        raise pytest.UsageError(
            "marked postgres without reason=...: " + ", ".join(sorted(unexplained))
        )


def pytest_runtest_setup(item):
    if not _marker(item) or os.environ.get(RUN_ANYWAY) == "1":
        return
    from django.db import connection  # Django is set up by now

    if connection.vendor != "postgresql":
        pytest.skip(f"needs PostgreSQL: {_reason(item)} (`make test-sqlite` leaves it out)")


def _marker(item):
    return item.get_closest_marker(MARKER)


def _reason(item) -> str:
    return _marker(item).kwargs.get("reason", "")
