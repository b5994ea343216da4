"""Faults, made for real: the database or Redis out of reach while the shop runs.

A TCP proxy of our own stands between the shop and the server (PostgreSQL or Redis); the tests
cut it (listener and every open connection, like a server that went away) and restore it on
the same port. The database tests run the shop in gunicorn (DEBUG off) on a database they
create; the Redis tests point the cache at a closed port, or at the real Redis.
Stripe unreachable (502, order unchanged) is tested in orders/tests/test_api_payments.py.
"""

import asyncio
import json
import os
import threading
import time
from urllib.parse import urlsplit

import psycopg
import pytest
import redis
import requests
from django.contrib.sessions.backends.cached_db import SessionStore
from django.core.cache import cache, caches
from django.db import connection
from django.test import Client, RequestFactory
from rest_framework.test import APIClient

from accounts.tests.factories import TEST_PASSWORD, UserFactory
from accounts.tests.test_throttling import TOO_MANY_LOGINS, api_rate, login_page, page_rate, token
from catalog.tests.factories import PartFactory
from conftest import bearer_client
from core.middleware import API_UNAVAILABLE, PAGE_UNAVAILABLE, unavailable_response
from scripts.servers import Gunicorn, free_port, fresh_database, manage, postgres_server, shop_env

pytestmark = pytest.mark.slow  # gunicorn on databases of its own, TCP proxies cut and restored

postgres_only = pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="a database that can go away needs a server: PostgreSQL (CI runs on it)",
)
API_503 = {"detail": API_UNAVAILABLE}
SHOPPER, PASSWORD = "shopper@example.com", "secret123"
PARTS = [
    {"name": "Brake pads", "price": "19.90", "minimumOrderQuantity": 2, "availableQuantity": 50},
    {"name": "Chain", "price": "54.00", "minimumOrderQuantity": 1, "availableQuantity": 20},
]
REDIS = ("127.0.0.1", 6379)


class TcpProxy:
    """127.0.0.1:<port> forwarded to `upstream`, on an event loop in a thread of its own.

    stop() closes the listener and every open connection; start() listens again on the same
    port. cut_when(data) cuts every connection the moment a client sends bytes containing
    `data` (they are not forwarded): the server sees its client vanish mid-conversation.
    """

    def __init__(self, host: str, port: int):
        self.upstream = (host, port)
        self.port = free_port()
        self.trigger: bytes | None = None
        self.accepted = 0
        self._server = None
        self._transports: set[asyncio.Transport] = set()
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._thread.start()

    def _run(self, coroutine):
        return asyncio.run_coroutine_threadsafe(coroutine, self._loop).result(timeout=10)

    def start(self) -> "TcpProxy":
        async def listen():
            self._server = await asyncio.start_server(
                self._forward, "127.0.0.1", self.port, reuse_address=True
            )

        self._run(listen())
        return self

    def stop(self) -> None:
        async def close():
            self._server.close()
            self._cut()
            await self._server.wait_closed()

        self._run(close())

    def cut_when(self, data: bytes) -> None:
        self.trigger = data

    def close(self) -> None:
        self.stop()

        async def settle():  # the cut connections' tasks finish before the loop stops
            others = asyncio.all_tasks() - {asyncio.current_task()}
            await asyncio.gather(*others, return_exceptions=True)

        self._run(settle())
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=10)

    def _cut(self) -> None:
        for transport in list(self._transports):
            transport.abort()
        self._transports.clear()

    async def _forward(self, client_reader, client_writer):
        self.accepted += 1
        try:
            server_reader, server_writer = await asyncio.open_connection(*self.upstream)
        except OSError:
            client_writer.transport.abort()
            return
        self._transports |= {client_writer.transport, server_writer.transport}
        await asyncio.gather(
            self._pipe(client_reader, server_writer, watch=True),
            self._pipe(server_reader, client_writer),
        )

    async def _pipe(self, reader, writer, watch=False):
        try:
            while data := await reader.read(65536):
                if watch and self.trigger and self.trigger in data:
                    self.trigger = None
                    self._cut()
                    return
                writer.write(data)
                await writer.drain()
        except OSError:
            pass
        finally:
            writer.transport.abort()
            self._transports.discard(writer.transport)


# --- PostgreSQL goes away under a running gunicorn ----------------------------------------


