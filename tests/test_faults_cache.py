"""The page cache's promises while connections and servers fail (API.md, "Private answers"),
on two app servers (gunicorn, one worker each) sharing one PostgreSQL database and one Redis,
each server reaching Redis through a TCP proxy of its own (tests/faults.py) that can stop
forwarding without closing anything, as a NAT or a load balancer does when it forgets an
idle connection:

- (a) a change made on server 1 is seen on server 2 within the bound while server 2's
  connections to Redis are silently cut;
- (b) a personal page is never served again once its account is demoted, deactivated, has
  its password changed or is signed out, while server 2's connections are cut;
- (c) a write made by a server that cannot reach Redis makes the other server's pages stale
  within the bound all the same;
- (d) another Redis database's traffic never reaches this deployment, and every key the
  servers write carries the deployment's own prefix (CACHE_KEY_PREFIX).

The servers run with CACHE_MAX_STALENESS=4 (seconds) so that a test waits seconds, not the
30 s the shop promises by default (core/caching/tests/test_versions.py holds the default)."""

import os
import re
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import urlsplit

import pytest
import redis
import requests

from scripts.servers import Gunicorn, fresh_database, manage, postgres_server, shop_env
from tests.faults import REDIS, TcpProxy, needs_redis, postgres_only

pytestmark = [pytest.mark.slow, postgres_only, needs_redis]  # gunicorn × 2, proxies cut

