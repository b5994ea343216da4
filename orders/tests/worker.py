"""A real Celery worker (`celery -A shop worker --beat`) for the tests, on the Redis broker
the `broker_url` fixture names (orders/tests/conftest.py), reading the test database."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import quote

import pytest
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]
SITE = "https://worker.example.test"


def database_url() -> str:
    """The test database (test_<name>) as a DATABASE_URL for another process."""
    if connection.vendor != "postgresql":
        pytest.skip("the Celery worker test needs PostgreSQL (the worker shares the test database)")
    db = connection.settings_dict
    credentials = quote(db["USER"] or "")
    if db["PASSWORD"]:
        credentials += ":" + quote(db["PASSWORD"])
    host = f"{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}"
    return f"postgres://{credentials}@{host}/{quote(db['NAME'])}"


def start_worker(broker_url: str, smtp_port: int, folder: Path, log: Path, **env: str):
    """`celery -A shop worker --beat` in a subprocess, its output in `log`, beat's schedule in
    `folder`; `env` adds to its environment."""
    env = {
        **os.environ,
        "ENV_FILE": "",
        "DATABASE_URL": database_url(),
        "CONN_MAX_AGE": "0",
        "REDIS_URL": broker_url,
        "EMAIL_HOST": "127.0.0.1",
        "EMAIL_PORT": str(smtp_port),
        "SITE_URL": SITE,
        "HOLDS_RELEASE_EVERY": "1",  # beat's release of lapsed holds, every second here
        **env,
    }
    command = [
        *(sys.executable, "-m", "celery", "-A", "shop", "worker", "--beat"),
        *("--schedule", str(folder / "celerybeat-schedule"), "--pool", "solo"),
        *("--without-gossip", "--without-mingle", "--without-heartbeat", "-l", "info"),
    ]
    with log.open("a") as out:
        # A process group of its own: its beat (a child process) is killed with it.
        return subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=out, stderr=out, start_new_session=True
        )


def stop_worker(process: subprocess.Popen) -> None:
    """A warm shutdown (SIGTERM), waited for; killed when it does not stop."""
    if process.poll() is not None:
        return
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=10)


def wait_for_text(path: Path, text: str, timeout: float = 30) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        content = path.read_text()
        if text in content:
            return content
        time.sleep(0.1)
    return path.read_text()
