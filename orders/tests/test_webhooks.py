"""Stripe's webhook: signed events mark orders paid once, whatever arrives twice."""

import time
from urllib.request import Request, urlopen

import pytest
import stripe

from orders.models import Booking, PaymentEvent
from orders.payments import PROVIDER_FAILED, amount_in_cents
from orders.tests.factories import BookingFactory
from orders.tests.stripe_helpers import (
    DECLINED_CARD,
    intent_event,
    intent_id_of,
    pay,
    signed,
    stripe_client,
)
from tests import stripe_fake
from tests.stripe_fake import free_port

URL = "/api/stripe/webhook"


@pytest.fixture
def order(user):
    return BookingFactory(user=user)


def paid_intent(client, booking) -> dict:
    secret = client.post(
        "/api/create-payment-intent", {"booking": booking.pk}, format="json"
    ).json()["clientSecret"]
    return pay(intent_id_of(secret)).to_dict()


def deliver(anon, event: dict, secret: str | None = None):
    body, signature = signed(event, secret)
    return anon.post(URL, body, content_type="application/json", HTTP_STRIPE_SIGNATURE=signature)


def test_a_signed_success_event_marks_the_order_paid(stripe_on, anon, as_user, order):
    intent = paid_intent(as_user, order)
    response = deliver(anon, intent_event("evt_1", "payment_intent.succeeded", intent))
    assert response.status_code == 200
    order.refresh_from_db()
    assert (order.paid, order.transaction_id) == (True, intent["id"])
    assert PaymentEvent.objects.get().outcome == PaymentEvent.Outcome.PAID


def test_the_same_event_twice_changes_the_order_once(stripe_on, anon, as_user, order):
    intent = paid_intent(as_user, order)
    event = intent_event("evt_twice", "payment_intent.succeeded", intent)
    assert deliver(anon, event).status_code == 200
    assert deliver(anon, event).status_code == 200
    assert PaymentEvent.objects.count() == 1
    assert Booking.objects.get(pk=order.pk).paid


def test_webhook_after_patch_changes_nothing_more(stripe_on, anon, as_user, order):
    intent = paid_intent(as_user, order)
    patch = as_user.patch(
        f"/api/booking/{order.pk}", {"transactionId": intent["id"]}, format="json"
    )
    assert patch.status_code == 200
    deliver(anon, intent_event("evt_late", "payment_intent.succeeded", intent))
    assert PaymentEvent.objects.get().outcome == PaymentEvent.Outcome.ALREADY_PAID


@pytest.mark.parametrize("signature", ["", "t=1,v1=deadbeef"])
def test_a_bad_or_missing_signature_is_a_400(stripe_on, anon, as_user, order, signature):
    intent = paid_intent(as_user, order)
    body, _ = signed(intent_event("evt_forged", "payment_intent.succeeded", intent))
    response = anon.post(
        URL, body, content_type="application/json", HTTP_STRIPE_SIGNATURE=signature
    )
    assert response.status_code == 400
    assert not Booking.objects.get(pk=order.pk).paid
    assert not PaymentEvent.objects.exists()


def test_a_signature_with_another_secret_is_a_400(stripe_on, anon, as_user, order):
    intent = paid_intent(as_user, order)
    response = deliver(
        anon, intent_event("evt_x", "payment_intent.succeeded", intent), secret="whsec_other"
    )
    assert response.status_code == 400
    assert not Booking.objects.get(pk=order.pk).paid


def test_a_failed_payment_is_recorded(stripe_on, anon, as_user, order):
    secret = as_user.post(
        "/api/create-payment-intent", {"booking": order.pk}, format="json"
    ).json()["clientSecret"]
    with pytest.raises(stripe.CardError):
        pay(intent_id_of(secret), DECLINED_CARD)
    intent = stripe_client().v1.payment_intents.retrieve(intent_id_of(secret)).to_dict()
    deliver(anon, intent_event("evt_fail", "payment_intent.payment_failed", intent))
    order.refresh_from_db()
    assert (order.paid, order.payment_error) == (False, "Your card was declined.")
    assert PaymentEvent.objects.get().outcome == PaymentEvent.Outcome.FAILED


def claimed_payment(booking) -> dict:
    """A PaymentIntent, as an event's body may claim it, that pays exactly `booking`."""
    return {
        "object": "payment_intent",
        "status": "succeeded",
        "amount": amount_in_cents(booking.total_price),
        "currency": "usd",
        "metadata": {"booking_id": str(booking.pk)},
        "client_secret": "",
    }


def unpaid_intent_id(client, booking) -> str:
    secret = client.post(
        "/api/create-payment-intent", {"booking": booking.pk}, format="json"
    ).json()["clientSecret"]
    return intent_id_of(secret)