BOUND = 4  # the servers' CACHE_MAX_STALENESS: seconds a kept page may be behind a write
SLACK = 4  # seconds more, for a loaded 2-core machine (requests, a worker's pause)
TIMEOUT = 15  # seconds for one request
REDIS_DB = int(urlsplit(os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/1")).path[1:] or 0)
OTHER_DB = 15 if REDIS_DB != 15 else 14
LISTENING = b"SUBSCRIBE"  # what a connection that waits to be told of changes says to Redis
PASSWORD = "cache-faults-secret"


@dataclass
class Server:
    gunicorn: Gunicorn
    proxy: TcpProxy  # between this server and Redis

    @property
    def url(self) -> str:
        return self.gunicorn.url

    def get(self, path: str, session: requests.Session | None = None) -> requests.Response:
        getter = session or requests
        return getter.get(self.url + path, timeout=TIMEOUT, allow_redirects=False)


@dataclass
class Pair:
    one: Server
    two: Server
    prefix: str  # their CACHE_KEY_PREFIX
    env: dict[str, str]  # server 1's environment (for manage.py)


@pytest.fixture(scope="module")
def database(tmp_path_factory):
    """A database of the module's own, migrated, its static files collected (DEBUG off)."""
    with fresh_database(postgres_server(), f"shop_cache_faults_{os.getpid()}") as url:
        env = shop_env(url, REDIS_URL="")
        manage("migrate", "--noinput", "-v", "0", env=env)
        manage("collectstatic", "--noinput", "-v", "0", env=env)
        yield url


@pytest.fixture
def pair(database, tmp_path):
    """Two app servers of one deployment, each through a proxy of its own to the same Redis."""
    prefix, secret = f"faults-{secrets.token_hex(4)}", secrets.token_urlsafe(40)
    servers, env = [], {}
    try:
        for n in (1, 2):
            proxy = TcpProxy(*REDIS).start()
            env = shop_env(
                database,
                REDIS_URL=f"redis://127.0.0.1:{proxy.port}/{REDIS_DB}",
                CACHE_KEY_PREFIX=prefix,
                CACHE_MAX_STALENESS=str(BOUND),
                SECRET_KEY=secret,  # one deployment: sessions are good on both
                LOG_LEVEL="INFO",
            )
            gunicorn = Gunicorn(env=env, log=tmp_path / f"server{n}.log", workers=1)
            servers.append(Server(gunicorn, proxy))
            gunicorn.start()
        yield Pair(servers[0], servers[1], prefix, servers[0].gunicorn.env)
    finally:
        for server in servers:
            server.gunicorn.stop()
            server.proxy.close()
        redis.Redis(*REDIS, db=REDIS_DB).flushdb()


# --- Helpers -------------------------------------------------------------------------------


def seen_within(seconds: float, check: Callable[[], bool]) -> float | None:
    """Seconds until `check()` held, polled every 0.2 s; None when it did not within `seconds`."""
    started = time.monotonic()
    while time.monotonic() - started < seconds:
        if check():
            return time.monotonic() - started
        time.sleep(0.2)
    return None


def account(server: Server, *, admin: bool = False, env: dict[str, str]) -> tuple[str, str]:
    """A new account (signed up through `server`): its e-mail and an access token."""
    email = f"faults-{secrets.token_hex(4)}@example.com"
    payload = {"name": "Faults", "email": email, "password": PASSWORD}
    answer = requests.post(f"{server.url}/api/signup", json=payload, timeout=TIMEOUT)
    assert answer.status_code == 201, answer.text
    if admin:
        manage("make_admin", email, env=env)
        again = {"email": email, "password": PASSWORD}
        answer = requests.post(f"{server.url}/api/token", json=again, timeout=TIMEOUT)
        assert answer.status_code == 200, answer.text
    return email, answer.json()["access"]


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def signed_in(server: Server, email: str) -> requests.Session:
    browser = requests.Session()
    server.get("/login", browser)
    form = {
        "login": email,
        "password": PASSWORD,
        "csrfmiddlewaretoken": browser.cookies["csrftoken"],
    }
    answer = browser.post(f"{server.url}/login", data=form, allow_redirects=False, timeout=TIMEOUT)
    assert answer.status_code == 302, answer.text[:500]
    return browser


def part(server: Server, token: str, price: str) -> int:
    body = {
        "name": f"Faults chain {secrets.token_hex(3)}",
        "price": price,
        "minimumOrderQuantity": 1,
        "availableQuantity": 40,
    }
    added = requests.post(
        f"{server.url}/api/allparts", json=body, headers=bearer(token), timeout=TIMEOUT
    )
    assert added.status_code == 201, added.text
    return added.json()["_id"]


def visitors_pages(part_id: int) -> list[str]:
    return ["/", "/allparts", f"/parts/{part_id}", "/api/allparts"]


def keep(server: Server, paths: list[str]) -> None:
    """Each page seen twice: kept (and its versions read) in the server's one worker."""
    for path in paths * 2:
        assert server.get(path).status_code == 200, path


def shows(server: Server, paths: list[str], text: str) -> list[bool]:
    return [text in server.get(path).text for path in paths]


def silence_listening(server: Server) -> None:
    """The connection on which a server waits to be told of changes stops forwarding, as an
    idle connection forgotten by a NAT (the issue's audit); any other connection goes on."""
    server.proxy.silence(LISTENING)


def kept_once_more(server: Server, browser: requests.Session, path: str) -> requests.Response:
    """The personal page, rendered and then served from the cache: a kept page sets no cookie
    (a rendered page with a form sends the CSRF cookie again; the first page a session sees
    on a server may note something in it)."""
    before = server.get(path, browser)
    assert before.status_code == 200, path
    for _ in range(3):
        again = server.get(path, browser)
        assert again.status_code == 200, path
        if "Set-Cookie" not in again.headers and again.text == before.text:
            return again
        before = again
    raise AssertionError(f"{path} was never served from the cache")


def change_user(env: dict[str, str], email: str, change: str) -> None:
    """`change` done to the user and saved, by manage.py in a process of server 1's settings
    (its Redis, through its proxy): what Django admin or allauth would do."""
    find = f"from accounts.models import User; user = User.objects.get(email={email!r})"
    manage("shell", "-c", f"{find}; {change}; user.save()", env=env)


# --- (a) a change made on one server, the other's channel cut ------------------------------


def test_a_change_is_seen_on_the_other_server_while_its_channel_is_cut(pair):
    _, admin = account(pair.one, admin=True, env=pair.env)
    part_id = part(pair.one, admin, "12.34")
    pages = visitors_pages(part_id)
    keep(pair.two, pages)
    silence_listening(pair.two)

    patched = requests.patch(
        f"{pair.one.url}/api/allparts/{part_id}",
        json={"price": "98.76"},
        headers=bearer(admin),
        timeout=TIMEOUT,
    )
    assert patched.status_code == 200, patched.text
    assert seen_within(BOUND + SLACK, lambda: all(shows(pair.two, pages, "98.76"))) is not None
    assert not any(shows(pair.two, pages, "12.34"))

    # Every connection of server 2 to Redis silenced, new ones too: a deleted part is gone
    # from its pages all the same.
    pair.two.proxy.silence()
    deleted = requests.delete(
        f"{pair.one.url}/api/allparts/{part_id}", headers=bearer(admin), timeout=TIMEOUT
    )
    assert deleted.status_code == 200, deleted.text
    lists = ["/", "/allparts", "/api/allparts"]
    assert seen_within(BOUND + SLACK, lambda: not any(shows(pair.two, lists, "98.76")))
    assert pair.two.get(f"/parts/{part_id}").status_code == 404


# --- (b) a personal page after a change of who the person is --------------------------------


def order_of(server: Server, token: str, part_id: int) -> int:
    body = {"partId": part_id, "quantity": 1, "address": "1 Fault Road", "phone": "+15550100"}
    placed = requests.post(
        f"{server.url}/api/booking", json=body, headers=bearer(token), timeout=TIMEOUT
    )
    assert placed.status_code == 201, placed.text
    return placed.json()["_id"]


@pytest.mark.parametrize("change", ["demoted", "deactivated", "password changed", "signed out"])
def test_a_personal_page_never_outlives_a_change_of_who_its_person_is(pair, change):
    _, admin = account(pair.one, admin=True, env=pair.env)
    _, shopper = account(pair.one, env=pair.env)
    order = order_of(pair.one, shopper, part(pair.one, admin, "20.00"))
    email, _ = account(pair.one, admin=change == "demoted", env=pair.env)
    browser = signed_in(pair.one, email)
    # A shop admin reads another customer's order; anyone else their own orders.
    path = f"/dashboard/orders/{order}" if change == "demoted" else "/dashboard/myorder"
    kept = kept_once_more(pair.two, browser, path)
    silence_listening(pair.two)

    if change == "demoted":
        taken = requests.delete(
            f"{pair.one.url}/api/user/admin/{email}", headers=bearer(admin), timeout=TIMEOUT
        )
        assert taken.status_code == 200, taken.text
    elif change == "deactivated":
        change_user(pair.env, email, "user.is_active = False")
    elif change == "password changed":
        change_user(pair.env, email, "user.set_password('another secret 123')")
    else:
        signed_out = browser.post(
            f"{pair.one.url}/logout",
            data={"csrfmiddlewaretoken": browser.cookies["csrftoken"]},
            allow_redirects=False,
            timeout=TIMEOUT,
        )
        assert signed_out.status_code == 302

    answer = pair.two.get(path, browser)  # the very next request
    assert answer.text != kept.text
    if change == "demoted":
        assert answer.status_code == 404
    else:
        assert answer.status_code == 302 and answer.headers["Location"].startswith("/login")


# --- (c) a write by a server that cannot reach Redis --------------------------------------


def test_a_write_by_a_server_that_cannot_reach_redis_makes_the_pages_stale_anyway(pair):
    _, admin = account(pair.one, admin=True, env=pair.env)
    part_id = part(pair.one, admin, "31.15")
    pages = visitors_pages(part_id)
    keep(pair.two, pages)
    keep(pair.one, pages)

    pair.one.proxy.stop()  # server 1 cannot reach Redis; server 2 can
    patched = requests.patch(
        f"{pair.one.url}/api/allparts/{part_id}",
        json={"price": "77.15"},
        headers=bearer(admin),
        timeout=TIMEOUT,
    )
    assert patched.status_code == 200, patched.text
    assert all(shows(pair.one, pages, "77.15"))  # server 1 serves no page it kept
    assert seen_within(BOUND + SLACK, lambda: all(shows(pair.two, pages, "77.15"))) is not None
    pair.one.proxy.start()


# --- (d) another database, another deployment -----------------------------------------------


def test_another_databases_writes_never_reach_this_deployment(pair):
    redis.Redis(*REDIS, db=REDIS_DB).flushdb()
    _, admin = account(pair.one, admin=True, env=pair.env)
    pages = visitors_pages(part(pair.one, admin, "5.00"))
    keep(pair.two, pages)
    delivered = pair.two.proxy.delivered

    other = redis.Redis(*REDIS, db=OTHER_DB)
    try:
        with other.pipeline(transaction=False) as noise:
            for n in range(2000):  # another deployment's versions, under Django's default
                noise.set(f":1:version:noise{n}", n)  # prefix and under this one's
                noise.set(f"{pair.prefix}:1:version:noise{n}", n)
            noise.execute()
        time.sleep(1)
        assert pair.two.proxy.delivered == delivered  # not a byte reached server 2
    finally:
        other.flushdb()

    written = [key.decode() for key in redis.Redis(*REDIS, db=REDIS_DB).scan_iter(count=1000)]
    assert written and all(key.startswith(f"{pair.prefix}:") for key in written), [
        key for key in written if not key.startswith(f"{pair.prefix}:")
    ][:5]
    assert any(re.match(rf"{pair.prefix}:1:version:", key) for key in written)