class Shop:
    """The shop in gunicorn, its database behind `proxy`; the demo data's shopper."""

    def __init__(self, server: Gunicorn, proxy: TcpProxy):
        self.server = server
        self.proxy = proxy
        self.url = server.url
        self.token = self.sign_up(SHOPPER, PASSWORD)
        self.browser = self.signed_in_browser(SHOPPER, PASSWORD)

    def sign_up(self, email: str, password: str) -> str:
        payload = {"name": "Shopper", "email": email, "password": password}
        response = requests.post(f"{self.url}/api/signup", json=payload, timeout=30)
        assert response.status_code == 201, response.text
        return response.json()["access"]

    def signed_in_browser(self, email: str, password: str) -> requests.Session:
        browser = requests.Session()
        browser.get(f"{self.url}/login")
        form = {
            "login": email,
            "password": password,
            "csrfmiddlewaretoken": browser.cookies["csrftoken"],
        }
        response = browser.post(f"{self.url}/login", data=form, allow_redirects=False)
        assert response.status_code == 302, response.text[:500]
        return browser

    def api(self, method: str, path: str, **kwargs) -> requests.Response:
        headers = {"Authorization": f"Bearer {self.token}"}
        return requests.request(method, f"{self.url}{path}", headers=headers, timeout=30, **kwargs)

    def part(self) -> dict:
        """A part with stock (read straight from the API)."""
        parts = requests.get(f"{self.url}/api/allparts", timeout=30).json()
        return next(p for p in parts if p["availableQuantity"] >= 2 * p["minimumOrderQuantity"])

    def order_payload(self, part: dict) -> dict:
        return {
            "partId": part["_id"],
            "quantity": part["minimumOrderQuantity"],
            "address": "1 Fault Street",
            "phone": "+15550100",
        }

    def stock_and_orders(self, part_id: int) -> tuple[int, list[int]]:
        stock = requests.get(f"{self.url}/api/allparts/{part_id}", timeout=30).json()
        orders = self.api("GET", f"/api/booking?email={SHOPPER}").json()
        return stock["availableQuantity"], sorted(order["_id"] for order in orders)


def proxied(database_url: str, port: int) -> str:
    """`database_url` with its host and port replaced by the proxy's."""
    parts = urlsplit(database_url)
    user = parts.netloc.rpartition("@")[0]
    return parts._replace(
        netloc=f"{user}@127.0.0.1:{port}" if user else f"127.0.0.1:{port}"
    ).geturl()


@pytest.fixture(scope="module")
def shop(tmp_path_factory):
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL only")
    name = f"shop_faults_{os.getpid()}"
    with fresh_database(postgres_server(), name) as url:
        direct = shop_env(url)
        direct.pop("REDIS_URL", None)  # Redis has tests of its own, below
        manage("migrate", "--noinput", env=direct)
        # DEBUG off serves the collected, hashed assets: without them every page is a 500.
        manage("collectstatic", "--noinput", "-v", "0", env=direct)
        parts = tmp_path_factory.mktemp("faults") / "parts.json"
        parts.write_text(json.dumps(PARTS))
        manage("import_parts", str(parts), env=direct)
        target = urlsplit(url)
        proxy = TcpProxy(target.hostname, target.port or 5432).start()
        # One worker with a persistent connection: the one the fault kills.
        env = {**direct, "DATABASE_URL": proxied(url, proxy.port), "CONN_MAX_AGE": "600"}
        log = parts.with_name("gunicorn.log")
        server = Gunicorn(env=env, log=log, workers=1).start()
        try:
            yield Shop(server, proxy)
            assert server.alive, "the shop's server stopped during the fault tests"
        finally:
            server.stop()
            proxy.close()


def assert_page_503(response: requests.Response) -> None:
    assert response.status_code == 503
    assert "We'll be right back" in response.text
    assert PAGE_UNAVAILABLE in response.text
    assert "Traceback" not in response.text
    assert response.headers["Retry-After"]


def assert_api_503(response: requests.Response) -> None:
    assert response.status_code == 503
    assert response.json() == API_503


