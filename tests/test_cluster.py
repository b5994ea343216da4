"""Two app servers behind nginx on one PostgreSQL and one Redis: deploy/Procfile.cluster, run
by honcho (scripts/cluster.py prepares it, scripts/servers.py starts it).

The shop keeps nothing in one process: a session started on one app server goes on on the
other, a part changed through one shows on the other within a second, and nginx carries the traffic
through the loss of one of them without losing a request it may repeat or placing an order
twice. The cluster starts once for the module, on its own database and Redis db; it needs
PostgreSQL (DATABASE_URL) and Redis (REDIS_URL), and is skipped, saying which is missing,
otherwise; without nginx (which .ci/run installs) it fails.
"""

import io
import json
import os
import secrets
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import pytest
import requests
from PIL import Image

from core.caching.versions import TRUST
from scripts import cluster as cluster_script
from scripts.servers import ROOT, Cluster, manage, with_path
from tests.cluster_http import (
    ADMIN,
    SHOPPER,
    TIMEOUT,
    bearer,
    cluster_unavailable,
    csrf_token,
    page,
    part_ids,
)

pytestmark = [
    pytest.mark.slow,  # two gunicorn app servers behind nginx, started per module
    pytest.mark.postgres(reason="the cluster's app servers share a PostgreSQL database"),
]

CLUSTER_DATABASE = "/shop_cluster_test"
CLUSTER_REDIS_DB = "/13"
NGINX = Path("/usr/sbin/nginx")


@pytest.fixture(scope="module")
def cluster_media():
    """The cluster's media folder: temporary, and readable by nginx's unprivileged workers
    (pytest's own temporary folders are not)."""
    folder = Path(tempfile.mkdtemp(prefix="shop-cluster-media-"))
    folder.chmod(0o755)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory, cluster_media):
    reason = cluster_unavailable()
    if reason:
        pytest.skip(reason)
    if not NGINX.exists():
        pytest.fail(f"{NGINX} is missing: `apt-get install nginx` (.ci/run does)")
    env = cluster_script.prepare(
        tmp_path_factory.mktemp("cluster"),
        port=0,  # any free port
        database_url=with_path(os.environ["DATABASE_URL"], CLUSTER_DATABASE),
        redis_url=with_path(os.environ["REDIS_URL"], CLUSTER_REDIS_DB),
        workers=2,
        fresh=True,
        quiet=True,
        # One shopper orders through the failover without paying: lift the unpaid-order cap.
        settings={"MAX_UNPAID_ORDERS": "1000", "MEDIA_ROOT": str(cluster_media)},
    )
    shop = Cluster(env).start()
    try:
        for account in (SHOPPER, ADMIN):
            payload = {"name": "Cluster", "email": account.email, "password": account.password}
            signed_up = requests.post(f"{shop.url}/api/signup", json=payload, timeout=TIMEOUT)
            assert signed_up.status_code == 201, signed_up.text
        manage("make_admin", ADMIN.email, env={**os.environ, **env})
        yield shop
    finally:
        shop.stop()


def test_cluster_nginx_conf_is_the_production_site_on_loopback():
    """deploy/nginx/cluster.conf.template holds deploy/nginx/shop.conf's site (what compose
    runs) line for line, but for the addresses: the cluster tests what production runs."""

    def site(path: str) -> list[str]:
        text = (ROOT / "deploy" / "nginx" / path).read_text()
        lines = [line.strip() for line in text.splitlines()]
        lines = [line for line in lines if line and not line.startswith("#")]
        return lines[lines.index("map $uri $shop_static_cache_control {") :]

    production, cluster = site("shop.conf"), site("cluster.conf.template")
    addresses = ("listen ", "server app:", "server 127.0.0.1:", "alias ")
    assert [line for line in cluster[:-1] if not line.startswith(addresses)] == [
        line for line in production if not line.startswith(addresses)
    ]


