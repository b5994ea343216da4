"""Returns under real concurrency (threads on PostgreSQL, real row locks, the fake Stripe):
two receives of one return refund it once; a receive racing a refund in full of the same
order never refunds more than was paid, and the order ends refunded with Stripe agreeing."""

from decimal import Decimal

import pytest

from accounts.tests.factories import AdminFactory, UserFactory
from catalog.models import Part
from catalog.tests.factories import PartFactory
from conftest import bearer_client
from orders import services
from orders.models import Booking, Return
from orders.tests.stripe_helpers import intent_id_of, pay
from orders.tests.test_services_races import race, refunded_cents, status_code

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.slow,  # threads racing on real row locks and the fake Stripe
]

ROUNDS = 4


@pytest.fixture
def admin(stripe_on):
    return bearer_client(AdminFactory())


def shipped_with_approved_return(part) -> tuple[Booking, Return]:
    """3 units at $10 paid by card and shipped; a return of 1 unit approved."""
    user = UserFactory()
    booking = services.booking_place(user=user, part=part, quantity=3, address="a", phone="12345")
    intent_id = intent_id_of(services.booking_start_payment(booking=booking))
    pay(intent_id)
    booking = services.booking_confirm_payment(booking=booking, transaction_id=intent_id)
    services.booking_approve(booking=booking)
    ret = services.return_request(
        booking=booking, lines=[{"partId": part.pk, "quantity": 1}], reason="damaged"
    )
    return booking, services.return_decide(ret=ret, state="approved")


def test_two_receives_of_one_return_refund_once(admin):
    part = PartFactory(price=Decimal("10.00"), minimum_order_quantity=1, available_quantity=100)
    for _ in range(ROUNDS):
        booking, ret = shipped_with_approved_return(part)
        before = Part.objects.get(pk=part.pk).available_quantity
        url = f"/api/returns/{ret.pk}/receive"
        first, second = race(
            lambda url=url: admin.post(url, {"restock": True}, format="json"),
            lambda url=url: admin.post(url, {"restock": True}, format="json"),
        )
        assert sorted([status_code(first), status_code(second)]) == [200, 409]
        assert refunded_cents(booking.transaction_id) == 1000
        assert Part.objects.get(pk=part.pk).available_quantity == before + 1
        booking.refresh_from_db()
        assert booking.refunded_amount == Decimal("10.00")


def test_a_receive_racing_a_refund_in_full_never_refunds_more_than_was_paid(admin):
    part = PartFactory(price=Decimal("10.00"), minimum_order_quantity=1, available_quantity=100)
    for _ in range(ROUNDS):
        booking, ret = shipped_with_approved_return(part)
        receiving, refunding = race(
            lambda pk=ret.pk: admin.post(
                f"/api/returns/{pk}/receive", {"restock": False}, format="json"
            ),
            lambda pk=booking.pk: admin.post(f"/api/booking/{pk}/refund"),
        )
        assert status_code(refunding) == 200, refunding
        assert status_code(receiving) in (200, 409), receiving
        # Whichever came second saw the other: the card got the whole total back, once.
        assert refunded_cents(booking.transaction_id) == 3000
        booking.refresh_from_db()
        assert (booking.state, booking.refunded_amount) == ("refunded", Decimal("30.00"))
        ret.refresh_from_db()
        if status_code(receiving) == 409:
            assert ret.state == "approved"
        else:
            assert (ret.state, ret.refund_amount) == ("refunded", Decimal("10.00"))