@postgres_only
def test_database_down_pages_and_api_answer_503_and_write_nothing(shop):
    part = shop.part()
    placed = shop.api("POST", "/api/booking", json=shop.order_payload(part))
    assert placed.status_code == 201
    stock, orders = shop.stock_and_orders(part["_id"])
    assert shop.browser.get(f"{shop.url}/dashboard/myorder").status_code == 200

    shop.proxy.stop()
    try:
        assert_page_503(shop.browser.get(f"{shop.url}/dashboard/myorder"))
        assert_page_503(shop.browser.get(f"{shop.url}/"))
        assert_page_503(shop.browser.get(f"{shop.url}/purchaseintent/{part['_id']}"))
        assert_api_503(shop.api("GET", "/api/user/me"))
        assert_api_503(requests.get(f"{shop.url}/api/allparts/{part['_id']}", timeout=30))
        assert_api_503(shop.api("POST", "/api/booking", json=shop.order_payload(part)))
        assert_api_503(shop.api("DELETE", f"/api/booking/{placed.json()['_id']}"))
        signup = {"name": "Down", "email": "down@example.com", "password": "secret123"}
        assert_api_503(requests.post(f"{shop.url}/api/signup", json=signup, timeout=30))
        # A page the shared cache can answer alone may still be served; never a 500.
        assert requests.get(f"{shop.url}/allparts", timeout=30).status_code in (200, 503)
    finally:
        shop.proxy.start()

    assert shop.stock_and_orders(part["_id"]) == (stock, orders)
    sign_in = {"email": "down@example.com", "password": "secret123"}
    assert requests.post(f"{shop.url}/api/token", json=sign_in, timeout=30).status_code == 401
    assert shop.api("DELETE", f"/api/booking/{placed.json()['_id']}").status_code == 200


@postgres_only
def test_the_same_server_recovers_when_the_database_is_back(shop):
    shop.proxy.stop()
    shop.proxy.start()
    # The worker's persistent connection died with the proxy: the first request finds it
    # dead (health check), drops it and connects again.
    assert shop.browser.get(f"{shop.url}/dashboard/myorder").status_code == 200
    assert requests.get(f"{shop.url}/api/allparts", timeout=30).status_code == 200
    part = shop.part()
    placed = shop.api("POST", "/api/booking", json=shop.order_payload(part))
    assert placed.status_code == 201
    assert shop.api("DELETE", f"/api/booking/{placed.json()['_id']}").status_code == 200
    assert shop.server.alive


@postgres_only
def test_connection_lost_in_the_middle_of_an_order_writes_nothing(shop):
    """The stock is already taken (UPDATE sent) when the connection dies on the INSERT of the
    order: PostgreSQL rolls the transaction back, the shopper gets a 503, nothing is half
    written, and the next order goes through."""
    part = shop.part()
    stock, orders = shop.stock_and_orders(part["_id"])

    shop.proxy.cut_when(b'INSERT INTO "orders_booking"')
    assert_api_503(shop.api("POST", "/api/booking", json=shop.order_payload(part)))

    assert shop.stock_and_orders(part["_id"]) == (stock, orders)
    placed = shop.api("POST", "/api/booking", json=shop.order_payload(part))
    assert placed.status_code == 201
    assert shop.stock_and_orders(part["_id"]) == (
        stock - part["minimumOrderQuantity"],
        sorted([*orders, placed.json()["_id"]]),
    )


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_database_lost_inside_the_session_middleware_is_a_503_too(settings):
    """The view needs no database here (the schema, an anonymous session from the cache);
    the session middleware's save afterwards is the first query, and its connection has been
    killed on the server: Django turns that into a 500, the middleware into the 503."""
    settings.SESSION_SAVE_EVERY_REQUEST = True
    client = Client(raise_request_exception=False)  # answer as a server would: no re-raise
    session = SessionStore()
    session["seen"] = True
    session.create()
    client.cookies[settings.SESSION_COOKIE_NAME] = session.session_key
    assert client.get("/api/schema").status_code == 200

    kill_this_connection()
    try:
        response = client.get("/api/schema")
    finally:
        connection.close()
    assert response.status_code == 503
    assert response.json() == API_503