class TestOnlyWhatStripeConfirms:
    """A signed event naming a made-up PaymentIntent never marks an order paid. An event only
    names its intent (or charge); the shop asks Stripe how it stands and checks it as the
    PATCH does before anything changes. A valid signature still
    answers 200: the event was received, and it changed nothing."""

    def assert_rejected(self, response, order) -> None:
        assert response.status_code == 200
        assert response.json()["outcome"] == PaymentEvent.Outcome.REJECTED
        order.refresh_from_db()
        assert (order.paid, order.transaction_id, order.payment_error) == (False, "", "")
        assert PaymentEvent.objects.get().outcome == PaymentEvent.Outcome.REJECTED

    def test_a_made_up_intent_changes_nothing(self, stripe_on, anon, order):
        made_up = {**claimed_payment(order), "id": "pi_madeup00000001"}
        response = deliver(anon, intent_event("evt_made_up", "payment_intent.succeeded", made_up))
        self.assert_rejected(response, order)

    def test_an_intent_that_has_not_succeeded_changes_nothing(
        self, stripe_on, anon, as_user, order
    ):
        # "succeeded", the event says; Stripe says it waits for a card.
        unpaid = {**claimed_payment(order), "id": unpaid_intent_id(as_user, order)}
        response = deliver(anon, intent_event("evt_unpaid", "payment_intent.succeeded", unpaid))
        self.assert_rejected(response, order)

    def test_an_intent_for_another_amount_changes_nothing(self, stripe_on, anon, order):
        cheap = stripe_client().v1.payment_intents.create(
            params={
                "amount": 100,
                "currency": "usd",
                "metadata": {"booking_id": str(order.pk)},
                "payment_method_types": ["card"],
            }
        )
        pay(cheap.id)
        claimed = {**claimed_payment(order), "id": cheap.id}  # the order's amount, it says
        response = deliver(anon, intent_event("evt_cheap", "payment_intent.succeeded", claimed))
        self.assert_rejected(response, order)

    def test_an_intent_of_another_order_pays_that_order_only(
        self, stripe_on, anon, as_user, user, order
    ):
        other = BookingFactory(user=user)
        theirs = paid_intent(as_user, other)
        claimed = {**theirs, "metadata": {"booking_id": str(order.pk)}}
        response = deliver(anon, intent_event("evt_other", "payment_intent.succeeded", claimed))
        assert response.json()["outcome"] == PaymentEvent.Outcome.PAID
        assert not Booking.objects.get(pk=order.pk).paid
        assert Booking.objects.get(pk=other.pk).transaction_id == theirs["id"]

    def test_a_made_up_intent_for_a_gone_order_is_received_and_refunds_nothing(
        self, stripe_on, anon, db
    ):
        """No refund of the made-up intent is tried at Stripe (that would be a 502 at every
        delivery)."""
        made_up = {"id": "pi_madeup00000002", "object": "payment_intent", "status": "succeeded"}
        made_up |= {"amount": 4000, "currency": "usd", "metadata": {"booking_id": "987654"}}
        response = deliver(anon, intent_event("evt_gone", "payment_intent.succeeded", made_up))
        assert response.status_code == 200
        assert response.json()["outcome"] == PaymentEvent.Outcome.REJECTED

    def test_a_failure_that_stripe_does_not_report_changes_nothing(
        self, stripe_on, anon, as_user, order
    ):
        intent_id = unpaid_intent_id(as_user, order)
        intent = stripe_client().v1.payment_intents.retrieve(intent_id).to_dict()
        intent["last_payment_error"] = {"message": "Call +1 555 0100 to pay by phone."}
        response = deliver(anon, intent_event("evt_fail", "payment_intent.payment_failed", intent))
        self.assert_rejected(response, order)

    def test_stripe_unreachable_is_a_502_and_the_event_counts_when_sent_again(
        self, stripe_on, settings, anon, as_user, order
    ):
        event = intent_event("evt_later", "payment_intent.succeeded", paid_intent(as_user, order))
        reachable = settings.STRIPE_API_BASE
        settings.STRIPE_API_BASE = f"http://127.0.0.1:{free_port()}"
        response = deliver(anon, event)
        assert response.status_code == 502
        assert response.json() == {"detail": PROVIDER_FAILED}
        assert not Booking.objects.get(pk=order.pk).paid
        assert not PaymentEvent.objects.exists()  # so that Stripe's next delivery is acted on
        settings.STRIPE_API_BASE = reachable
        assert deliver(anon, event).json()["outcome"] == PaymentEvent.Outcome.PAID
        assert Booking.objects.get(pk=order.pk).paid


def test_other_events_are_acknowledged_and_ignored(stripe_on, anon, db):
    response = deliver(
        anon,
        {"id": "evt_other", "object": "event", "type": "customer.created", "data": {"object": {}}},
    )
    assert response.status_code == 200
    assert PaymentEvent.objects.get().outcome == PaymentEvent.Outcome.IGNORED


def test_webhooks_not_configured_is_503(settings, anon, db):
    settings.STRIPE_WEBHOOK_SECRET = ""
    response = anon.post(
        URL, b"{}", content_type="application/json", HTTP_STRIPE_SIGNATURE="t=1,v1=x"
    )
    assert response.status_code == 503


@pytest.mark.django_db(transaction=True)
def test_the_fake_stripe_delivers_a_signed_event_to_the_live_server(
    stripe_on, live_server, as_user, user
):
    """End to end: localstripe signs and posts payment_intent.succeeded to our endpoint."""
    order = BookingFactory(user=user)
    register = Request(
        f"{stripe_on.url}/_config/webhooks/shop",
        data=f"url={live_server.url}{URL}&secret={stripe_fake.WEBHOOK_SECRET}".encode(),
        method="POST",
    )
    urlopen(register, timeout=5).close()
    paid_intent(as_user, order)
    recorded = PaymentEvent.objects.filter(type="payment_intent.succeeded", outcome="paid")
    deadline = time.monotonic() + 20
    # The order is marked paid a moment before the event is recorded: wait for the record.
    while time.monotonic() < deadline and not recorded.exists():
        time.sleep(0.1)
    assert recorded.exists()
    assert Booking.objects.get(pk=order.pk).paid


def test_webhooks_without_the_stripe_keys_are_503_and_change_nothing(
    stripe_on, settings, anon, as_user, order
):
    """The webhook secret alone is not enough: the event cannot be confirmed with Stripe."""
    event = intent_event("evt_keyless", "payment_intent.succeeded", paid_intent(as_user, order))
    settings.STRIPE_SECRET_KEY = ""
    response = deliver(anon, event)
    assert response.status_code == 503
    assert set(response.json()) == {"detail"}
    assert not Booking.objects.get(pk=order.pk).paid
    assert not PaymentEvent.objects.exists()
