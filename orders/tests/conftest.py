"""Fixtures of the orders app's tests."""

import os
from urllib.parse import urlsplit

import pytest
import redis


@pytest.fixture
def broker_url():
    """Redis db 7 on the tests' Redis server, emptied first."""
    redis_url = os.environ.get("REDIS_URL")
    if not redis_url:
        pytest.skip("REDIS_URL is not set: the Celery worker test needs a Redis server")
    url = urlsplit(redis_url)._replace(path="/7").geturl()
    client = redis.Redis.from_url(url)
    client.flushdb()
    yield url
    client.flushdb()
    client.close()
