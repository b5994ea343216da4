"""Paying for an order through the API (the PaymentIntent, the confirmation) against the fake
Stripe server."""

from decimal import Decimal

import pytest
import stripe

from orders.models import Booking
from orders.payments import (
    NOT_CONFIGURED,
    NOT_SUCCEEDED,
    PROVIDER_FAILED,
    UNKNOWN_INTENT,
    WRONG_AMOUNT,
    WRONG_INTENT,
)
from orders.services import ALREADY_PAID
from orders.tests.factories import BookingFactory
from orders.tests.stripe_helpers import DECLINED_CARD, intent_id_of, pay, stripe_client
from tests.stripe_fake import free_port


@pytest.fixture
def order(user):
    return BookingFactory(
        user=user, price_per_unit=Decimal("12.25"), quantity=4, total_price=Decimal("49.00")
    )


def start(client, booking) -> str:
    response = client.post(
        "/api/create-payment-intent", {"booking": booking.pk, "totalPrice": 0.5}, format="json"
    )
    assert response.status_code == 200, response.content
    return response.json()["clientSecret"]


def confirm(client, booking, intent_id):
    return client.patch(
        f"/api/booking/{booking.pk}",
        {"transactionId": intent_id, "booking": booking.pk},
        format="json",
    )


def unchanged(booking) -> bool:
    fresh = Booking.objects.get(pk=booking.pk)
    return not fresh.paid and fresh.transaction_id == booking.transaction_id


class TestCreatePaymentIntent:
    def test_the_amount_comes_from_the_stored_order(self, stripe_on, as_user, order):
        secret = start(as_user, order)
        intent = stripe_client().v1.payment_intents.retrieve(intent_id_of(secret))
        assert (intent.amount, intent.currency) == (4900, "usd")
        assert intent.metadata["booking_id"] == str(order.pk)
        order.refresh_from_db()
        assert order.payment_intent_id == intent.id

    def test_repeated_calls_reuse_one_intent(self, stripe_on, as_user, order):
        assert start(as_user, order) == start(as_user, order)

    @pytest.mark.parametrize(
        ("client_name", "status"), [("anon", 401), ("as_other", 404), ("as_admin", 404)]
    )
    def test_only_the_owner(self, request, stripe_on, order, client_name, status):
        client = request.getfixturevalue(client_name)
        response = client.post("/api/create-payment-intent", {"booking": order.pk}, format="json")
        assert response.status_code == status

    def test_a_paid_order_is_refused(self, stripe_on, as_user, user):
        paid = BookingFactory(user=user, paid_order=True)
        response = as_user.post("/api/create-payment-intent", {"booking": paid.pk}, format="json")
        assert response.status_code == 409
        assert response.json() == {"detail": ALREADY_PAID}

    @pytest.mark.parametrize("payload", [{}, {"booking": "x"}, {"booking": 0}])
    def test_bad_input(self, stripe_on, as_user, payload):
        response = as_user.post("/api/create-payment-intent", payload, format="json")
        assert response.status_code == 400
        assert list(response.json()) == ["booking"]

    def test_not_configured_is_503(self, settings, as_user, order):
        settings.STRIPE_SECRET_KEY = settings.STRIPE_PUBLISHABLE_KEY = ""
        response = as_user.post("/api/create-payment-intent", {"booking": order.pk}, format="json")
        assert response.status_code == 503
        assert response.json() == {"detail": NOT_CONFIGURED}

    def test_stripe_unreachable_is_502_and_nothing_changes(
        self, stripe_on, settings, as_user, order
    ):
        settings.STRIPE_API_BASE = f"http://127.0.0.1:{free_port()}"
        response = as_user.post("/api/create-payment-intent", {"booking": order.pk}, format="json")
        assert response.status_code == 502
        assert response.json() == {"detail": PROVIDER_FAILED}
        order.refresh_from_db()
        assert order.payment_intent_id == ""


class TestConfirmPayment:
    def test_a_successful_payment_marks_the_order_paid(self, stripe_on, as_user, order):
        intent_id = intent_id_of(start(as_user, order))
        assert pay(intent_id).status == "succeeded"
        response = confirm(as_user, order, intent_id)
        assert response.status_code == 200
        body = response.json()
        assert (body["paid"], body["transactionId"], body["state"]) == (True, intent_id, "pending")
        again = confirm(as_user, order, intent_id)
        assert again.status_code == 200

    def test_a_declined_card_leaves_the_order_unpaid(self, stripe_on, as_user, order):
        intent_id = intent_id_of(start(as_user, order))
        with pytest.raises(stripe.CardError):
            pay(intent_id, card=DECLINED_CARD)
        response = confirm(as_user, order, intent_id)
        assert response.status_code == 400
        assert response.json() == {"detail": NOT_SUCCEEDED}
        assert unchanged(order)

    def test_a_made_up_transaction_id(self, stripe_on, as_user, order):
        response = confirm(as_user, order, "pi_madeup123")
        assert response.status_code == 400
        assert response.json() == {"detail": UNKNOWN_INTENT}
        assert unchanged(order)

    def test_another_orders_payment(self, stripe_on, as_user, user, order):
        other_order = BookingFactory(user=user)
        intent_id = intent_id_of(start(as_user, other_order))
        pay(intent_id)
        response = confirm(as_user, order, intent_id)
        assert response.status_code == 400
        assert response.json() == {"detail": WRONG_INTENT}
        assert unchanged(order)

    def test_an_intent_with_another_amount(self, stripe_on, as_user, order):
        intent = stripe_client().v1.payment_intents.create(
            params={
                "amount": 100,
                "currency": "usd",
                "metadata": {"booking_id": str(order.pk)},
                "payment_method_types": ["card"],
            }
        )
        pay(intent.id)
        response = confirm(as_user, order, intent.id)
        assert response.status_code == 400
        assert response.json() == {"detail": WRONG_AMOUNT}
        assert unchanged(order)

    def test_someone_elses_order(self, stripe_on, as_user, as_other, order):
        intent_id = intent_id_of(start(as_user, order))
        pay(intent_id)
        assert confirm(as_other, order, intent_id).status_code == 404
        assert unchanged(order)

    def test_a_paid_order_keeps_its_payment(self, stripe_on, as_user, user):
        paid = BookingFactory(user=user, paid_order=True, transaction_id="pi_first")
        response = confirm(as_user, paid, "pi_second")
        assert response.status_code == 409
        assert Booking.objects.get(pk=paid.pk).transaction_id == "pi_first"

    def test_transaction_id_is_required(self, stripe_on, as_user, order):
        response = as_user.patch(f"/api/booking/{order.pk}", {}, format="json")
        assert response.status_code == 400
        assert list(response.json()) == ["transactionId"]

    def test_stripe_unreachable_is_502(self, stripe_on, settings, as_user, order):
        settings.STRIPE_API_BASE = f"http://127.0.0.1:{free_port()}"
        response = confirm(as_user, order, "pi_whatever")
        assert response.status_code == 502
        assert unchanged(order)
