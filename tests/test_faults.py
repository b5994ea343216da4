"""Faults, made for real: the database or Redis out of reach while the shop runs.

A TCP proxy of our own stands between the shop and the server (PostgreSQL or Redis); the tests
cut it (listener and every open connection, like a server that went away) and restore it on
the same port. The database tests run the shop in gunicorn (DEBUG off) on a database they
create; the Redis tests point the cache at a closed port, or at the real Redis.
Stripe unreachable (502, order unchanged) is tested in orders/tests/test_api_payments.py.
"""

import json
import os
import time
from urllib.parse import urlsplit

import psycopg
import pytest
import requests
from django.contrib.sessions.backends.cached_db import SessionStore
from django.core.cache import caches
from django.db import connection
from django.test import Client, RequestFactory

from accounts.tests.test_throttles import api_rate
from core.middleware import API_UNAVAILABLE, PAGE_UNAVAILABLE, unavailable_response
from scripts.servers import Gunicorn, fresh_database, manage, postgres_server, shop_env
from tests.faults import ATTEMPTS, REDIS, TcpProxy, needs_redis, postgres_only

pytestmark = pytest.mark.slow  # gunicorn on databases of its own, TCP proxies cut and restored

API_503 = {"detail": API_UNAVAILABLE}
SHOPPER, PASSWORD = "shopper@example.com", "secret123"
PARTS = [
    {"name": "Brake pads", "price": "19.90", "minimumOrderQuantity": 2, "availableQuantity": 50},
    {"name": "Chain", "price": "54.00", "minimumOrderQuantity": 1, "availableQuantity": 20},
]

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
    # The premise: the session is read from the cache. On a machine loaded enough for Redis to
    # miss its 0.5 s timeout the cached copy may not have been written: write it again.
    for _ in range(3):
        if caches[settings.SESSION_CACHE_ALIAS].get(session.cache_key) is not None:
            break
        session.save()
    assert caches[settings.SESSION_CACHE_ALIAS].get(session.cache_key) is not None

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
