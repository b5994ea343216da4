"""pytest plugin: under pytest-xdist (`make test-fast` runs two workers, `-n 2`) each worker has
a Redis database of its own, as pytest-django gives each its own test database
(`test_<name>_gw0`, `test_<name>_gw1`). The tests empty the cache after each test (conftest.py's
`clear_cache`, a FLUSHDB): two workers on one database would wipe each other's counters, kept
pages and versions in the middle of a test. Worker gwN uses REDIS_URL's database + N (db 7 and
db 8 for REDIS_URL=redis://…/7); without xdist, or without REDIS_URL, nothing changes."""

import os
from urllib.parse import urlsplit

import pytest

REDIS_DATABASES = 16  # Redis's default `databases`


def worker_redis_url(url: str, worker: int) -> str:
    """REDIS_URL with its database moved on by `worker` (`redis://h:6379/7`, 1 -> `.../8`)."""
    parts = urlsplit(url)
    database = int(parts.path.strip("/") or 0) + worker
    if database >= REDIS_DATABASES:
        raise pytest.UsageError(
            f"REDIS_URL={url}: xdist worker gw{worker} would need Redis database {database}; "
            f"give REDIS_URL a database below {REDIS_DATABASES - worker}"
        )
    return parts._replace(path=f"/{database}").geturl()


@pytest.hookimpl(tryfirst=True)
def pytest_load_initial_conftests(early_config, parser, args):
    """After pytest-env has set REDIS_URL's default, before Django reads it: a worker's own
    database. (xdist sets PYTEST_XDIST_WORKER in the worker before its pytest starts.)"""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    url = os.environ.get("REDIS_URL", "")
    if worker.startswith("gw") and url:
        os.environ["REDIS_URL"] = worker_redis_url(url, int(worker.removeprefix("gw")))
