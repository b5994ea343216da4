"""The benchmark's database (a fresh PostgreSQL one), manage.py, and Django in this process."""

import os
import subprocess
import sys

import environ
import psycopg
import redis

from bench.lib.server import ROOT


def create_database(url: str) -> None:
    """Drop and create the database named in `url` (PostgreSQL)."""
    config = environ.Env.db_url_config(url)
    name = config["NAME"]
    maintenance = psycopg.connect(
        host=config["HOST"] or "127.0.0.1",
        port=config["PORT"] or 5432,
        user=config["USER"] or "postgres",
        password=config["PASSWORD"] or None,
        dbname="postgres",
        autocommit=True,
    )
    with maintenance:
        maintenance.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        maintenance.execute(f'CREATE DATABASE "{name}"')


def manage(*args: str, env: dict[str, str], timeout: float = 300) -> None:
    """A manage.py command in a process of its own (quiet unless it fails)."""
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    if done.returncode:
        raise RuntimeError(f"manage.py {' '.join(args)} failed:\n{done.stdout}{done.stderr}")


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