def test_no_state_in_one_process_with_redis():
    """With REDIS_URL set the settings keep nothing per process (no local-memory cache); the
    same check finds the local-memory cache without it."""
    check = [sys.executable, str(ROOT / "scripts" / "cluster.py"), "check"]
    env = {**os.environ, "DEBUG": "0", "SECRET_KEY": "check-only"}
    shared = subprocess.run(
        check, env={**env, "REDIS_URL": "redis://127.0.0.1:6379/13"}, capture_output=True, text=True
    )
    assert shared.returncode == 0, shared.stdout + shared.stderr
    env.pop("REDIS_URL", None)
    local = subprocess.run(check, env=env, capture_output=True, text=True)
    assert local.returncode == 1
    assert "LocMemCache" in local.stdout


def test_session_started_on_one_app_server_goes_on_on_the_other(cluster):
    a, b = cluster.app_url(0), cluster.app_url(1)
    assert requests.get(f"{b}/dashboard", allow_redirects=False, timeout=TIMEOUT).is_redirect

    browser = requests.Session()
    signed_in = browser.post(
        f"{a}/login",
        data={
            "csrfmiddlewaretoken": csrf_token(browser, f"{a}/login"),
            "login": SHOPPER.email,
            "password": SHOPPER.password,
        },
        allow_redirects=False,
        timeout=TIMEOUT,
    )
    assert signed_in.status_code == 302, signed_in.text

    dashboard = browser.get(f"{b}/dashboard", allow_redirects=False, timeout=TIMEOUT)
    assert dashboard.status_code == 200
    assert "Welcome to your Dashboard" in dashboard.text
    me = browser.get(f"{b}/api/user/me", timeout=TIMEOUT)
    assert me.status_code == 200
    assert me.json()["email"] == SHOPPER.email

    # Signing out on B ends the session on A too.
    signed_out = browser.post(
        f"{b}/logout",
        data={"csrfmiddlewaretoken": csrf_token(browser, f"{b}/logout")},
        allow_redirects=False,
        timeout=TIMEOUT,
    )
    assert signed_out.status_code == 302
    assert browser.get(f"{a}/dashboard", allow_redirects=False, timeout=TIMEOUT).is_redirect


def test_an_unknown_host_gets_no_answer_from_nginx(cluster):
    """nginx's default server closes the connection (444) for any Host but the shop's names:
    no app server sees the request; the shop's own names are served."""
    with pytest.raises(requests.ConnectionError):
        requests.get(f"{cluster.url}/", headers={"Host": "evil.example"}, timeout=TIMEOUT)
    refused = [
        line
        for line in cluster.log("nginx-access").read_text().splitlines()
        if '"GET / HTTP/1.1" 444 ' in line
    ]
    assert refused and all("upstream=- " in line for line in refused), refused
    for host in ("127.0.0.1", "localhost:6666"):
        answer = requests.get(f"{cluster.url}/", headers={"Host": host}, timeout=TIMEOUT)
        assert answer.status_code == 200, host


def test_signing_in_through_nginx_as_a_browser_does(cluster):
    """nginx passes the host name without its port; the browser's Origin (with the port) is
    SITE_URL's, which Django trusts for CSRF."""
    browser = requests.Session()
    signed_in = browser.post(
        f"{cluster.url}/login",
        data={
            "csrfmiddlewaretoken": csrf_token(browser, f"{cluster.url}/login"),
            "login": SHOPPER.email,
            "password": SHOPPER.password,
        },
        headers={"Origin": cluster.url, "Referer": f"{cluster.url}/login"},
        allow_redirects=False,
        timeout=TIMEOUT,
    )
    assert signed_in.status_code == 302, signed_in.text
    assert "private" in signed_in.headers["Cache-Control"]


def soon(check) -> bool:
    """Whether `check()` holds within a second and a little (each process believes a version
    it has read for a second: core.caching.versions.TRUST), polled every 0.1 s."""
    deadline = time.monotonic() + TRUST + 1
    while not check():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