def kill_this_connection() -> None:
    """Terminate the server process behind Django's connection, from another connection."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]
    db = connection.settings_dict
    params = {"host": db["HOST"], "port": db["PORT"] or 5432, "user": db["USER"]}
    params |= {"password": db["PASSWORD"] or None, "dbname": db["NAME"]}
    with psycopg.connect(**params, autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", [pid])
        for _ in range(100):
            if not admin.execute("SELECT 1 FROM pg_stat_activity WHERE pid = %s", [pid]).fetchone():
                return
            time.sleep(0.05)


@pytest.mark.django_db
def test_the_503_page_needs_neither_database_nor_session(django_assert_num_queries):
    request = RequestFactory().get("/allparts")
    with django_assert_num_queries(0):
        response = unavailable_response(request)
    assert_page_503(response_as_requests(response))


def response_as_requests(response) -> requests.Response:
    converted = requests.Response()
    converted.status_code = response.status_code
    converted._content = response.content
    converted.headers.update(response.headers)
    converted.encoding = "utf-8"
    return converted


# --- Redis goes away ------------------------------------------------------------------------


def tolerant_cache(settings, location: str, retry_after: float = 5) -> None:
    """The shop's Redis cache (with shop/settings.py's options) on another Redis."""
    options = {**settings.CACHES["default"].get("OPTIONS", {}), "IGNORE_EXCEPTIONS": True}
    backend = {"BACKEND": "core.caching.redis.RedisCache", "LOCATION": location}
    options["RETRY_AFTER"] = retry_after
    settings.CACHES = {**settings.CACHES, "default": {**backend, "OPTIONS": options}}


def redis_answers() -> bool:
    try:
        return redis.Redis(*REDIS, socket_connect_timeout=0.5).ping()
    except redis.RedisError:
        return False


needs_redis = pytest.mark.skipif(not redis_answers(), reason="no Redis on 127.0.0.1:6379")


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


ATTEMPTS = 15


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
    for path, scope in [
        ("/api/booking", "orders"),
        ("/api/review", "reviews"),
        ("/api/create-payment-intent", "payments"),
    ]:
        trips_after(api_rate(scope), lambda n, path=path: shopper.post(path, {}, format="json"))


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
    cache.set_many({"a": 1})
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
def test_cache_comes_back_with_redis_and_pauses_after_a_failure(settings):
    proxy = TcpProxy(*REDIS).start()
    try:
        tolerant_cache(settings, f"redis://127.0.0.1:{proxy.port}/15", retry_after=0)
        cache.set("key", "value")
        assert cache.get("key") == "value"

        proxy.stop()
        assert cache.get("key") is None
        cache.set("key", "lost")
        proxy.start()
        assert cache.get("key") == "value"  # Redis kept it; the write while down was dropped

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


@postgres_only
@needs_redis
def test_a_running_server_keeps_its_sign_in_limit_when_redis_goes_away(shop, tmp_path):
    """The shop in gunicorn (DEBUG off, its own settings) on Redis through a proxy; the proxy
    is cut, and 15 wrong passwords from one address still trip the limit (each failure costs
    a real password hash here: the page's limits are tested in-process above)."""
    proxy = TcpProxy(*REDIS).start()
    db = urlsplit(os.environ.get("REDIS_URL") or "redis:///15").path or "/15"
    env = {**shop.server.env, "REDIS_URL": f"redis://127.0.0.1:{proxy.port}{db}"}
    server = Gunicorn(env=env, log=tmp_path / "gunicorn.log", workers=1).start()
    try:
        proxy.stop()
        wrong = {"email": SHOPPER, "password": "wrong-password"}
        answers = [
            requests.post(f"{server.url}/api/token", json=wrong, timeout=30).status_code
            for _ in range(ATTEMPTS)
        ]
        allowed = api_rate("login_failed")
        assert answers == [401] * allowed + [429] * (ATTEMPTS - allowed)
        assert requests.get(f"{server.url}/allparts", timeout=30).status_code == 200
    finally:
        server.stop()
        proxy.close()


def test_the_cache_has_short_socket_timeouts_and_ignores_a_lost_redis(settings):
    options = settings.CACHES["default"]["OPTIONS"]
    assert settings.CACHES["default"]["BACKEND"] == "core.caching.redis.RedisCache"
    assert options["IGNORE_EXCEPTIONS"] is True
    assert options["SOCKET_CONNECT_TIMEOUT"] <= 1
    assert options["SOCKET_TIMEOUT"] <= 1
