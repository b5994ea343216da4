"""Faults, made for real: Redis out of reach while the shop runs (the cache pointed at a closed
port, or at the real Redis through a proxy of our own that is cut and restored)."""

import os
import threading

import pytest
import redis
from django.core.cache import cache, caches
from django.test import Client
from rest_framework.test import APIClient

from accounts.tests.factories import TEST_PASSWORD, UserFactory
from accounts.tests.test_throttles import TOO_MANY_LOGINS, api_rate, login_page, page_rate, token
from catalog.tests.factories import PartFactory
from conftest import bearer_client
from scripts.servers import free_port
from tests.faults import ATTEMPTS, REDIS, TcpProxy, needs_redis

pytestmark = pytest.mark.slow  # TCP proxies cut and restored, timeouts waited out

# --- Redis goes away ------------------------------------------------------------------------


def tolerant_cache(settings, location: str, retry_after: float = 5) -> None:
    """The shop's Redis cache (with shop/settings.py's options) on another Redis."""
    options = {**settings.CACHES["default"].get("OPTIONS", {}), "IGNORE_EXCEPTIONS": True}
    backend = {"BACKEND": "core.caching.redis.RedisCache", "LOCATION": location}
    options["RETRY_AFTER"] = retry_after
    settings.CACHES = {**settings.CACHES, "default": {**backend, "OPTIONS": options}}


@pytest.fixture
def redis_down(settings):
    """The cache configured on a port where nothing listens."""
    tolerant_cache(settings, f"redis://127.0.0.1:{free_port()}/0")
    yield
    cache.clear()  # the counters kept in this process's memory meanwhile


@pytest.mark.django_db
def test_shop_keeps_serving_with_redis_down(redis_down, client, anon):
    user = UserFactory(password="secret123")
    part = PartFactory(available_quantity=10, minimum_order_quantity=1)

    for path in ("/", "/allparts", f"/purchaseintent/{part.pk}", "/login"):
        assert client.get(path).status_code in (200, 302), path
    assert anon.get("/api/allparts").status_code == 200

    signup = {"name": "New", "email": "new@example.com", "password": "secret123"}
    assert anon.post("/api/signup", signup, format="json").status_code == 201
    credentials = {"email": user.email, "password": "secret123"}
    assert anon.post("/api/token", credentials, format="json").status_code == 200

    # Sign-in on the page: the session lives in the database alone meanwhile.
    form = {"login": user.email, "password": "secret123"}
    assert client.post("/login", form).status_code == 302
    assert client.get("/dashboard/myorder").status_code == 200

    order = {"partId": part.pk, "quantity": 2, "address": "1 Cache Lane", "phone": "12345"}
    assert bearer_client(user).post("/api/booking", order, format="json").status_code == 201
    part.refresh_from_db()
    assert part.available_quantity == 8


@pytest.mark.django_db
def test_sign_in_limits_hold_with_redis_down(redis_down, user):
    """Issue 20: 15 wrong passwords from one address were 15 × 401 while Redis was down (the
    counters were misses). They count in the process's memory now, and the shop still serves."""
    api = APIClient(REMOTE_ADDR="198.51.100.20")
    answers = [token(api, user.email, "wrong-password").status_code for _ in range(ATTEMPTS)]
    allowed = api_rate("login_failed")
    assert answers == [401] * allowed + [429] * (ATTEMPTS - allowed)

    page = Client(REMOTE_ADDR="198.51.100.21")
    answers = [login_page(page, user.email, "wrong-password") for _ in range(ATTEMPTS)]
    allowed = min(page_rate("login_failed", "ip"), page_rate("login_failed", "key"))
    assert [answer.status_code for answer in answers] == [200] * allowed + [429] * (
        ATTEMPTS - allowed
    )
    assert TOO_MANY_LOGINS in answers[-1].content.decode()

    # The owner, from another address, still signs in; pages are still served.
    assert token(APIClient(REMOTE_ADDR="198.51.100.22"), user.email).status_code == 200
    assert (
        login_page(Client(REMOTE_ADDR="198.51.100.23"), user.email, TEST_PASSWORD).status_code
        == 302
    )
    for path in ("/", "/allparts", "/login"):
        assert Client().get(path).status_code == 200, path


def trips_after(limit: int, attempt) -> None:
    """`attempt(n)` is let through `limit` times, then refused with a 429."""
    answers = [attempt(n).status_code for n in range(limit + 1)]
    assert 429 not in answers[:-1], answers
    assert answers[-1] == 429


@pytest.mark.django_db
def test_every_other_limit_holds_with_redis_down(redis_down, user):
    """Sign-up (API and page), password resets, orders, reviews and payments."""
    api = APIClient(REMOTE_ADDR="198.51.100.30")
    trips_after(
        api_rate("signup"),
        lambda n: api.post(
            "/api/signup",
            {"name": "R", "email": f"r{n}@example.com", "password": "abcdef"},
            format="json",
        ),
    )
    page = Client(REMOTE_ADDR="198.51.100.31")
    trips_after(
        page_rate("signup", "ip"),
        lambda n: page.post("/signup", {"name": "R", "email": f"page{n}@example.com"}),
    )
    trips_after(
        page_rate("reset_password", "key"),
        lambda n: page.post("/accounts/password/reset/", {"email": user.email}),
    )
    shopper = bearer_client(user)
    review = {"name": "R", "review": "Fine.", "ratings": 5}  # only a review written counts
    for path, scope, body in [
        ("/api/booking", "orders", {}),
        ("/api/review", "reviews", review),
        ("/api/create-payment-intent", "payments", {}),
    ]:
        trips_after(
            api_rate(scope), lambda n, path=path, body=body: shopper.post(path, body, format="json")
        )


