"""Money and stock under real concurrency (threads on PostgreSQL, real row locks, the fake
Stripe): pay vs delete, pay vs expiry, delete vs delete, refund vs refund, approve vs refund.
Never a 500, never money lost: an order ends paid or refunded consistently with Stripe, and
the stock reconciles."""

import threading
from datetime import timedelta
from decimal import Decimal

import pytest
from django.db import connections
from django.utils import timezone

from accounts.tests.factories import AdminFactory, UserFactory
from catalog.models import Part
from catalog.tests.factories import PartFactory
from conftest import bearer_client
from orders import services
from orders.models import Booking
from orders.tests.stripe_helpers import intent_id_of, pay, stripe_client

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.slow,  # threads racing on real row locks and the fake Stripe, 1-2 s each
]

ROUNDS = 6
STOCK = 10
QUANTITY = 2


def race(*actions):
    """Run `actions` at once (a barrier releases them together); their results or errors."""
    start = threading.Barrier(len(actions))
    results = [None] * len(actions)

    def run(index, action):
        try:
            start.wait()
            results[index] = action()
        except Exception as exc:  # a card refused at Stripe is a result here too
            results[index] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i, a)) for i, a in enumerate(actions)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def stock(part) -> int:
    return Part.objects.get(pk=part.pk).available_quantity


def refunded_cents(intent_id: str) -> int:
    refunds = stripe_client().v1.refunds.list(params={"payment_intent": intent_id})
    return sum(r.amount for r in refunds.data)


def status_code(result) -> int | None:
    return getattr(result, "status_code", None)


@pytest.fixture
def shopper(stripe_on):
    user = UserFactory()
    return user, bearer_client(user)


@pytest.fixture
def admin(stripe_on):
    return bearer_client(AdminFactory())


def placed(user, part) -> Booking:
    return services.booking_place(
        user=user, part=part, quantity=QUANTITY, address="a", phone="12345"
    )


def with_intent(user, part) -> tuple[Booking, str]:
    booking = placed(user, part)
    return booking, intent_id_of(services.booking_start_payment(booking=booking))


def card_paid(user, part) -> Booking:
    booking, intent_id = with_intent(user, part)
    pay(intent_id)
    return services.booking_confirm_payment(booking=booking, transaction_id=intent_id)


def test_pay_vs_delete(shopper):
    user, client = shopper
    part = PartFactory(price=Decimal("10.00"), minimum_order_quantity=1, available_quantity=50)
    outcomes = set()
    for _ in range(ROUNDS):
        booking, intent_id = with_intent(user, part)

        def pay_and_confirm(booking=booking, intent_id=intent_id):
            pay(intent_id)
            body = {"transactionId": intent_id}
            return client.patch(f"/api/booking/{booking.pk}", body, format="json")

        paying, deleting = race(
            pay_and_confirm, lambda pk=booking.pk: client.delete(f"/api/booking/{pk}")
        )
        assert status_code(paying) in (None, 200, 404), paying
        assert status_code(deleting) in (200, 409), deleting.content
        intent = stripe_client().v1.payment_intents.retrieve(intent_id)
        order = Booking.objects.filter(pk=booking.pk).first()
        if intent.status == "succeeded":
            # Charged: the order is paid, or the money went back in full.
            assert (order is not None and order.state == "pending") or refunded_cents(
                intent_id
            ) == 2000
            outcomes.add("paid")
        else:
            assert intent.status == "canceled"
            assert order is None
            outcomes.add("deleted")
    held = sum(b.quantity for b in Booking.objects.of_parts([part.pk]))
    assert stock(part) + held == 50
    assert outcomes  # which side wins varies; both must keep the books straight


def test_pay_vs_expiry_release(shopper):
    user, client = shopper
    part = PartFactory(price=Decimal("10.00"), minimum_order_quantity=1, available_quantity=50)
    for _ in range(ROUNDS):
        booking, intent_id = with_intent(user, part)
        Booking.objects.filter(pk=booking.pk).update(
            expires_at=timezone.now() - timedelta(seconds=1)
        )
        pay(intent_id)

        def confirm(booking=booking, intent_id=intent_id):
            body = {"transactionId": intent_id}
            return client.patch(f"/api/booking/{booking.pk}", body, format="json")

        confirming, _released = race(confirm, services.booking_release_lapsed_holds)
        assert status_code(confirming) == 200, confirming.content
        order = Booking.objects.get(pk=booking.pk)
        assert (order.state, order.released_at) == ("pending", None)
    assert stock(part) == 50 - ROUNDS * QUANTITY


def test_delete_vs_delete(shopper):
    user, client = shopper
    part = PartFactory(minimum_order_quantity=1, available_quantity=STOCK)
    for _ in range(ROUNDS):
        booking, _intent = with_intent(user, part)
        answers = race(*[lambda pk=booking.pk: client.delete(f"/api/booking/{pk}")] * 2)
        bodies = sorted((a.status_code, a.json().get("deletedCount")) for a in answers)
        assert bodies in ([(200, 0), (200, 1)], [(200, 1), (404, None)]), bodies
        assert stock(part) == STOCK
    assert not Booking.objects.exists()


def test_refund_vs_refund(shopper, admin):
    user, _client = shopper
    part = PartFactory(price=Decimal("10.00"), minimum_order_quantity=1, available_quantity=50)
    for _ in range(ROUNDS):
        booking = card_paid(user, part)
        answers = race(*[lambda pk=booking.pk: admin.post(f"/api/booking/{pk}/refund")] * 2)
        assert sorted(a.status_code for a in answers) == [200, 409]
        assert refunded_cents(booking.transaction_id) == 2000
        assert Booking.objects.get(pk=booking.pk).state == "refunded"
    assert stock(part) == 50


def test_approve_vs_refund(shopper, admin):
    user, _client = shopper
    part = PartFactory(price=Decimal("10.00"), minimum_order_quantity=1, available_quantity=50)
    for _ in range(ROUNDS):
        booking = card_paid(user, part)
        approving, refunding = race(
            lambda pk=booking.pk: admin.put(
                f"/api/booking/{pk}", {"status": "approved"}, format="json"
            ),
            lambda pk=booking.pk: admin.post(f"/api/booking/{pk}/refund"),
        )
        assert refunding.status_code == 200, refunding.content
        assert approving.status_code in (200, 409), approving.content
        order = Booking.objects.get(pk=booking.pk)
        assert order.state == "refunded"
        assert refunded_cents(booking.transaction_id) == 2000
    # Stock went back for the orders refunded before they shipped, and only for those.
    shipped = Booking.objects.of_parts([part.pk]).filter(status="approved").count()
    assert stock(part) == 50 - shipped * QUANTITY
