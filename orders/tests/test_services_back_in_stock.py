"""Every order change that puts stock back (a cancelled order, a lapsed hold released, a
refund, a return received into stock) mails a part's back-in-stock alerts once when it brings
the part back: catalog.alerts through catalog.stock."""

from datetime import timedelta

import pytest
from django.utils import timezone
from post_office.models import Email

from accounts.tests.factories import UserFactory
from catalog import alerts
from catalog.models import StockAlert
from catalog.tests.factories import PartFactory
from orders import services
from orders.models import Booking

pytestmark = pytest.mark.django_db


@pytest.fixture
def held(settings, user):
    """An order holding 2 of the part's 3 units: 1 left, below the minimum of 2; a rider
    waits for it."""
    settings.MAX_HELD_SHARE = 1
    part = PartFactory(name="Fork seal", available_quantity=3, minimum_order_quantity=2)
    booking = services.booking_place(user=user, part=part, quantity=2, address="a", phone="12345")
    rider = UserFactory(email="rider@example.com")
    alerts.stock_alert_ask(part_id=part.pk, user=rider)
    return booking


def back_mails() -> list[list[str]]:
    return [m.to for m in Email.objects.filter(subject="Back in stock: Fork seal")]


def test_a_cancelled_order_puts_the_part_back_and_mails_once(held):
    services.booking_cancel(booking=held)

    assert back_mails() == [["rider@example.com"]]
    assert not StockAlert.objects.filter(ended_at__isnull=True).exists()


def test_a_lapsed_hold_released_mails_once(held):
    Booking.objects.filter(pk=held.pk).update(expires_at=timezone.now() - timedelta(seconds=1))

    services.booking_release_lapsed_holds()
    services.booking_release_lapsed_holds()

    assert back_mails() == [["rider@example.com"]]


def test_a_refund_puts_the_stock_back_and_mails_once(held):
    Booking.objects.filter(pk=held.pk).update(paid=True, transaction_id="pi_outside")
    held.refresh_from_db()

    services.booking_refund(booking=held, outside_stripe=True)

    assert back_mails() == [["rider@example.com"]]


def shipped(booking: Booking) -> Booking:
    Booking.objects.filter(pk=booking.pk).update(paid=True, transaction_id="")
    services.booking_approve(booking=booking)
    return booking


def test_a_return_received_into_stock_mails_once(held):
    ret = services.return_request(
        booking=shipped(held), lines=[{"partId": held.part_id, "quantity": 1}], reason="other"
    )
    services.return_decide(ret=ret, state="approved")

    services.return_receive(ret=ret, restock=True)

    assert back_mails() == [["rider@example.com"]]


def test_a_shipped_order_refunded_puts_nothing_back_and_mails_nothing(held):
    services.booking_refund(booking=shipped(held), outside_stripe=True)

    assert back_mails() == []
    assert StockAlert.objects.filter(ended_at__isnull=True).count() == 1