def test_part_changed_through_one_app_server_shows_on_the_other_within_a_second(cluster):
    a, b = cluster.app_url(0), cluster.app_url(1)
    admin = bearer(a, ADMIN)
    name = f"Cluster sprocket {secrets.token_hex(4)}"
    # Both app servers have rendered (and may have cached) the catalog before the change.
    for base in (a, b):
        for path in ("/", "/allparts"):
            assert name not in page(base, path)
        part_ids(base)

    added = requests.post(
        f"{a}/api/allparts",
        json={
            "name": name,
            "description": "Added through app server A.",
            "price": 12.5,
            "minimumOrderQuantity": 1,
            "availableQuantity": 40,
        },
        headers=admin,
        timeout=TIMEOUT,
    )
    assert added.status_code == 201, added.text
    part_id = added.json()["_id"]
    assert soon(lambda: name in page(b, "/allparts"))
    assert soon(lambda: name in page(b, "/"))  # the home page's newest parts
    assert soon(lambda: part_ids(b)[0] == part_id)

    requests.get(f"{a}/api/allparts/{part_id}", timeout=TIMEOUT)
    changed = requests.post(
        f"{b}/api/allparts/{part_id}/stock",
        json={"change": -33, "reason": "Written off: water damage"},
        headers=admin,
        timeout=TIMEOUT,
    )
    assert changed.status_code == 200, changed.text

    def listed_stock() -> int | None:
        """The part's stock as A lists it; None while A's list is not yet the new one (a
        worker may believe the versions it read for a second): soon() asks again."""
        listed = requests.get(f"{a}/api/allparts", timeout=TIMEOUT).json()
        return next((p["availableQuantity"] for p in listed if p["_id"] == part_id), None)

    assert soon(lambda: listed_stock() == 7)
    shown = requests.get(f"{a}/api/allparts/{part_id}", timeout=TIMEOUT).json()
    assert shown["availableQuantity"] == 7

    deleted = requests.delete(f"{b}/api/allparts/{part_id}", headers=admin, timeout=TIMEOUT)
    assert deleted.status_code == 200
    assert soon(lambda: name not in page(a, "/allparts"))
    assert soon(lambda: name not in page(a, "/"))
    assert soon(lambda: part_id not in part_ids(a))


def test_an_image_uploaded_through_one_app_server_is_served_by_nginx(cluster):
    """Both app servers store uploads in the one media folder; nginx serves /media/ from it
    (no app server is asked: the answer carries none of the app's headers)."""
    image = io.BytesIO()
    Image.new("RGB", (32, 24), "orange").save(image, "PNG")
    added = requests.post(
        f"{cluster.url}/api/allparts",
        data={
            "name": f"Cluster mirror {secrets.token_hex(4)}",
            "price": "19.50",
            "minimumOrderQuantity": "1",
            "availableQuantity": "3",
        },
        files={"image": ("mirror.png", image.getvalue(), "image/png")},
        headers=bearer(cluster.url, ADMIN),
        timeout=TIMEOUT,
    )
    assert added.status_code == 201, added.text
    img = added.json()["img"]
    assert img.startswith("/media/parts/")

    served = requests.get(f"{cluster.url}{img}", timeout=TIMEOUT)
    assert served.status_code == 200
    assert served.headers["Content-Type"] == "image/png"
    assert "Content-Security-Policy" not in served.headers  # nginx's answer, not Django's
    assert Image.open(io.BytesIO(served.content)).size == (32, 24)
    for app in (0, 1):  # and an app server alone (no nginx in front) serves it too
        assert requests.get(f"{cluster.app_url(app)}{img}", timeout=TIMEOUT).status_code == 200


PAGES = ("/", "/allparts", "/api/allparts?limit=5", "/blogs")
ORDERS = 15  # below the orders throttle (30 a minute per user)


