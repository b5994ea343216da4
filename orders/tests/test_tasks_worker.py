"""Through a real Celery worker (`celery -A shop worker --beat`) on the Redis broker (db 7):
the order is committed by the test, the task travels through Redis, and the worker, reading the
test database, sends the mail to the loopback SMTP server."""

import logging
import os
import signal
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path
from urllib.parse import quote, urlsplit

import pytest
import redis
from django.db import connection
from django.utils import timezone

from catalog.tests.factories import PartFactory
from orders.models import Booking
from orders.services import booking_place

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]  # Celery processes

ROOT = Path(__file__).resolve().parents[2]
SITE = "https://worker.example.test"


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


@pytest.fixture
def worker(broker_url, smtp_server, tmp_path):
    """`celery -A shop worker --beat` in a subprocess; stopped (and waited for) at the end."""
    log = tmp_path / "worker.log"
    env = {
        **os.environ,
        "ENV_FILE": "",
        "DATABASE_URL": database_url(),
        "CONN_MAX_AGE": "0",
        "REDIS_URL": broker_url,
        "EMAIL_HOST": "127.0.0.1",
        "EMAIL_PORT": str(smtp_server.port),
        "SITE_URL": SITE,
        "HOLDS_RELEASE_EVERY": "1",  # beat's release of lapsed holds, every second here
    }
    command = [
        *(sys.executable, "-m", "celery", "-A", "shop", "worker", "--beat"),
        *("--schedule", str(tmp_path / "celerybeat-schedule"), "--pool", "solo"),
        *("--without-gossip", "--without-mingle", "--without-heartbeat", "-l", "info"),
    ]
    with log.open("w") as out:
        process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=out)
    try:
        yield log
    finally:
        process.send_signal(signal.SIGTERM)  # a warm shutdown
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


def test_a_celery_worker_sends_the_placed_mail(
    settings, mailbox, broker_url, worker, as_user, user, caplog
):
    settings.CELERY_BROKER_URL = broker_url  # this process publishes to the worker's broker
    part = PartFactory(name="Fork seal kit")

    with caplog.at_level(logging.WARNING, logger="core.background"):
        response = as_user.post(
            "/api/booking",
            {"partId": part.pk, "quantity": 2, "address": "1 Road", "phone": "+441130000000"},
            format="json",
        )

    assert response.status_code == 201
    assert caplog.records == []  # published to the broker, not run in this process
    order_id = response.json()["insertedId"]
    [message] = mailbox.wait_for(1, timeout=30)
    assert message.envelope_to == [user.email]
    assert message["Subject"] == f"Order #{order_id} placed"
    assert f"{SITE}/dashboard/payment/{order_id}" in message.get_body(("plain",)).get_content()
    log = wait_for_text(worker, "orders.tasks.send_booking_placed")
    assert "beat: Starting" in log, log
    assert "orders.tasks.send_booking_placed" in log, log


def test_celery_beat_releases_lapsed_holds(worker, user):
    part = PartFactory(name="Brake lever", available_quantity=10, minimum_order_quantity=1)
    order = booking_place(user=user, part=part, quantity=4, address="1 Road", phone="5550100")
    Booking.objects.filter(pk=order.pk).update(expires_at=timezone.now() - timedelta(seconds=1))

    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and Booking.objects.get(pk=order.pk).released_at is None:
        time.sleep(0.2)

    order.refresh_from_db()
    part.refresh_from_db()
    assert order.released_at is not None, wait_for_text(worker, "release_lapsed_holds")
    assert (order.state, part.available_quantity) == ("expired", 10)
    assert "orders.periodic.release_lapsed_holds" in worker.read_text()
