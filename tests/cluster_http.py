"""The cluster test's accounts and HTTP helpers (tests/test_cluster.py)."""

import os
import re
import secrets
from dataclasses import dataclass
from urllib.parse import urlsplit

import redis
import requests

TIMEOUT = 15  # seconds for one request


@dataclass(frozen=True)
class Account:
    email: str
    password: str


# Accounts of the test's own: with DEBUG off the demo accounts get random passwords.
SHOPPER = Account("cluster-shopper@example.com", secrets.token_urlsafe(12))
ADMIN = Account("cluster-admin@example.com", secrets.token_urlsafe(12))


def cluster_unavailable() -> str | None:
    """Why the cluster cannot run here, or None."""
    database_url = os.environ.get("DATABASE_URL", "")
    if urlsplit(database_url).scheme not in {"postgres", "postgresql"}:
        return "the cluster needs PostgreSQL: set DATABASE_URL=postgres://…"
    redis_url = os.environ.get("REDIS_URL", "")
    if not redis_url:
        return "the cluster needs Redis: set REDIS_URL=redis://…"
    try:
        redis.Redis.from_url(redis_url, socket_timeout=2).ping()
    except redis.RedisError as error:
        return f"Redis at {redis_url} does not answer: {error}"
    return None


def bearer(base: str, account) -> dict[str, str]:
    answer = requests.post(
        f"{base}/api/token",
        json={"email": account.email, "password": account.password},
        timeout=TIMEOUT,
    )
    assert answer.status_code == 200, answer.text
    return {"Authorization": f"Bearer {answer.json()['access']}"}


def csrf_token(session: requests.Session, url: str) -> str:
    page = session.get(url, timeout=TIMEOUT)
    match = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text)
    assert match, f"no CSRF token in {url}"
    return match[1]


def part_ids(base: str) -> list[int]:
    answer = requests.get(f"{base}/api/allparts", timeout=TIMEOUT)
    assert answer.status_code == 200
    return [part["_id"] for part in answer.json()]


def page(base: str, path: str) -> str:
    answer = requests.get(f"{base}{path}", timeout=TIMEOUT)
    assert answer.status_code == 200
    return answer.text
