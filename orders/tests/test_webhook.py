"""Stripe's webhook: signed events mark orders paid once, whatever arrives twice."""

import time
from urllib.request import Request, urlopen

import pytest

from orders.models import Booking, PaymentEvent
from orders.tests.factories import BookingFactory
from orders.tests.stripe_helpers import (
    intent_event,
    intent_id_of,
    pay,
    signed,
    stripe_client,
)
from tests import stripe_fake

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


def test_an_event_whose_amount_differs_is_rejected(stripe_on, anon, as_user, order):
    intent = {**paid_intent(as_user, order), "amount": 1}
    deliver(anon, intent_event("evt_cheap", "payment_intent.succeeded", intent))
    assert not Booking.objects.get(pk=order.pk).paid
    assert PaymentEvent.objects.get().outcome == PaymentEvent.Outcome.REJECTED


def test_a_failed_payment_is_recorded(stripe_on, anon, as_user, order):
    secret = as_user.post(
        "/api/create-payment-intent", {"booking": order.pk}, format="json"
    ).json()["clientSecret"]
    intent = stripe_client().v1.payment_intents.retrieve(intent_id_of(secret)).to_dict()
    intent["last_payment_error"] = {"message": "Your card was declined."}
    deliver(anon, intent_event("evt_fail", "payment_intent.payment_failed", intent))
    order.refresh_from_db()
    assert (order.paid, order.payment_error) == (False, "Your card was declined.")
    assert PaymentEvent.objects.get().outcome == PaymentEvent.Outcome.FAILED


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
