"""Through a real Celery worker (`celery -A shop worker --beat`) on the Redis broker (db 7):
the order and its mail (in the outbox) are committed by the test, the task travels through
Redis, and the worker, reading the test database, sends the mail to the loopback SMTP server;
beat's periodic work of orders (orders/periodic.py) runs in it too."""

import logging
import time
from datetime import timedelta

import pytest
from django.utils import timezone

from catalog.tests.factories import PartFactory
from orders.models import Booking
from orders.services import booking_place
from orders.tests.worker import SITE, start_worker, stop_worker, wait_for_text

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]  # Celery processes


@pytest.fixture
def worker(broker_url, smtp_server, tmp_path):
    """`celery -A shop worker --beat` in a subprocess; stopped (and waited for) at the end."""
    log = tmp_path / "worker.log"
    process = start_worker(broker_url, smtp_server.port, tmp_path, log)
    try:
        yield log
    finally:
        stop_worker(process)


def test_a_celery_worker_sends_the_placed_mail(
    settings, mailbox, broker_url, worker, as_user, user, caplog
):
    settings.CELERY_BROKER_URL = broker_url  # this process publishes to the worker's broker
    settings.SITE_URL = SITE  # the mail is composed here, with the order; the worker sends it
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
    log = wait_for_text(worker, "core.tasks.send_outbox")
    assert "beat: Starting" in log, log
    assert "core.tasks.send_outbox" in log, log


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
