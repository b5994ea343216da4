"""Two stock rises at once mail each live alert once: the rises wait for each other on the
part's row lock, so only the first finds the part out of stock (real threads and locks)."""

import threading

import pytest
from django.db import connections
from post_office.models import Email

from accounts.tests.factories import AdminFactory, UserFactory
from catalog import alerts, stock
from catalog.models import StockAlert
from catalog.tests.factories import PartFactory

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

RISES = 4


def test_rises_that_race_mail_each_alert_once():
    part = PartFactory(name="Brake lever", available_quantity=0, minimum_order_quantity=2)
    riders = [UserFactory() for _ in range(3)]
    for rider in riders:
        alerts.stock_alert_ask(part_id=part.pk, user=rider)
    admin = AdminFactory()
    start = threading.Barrier(RISES)
    failures = []

    def rise():
        try:
            start.wait()
            stock.stock_adjust(part=part, change=5, note="delivery", by=admin)
        except Exception as error:
            failures.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=rise) for _ in range(RISES)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert failures == []
    part.refresh_from_db()
    assert part.available_quantity == 5 * RISES
    mails = Email.objects.filter(subject="Back in stock: Brake lever")
    assert sorted(m.to[0] for m in mails) == sorted(r.email for r in riders)
    assert not StockAlert.objects.filter(ended_at__isnull=True).exists()
