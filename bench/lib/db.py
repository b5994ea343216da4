"""The benchmark's database (a fresh PostgreSQL one), manage.py, and Django in this process."""

import os

import redis

# One copy of the database and manage.py helpers, beside the servers they serve.
from scripts.servers import create_database, manage  # noqa: F401  (bench.py: db.create_database)


def setup(env: dict[str, str]) -> None:
    """Django in this process, with the benchmark's environment (as gunicorn has it)."""
    os.environ.update(env)
    import django

    django.setup()


def redis_clear(url: str) -> None:
    """Empty the benchmark's Redis database; fail now if Redis does not answer (the shop would
    run on without its cache and measure something else)."""
    client = redis.Redis.from_url(url, socket_timeout=5)
    client.ping()
    client.flushdb()