def test_stopping_one_app_server_loses_no_request_and_no_order(cluster):
    """GETs and orders go through nginx while app server A stops (SIGTERM). Every GET is
    answered 200 (nginx repeats on B what A refused); every 201 is one order in the database,
    and an order nginx could not deliver (502) was not placed: orders = 201s, stock adds up."""
    url = cluster.url
    admin, shopper = bearer(url, ADMIN), bearer(url, SHOPPER)
    stock = 1000
    added = requests.post(
        f"{url}/api/allparts",
        json={
            "name": "Failover chain",
            "price": 3,
            "minimumOrderQuantity": 1,
            "availableQuantity": stock,
        },
        headers=admin,
        timeout=TIMEOUT,
    )
    assert added.status_code == 201, added.text
    part_id = added.json()["_id"]

    done = threading.Event()
    gets: list[tuple[float, str, object]] = []
    orders: list[tuple[object, int | None, int]] = []
    order_times: list[float] = []

    def browse() -> None:
        with requests.Session() as session:
            while not done.is_set():
                for path in PAGES:
                    try:
                        status = session.get(f"{url}{path}", timeout=TIMEOUT).status_code
                    except requests.RequestException as error:
                        status = repr(error)
                    gets.append((time.monotonic(), path, status))

    def buy() -> None:
        for number in range(ORDERS):
            if done.is_set():
                return
            quantity = 1 + number % 3
            order_times.append(time.monotonic())
            try:
                answer = requests.post(
                    f"{url}/api/booking",
                    json={
                        "partId": part_id,
                        "quantity": quantity,
                        "address": "1 Loop Road",
                        "phone": "5550100",
                    },
                    headers=shopper,
                    timeout=TIMEOUT,
                )
                booking_id = answer.json().get("_id") if answer.status_code == 201 else None
                orders.append((answer.status_code, booking_id, quantity))
            except requests.RequestException as error:
                orders.append((repr(error), None, quantity))
            time.sleep(0.3)  # orders before, during and after the stop

    workers = [threading.Thread(target=browse) for _ in range(3)] + [threading.Thread(target=buy)]
    for worker in workers:
        worker.start()
    try:
        time.sleep(1.0)
        assert cluster.stop_app(0) == 0  # gunicorn exits cleanly once its requests are done
        stopped_at = time.monotonic()
        time.sleep(3.0)
    finally:
        done.set()
        for worker in workers:
            worker.join(timeout=60)
        cluster.start_app(0)

    failed = [(path, status) for _, path, status in gets if status != 200]
    assert not failed, f"{len(failed)} of {len(gets)} GETs failed: {failed[:5]}"
    assert sum(1 for at, _, _ in gets if at > stopped_at) >= 20, "too few GETs after the stop"
    assert any(at > stopped_at for at in order_times), "no order after the stop"
    # nginx met A gone at least once and sent that request on to B ("A, B" in its log).
    a_port = cluster.app_ports[0]
    retried = [
        line
        for line in cluster.log("nginx-access").read_text().splitlines()
        if f"upstream=127.0.0.1:{a_port}, " in line
    ]
    assert retried, "no request was sent on from the stopped app server"

    assert {status for status, _, _ in orders} <= {201, 502}, orders
    placed = {booking_id: quantity for status, booking_id, quantity in orders if status == 201}
    assert len(placed) >= ORDERS // 2, orders
    answer = requests.get(
        f"{url}/api/booking",
        params={"email": SHOPPER.email},
        headers=shopper,
        timeout=TIMEOUT,
    )
    stored = {b["_id"]: b["quantity"] for b in answer.json() if b["partId"] == part_id}
    assert stored == placed, json.dumps({"stored": stored, "answered 201": placed})
    part = requests.get(f"{url}/api/allparts/{part_id}", timeout=TIMEOUT).json()
    assert part["availableQuantity"] == stock - sum(stored.values())
