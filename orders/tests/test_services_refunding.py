"""Refunds (POST /api/booking/{id}/refund): Stripe first, then the order and stock."""

from decimal import Decimal

import pytest

from catalog.models import Part
from catalog.tests.factories import PartFactory
from orders import services
from orders.models import Booking
from orders.payments import REFUND_FAILED
from orders.services import ORDER_REFUNDED, REFUND_UNPAID
from orders.tests.factories import BookingFactory
from orders.tests.stripe_helpers import intent_id_of, pay, stripe_client
from tests.stripe_fake import free_port

pytestmark = pytest.mark.django_db


@pytest.fixture
def part(db):
    return PartFactory(price=Decimal("15.00"), minimum_order_quantity=1, available_quantity=10)


@pytest.fixture
def paid(stripe_on, user, part) -> Booking:
    """An order paid by card at the fake Stripe: 3 units, $45.00."""
    booking = services.booking_place(user=user, part=part, quantity=3, address="a", phone="12345")
    intent_id = intent_id_of(services.booking_start_payment(booking=booking))
    pay(intent_id)
    return services.booking_confirm_payment(booking=booking, transaction_id=intent_id)


def refund(client, booking):
    return client.post(f"/api/booking/{booking.pk}/refund")


def refunded_cents(intent_id: str) -> int:
    refunds = stripe_client().v1.refunds.list(params={"payment_intent": intent_id})
    return sum(r.amount for r in refunds.data)


def stock(part) -> int:
    return Part.objects.get(pk=part.pk).available_quantity


def test_an_admin_refunds_a_paid_order_in_full(as_admin, paid, part):
    assert stock(part) == 7
    response = refund(as_admin, paid)
    assert response.status_code == 200
    assert response.json()["state"] == "refunded"
    assert refunded_cents(paid.transaction_id) == 4500
    assert stock(part) == 10
    paid.refresh_from_db()
    assert paid.refund_id.startswith("re_")


def test_a_shipped_order_refunded_keeps_its_stock_out(as_admin, paid, part):
    services.booking_approve(booking=paid)
    assert refund(as_admin, paid).status_code == 200
    assert stock(part) == 7


def test_refunding_twice_is_a_409_and_refunds_once(as_admin, paid):
    assert refund(as_admin, paid).status_code == 200
    again = refund(as_admin, paid)
    assert again.status_code == 409
    assert again.json() == {"detail": ORDER_REFUNDED}
    assert refunded_cents(paid.transaction_id) == 4500


def test_an_unpaid_order_cannot_be_refunded(stripe_on, as_admin, user):
    booking = BookingFactory(user=user)
    response = refund(as_admin, booking)
    assert response.status_code == 409
    assert response.json() == {"detail": REFUND_UNPAID}


def test_stripe_failing_is_a_502_and_nothing_changes(settings, as_admin, paid, part):
    settings.STRIPE_API_BASE = f"http://127.0.0.1:{free_port()}"
    response = refund(as_admin, paid)
    assert response.status_code == 502
    assert Booking.objects.get(pk=paid.pk).state == Booking.State.PENDING
    assert stock(part) == 7


def test_stripe_refusing_is_a_502_and_nothing_changes(stripe_on, as_admin, user):
    booking = BookingFactory(user=user, paid_order=True, transaction_id="pi_unknown_to_stripe")
    response = refund(as_admin, booking)
    assert response.status_code == 502
    assert response.json() == {"detail": REFUND_FAILED}
    assert Booking.objects.get(pk=booking.pk).state == Booking.State.PENDING


@pytest.mark.parametrize(("client_name", "status"), [("anon", 401), ("as_user", 403)])
def test_only_admins_refund(request, paid, client_name, status):
    assert refund(request.getfixturevalue(client_name), paid).status_code == status
    assert Booking.objects.get(pk=paid.pk).state == Booking.State.PENDING


def test_an_unknown_order_is_a_404(as_admin, db):
    assert as_admin.post("/api/booking/987654/refund").status_code == 404


def test_a_refunded_order_cannot_be_approved_paid_or_deleted(as_admin, as_user, paid):
    refund(as_admin, paid)
    assert as_admin.put(
        f"/api/booking/{paid.pk}", {"status": "approved"}, format="json"
    ).json() == {"detail": ORDER_REFUNDED}
    assert as_user.delete(f"/api/booking/{paid.pk}").status_code == 409
    response = as_user.post("/api/create-payment-intent", {"booking": paid.pk}, format="json")
    assert response.status_code == 409


def test_a_refund_without_stripe_is_recorded_for_the_demo_only(user, part):
    """`outside_stripe` records money returned some other way and never calls Stripe (the
    demo data: no card was charged)."""
    booking = BookingFactory(user=user, part=part, quantity=2, paid_order=True)
    services.booking_refund(booking=booking, outside_stripe=True)
    assert (booking.state, booking.refund_id) == ("refunded", "")
    assert stock(part) == 12
