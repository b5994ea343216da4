"""Acting as the shopper's browser and as Stripe against the fake Stripe server."""

import hashlib
import hmac
import json
import time

import stripe
from django.conf import settings

GOOD_CARD = "4242424242424242"
DECLINED_CARD = "4000000000000341"


def stripe_client() -> stripe.StripeClient:
    return stripe.StripeClient(
        settings.STRIPE_SECRET_KEY, base_addresses={"api": settings.STRIPE_API_BASE}
    )


def pay(intent_id: str, card: str = GOOD_CARD):
    """Attach a card to the intent and confirm it, as Stripe.js would."""
    client = stripe_client()
    method = client.v1.payment_methods.create(
        params={
            "type": "card",
            "card": {"number": card, "exp_month": 12, "exp_year": 2030, "cvc": "123"},
        }
    )
    client.v1.payment_intents.update(intent_id, params={"payment_method": method.id})
    return client.v1.payment_intents.confirm(intent_id)


def intent_id_of(client_secret: str) -> str:
    return client_secret.split("_secret_")[0]


def signed(payload: dict, secret: str | None = None) -> tuple[bytes, str]:
    """A webhook body and its Stripe-Signature header (Stripe's own scheme: HMAC-SHA256)."""
    body = json.dumps(payload).encode()
    timestamp = int(time.time())
    key = (secret or settings.STRIPE_WEBHOOK_SECRET).encode()
    digest = hmac.new(key, f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()
    return body, f"t={timestamp},v1={digest}"


def intent_event(event_id: str, kind: str, intent) -> dict:
    """A Stripe event about a PaymentIntent, shaped as Stripe sends it."""
    return {
        "id": event_id,
        "object": "event",
        "type": kind,
        "data": {"object": intent},
    }