def test_rate_limit_counters_are_kept_per_process_with_redis_down(redis_down):
    key, lock = "throttle_token_198.51.100.40", "allauth:rl:allauth.account:login:lock"
    cache.set(key, [1.0], 60)
    assert cache.get(key) == [1.0]
    assert cache.get_many([key, "other"]) == {key: [1.0]}
    # allauth's lock locks for real: one holder at a time.
    assert cache.add(lock, True, 10) is True
    assert cache.add(lock, True, 10) is False
    assert cache.delete(lock) is True
    assert cache.add(lock, True, 10) is True
    # Every thread has a cache object of its own: they share the process's counters.
    seen = []
    thread = threading.Thread(target=lambda: seen.append(caches["default"].get(key)))
    thread.start()
    thread.join()
    assert seen == [[1.0]]


def test_the_cache_with_redis_down_is_an_empty_cache(redis_down):
    """Everything but the rate limits: a page or version kept in one process's memory would go
    stale unseen by the others."""
    assert cache.get("key") is None
    assert cache.get("key", "default") == "default"
    cache.set("key", "value")
    assert cache.get("key") is None
    assert cache.add("key", "value") is True  # a lock anyone may take, not one nobody can
    assert cache.get_many(["a", "b"]) == {}
    assert cache.set_many({"a": 1, "throttle_x": [1.0]}) == ["a"]  # not written (Django's answer)
    assert cache.get("a") is None
    assert cache.has_key("key") is False
    assert cache.get_or_set("key", "computed") == "computed"
    with pytest.raises(ValueError):
        cache.incr("counter")
    assert cache.delete("key") is False
    cache.delete_many(["a", "b"])
    cache.clear()


@needs_redis
def test_the_cache_works_normally_on_the_real_redis(settings):
    tolerant_cache(settings, f"redis://{REDIS[0]}:{REDIS[1]}/15")
    cache.clear()
    cache.set("key", {"a": 1})
    assert cache.get("key") == {"a": 1}
    assert cache.add("key", "other") is False
    assert cache.add("fresh", 1) is True
    assert cache.incr("fresh") == 2
    assert cache.get_many(["key", "fresh", "none"]) == {"key": {"a": 1}, "fresh": 2}
    assert cache.has_key("key")
    assert cache.delete("key") is True
    assert cache.get("key") is None
    cache.clear()


@needs_redis
@pytest.mark.django_db
def test_sessions_go_through_the_real_redis(settings, client):
    tolerant_cache(settings, f"redis://{REDIS[0]}:{REDIS[1]}/15")
    user = UserFactory(password="secret123")
    assert client.post("/login", {"login": user.email, "password": "secret123"}).status_code == 302
    session_key = client.cookies[settings.SESSION_COOKIE_NAME].value
    assert cache.get(f"django.contrib.sessions.cached_db{session_key}") is not None
    assert client.get("/dashboard/myorder").status_code == 200
    cache.clear()


@needs_redis
def test_cache_comes_back_with_redis_and_pauses_after_a_failure(settings, caplog):
    proxy = TcpProxy(*REDIS).start()
    try:
        tolerant_cache(settings, f"redis://127.0.0.1:{proxy.port}/15", retry_after=0)
        cache.set("key", "value")
        assert cache.set_many({"other": 1}) == []  # written
        assert cache.get("key") == "value"

        proxy.stop()
        assert cache.get("key") is None
        assert "Cache unavailable (get:" in caplog.text
        cache.set("key", "lost")
        proxy.start()
        assert cache.get("key") == "value"  # Redis kept it; the write while down was dropped
        assert "Cache reachable again." in caplog.text

        # With a pause after a failure, Redis is not even tried until the pause is over.
        tolerant_cache(settings, f"redis://127.0.0.1:{proxy.port}/15", retry_after=600)
        proxy.stop()
        assert cache.get("key") is None
        proxy.start()
        accepted = proxy.accepted
        assert cache.get("key") is None
        assert proxy.accepted == accepted
        cache.delete("key")
    finally:
        proxy.close()
        redis.Redis(*REDIS, db=15).flushdb()


@needs_redis
def test_rate_limits_count_in_redis_again_once_it_answers(settings):
    proxy = TcpProxy(*REDIS).start()
    key = f"throttle_comeback_{os.getpid()}"
    try:
        tolerant_cache(settings, f"redis://127.0.0.1:{proxy.port}/15", retry_after=0)
        cache.set(key, ["counted in Redis"])
        proxy.stop()
        assert cache.get(key) is None  # this process had counted nothing itself
        cache.set(key, ["counted in memory"])
        assert cache.get(key) == ["counted in memory"]
        proxy.start()
        assert cache.get(key) == ["counted in Redis"]
        cache.delete(key)
    finally:
        proxy.close()


def test_the_cache_has_short_socket_timeouts_and_ignores_a_lost_redis(settings):
    options = settings.CACHES["default"]["OPTIONS"]
    assert settings.CACHES["default"]["BACKEND"] == "core.caching.redis.RedisCache"
    assert options["IGNORE_EXCEPTIONS"] is True
    assert options["SOCKET_CONNECT_TIMEOUT"] <= 1
    assert options["SOCKET_TIMEOUT"] <= 1
