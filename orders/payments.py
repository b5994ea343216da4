"""Card payments through Stripe: the only module that talks to the payment provider.

Settings (read at call time, so tests can point them at a local fake Stripe):
STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY, STRIPE_WEBHOOK_SECRET, STRIPE_API_BASE.
"""

import logging
from dataclasses import dataclass
from decimal import Decimal

import stripe
from django.conf import settings

from core.errors import Rejected, Unavailable, UpstreamFailure

from .models import Booking

logger = logging.getLogger(__name__)

CURRENCY = "usd"
METADATA_KEY = "booking_id"
# Intents in these states can still be paid: reuse them instead of creating another.
PAYABLE_STATES = {"requires_payment_method", "requires_confirmation", "requires_action"}

NOT_CONFIGURED = "Card payments are not configured on this shop."
PROVIDER_FAILED = "The payment provider could not be reached. Please try again in a moment."
NOT_SUCCEEDED = "This payment has not succeeded."
WRONG_INTENT = "This payment does not belong to this order."
WRONG_AMOUNT = "This payment's amount or currency does not match the order."
UNKNOWN_INTENT = "There is no such payment."


class PaymentsNotConfigured(Unavailable):
    """No Stripe keys: card payments are off."""


class ProviderError(UpstreamFailure):
    """Stripe failed or could not be reached."""


class PaymentRejected(Rejected):
    """The PaymentIntent named by a client does not pay for this order."""


@dataclass(frozen=True)
class Intent:
    """What the shop needs of a PaymentIntent."""

    id: str
    status: str
    amount: int
    currency: str
    booking_id: str
    client_secret: str


def is_configured() -> bool:
    return bool(settings.STRIPE_SECRET_KEY and settings.STRIPE_PUBLISHABLE_KEY)


def amount_in_cents(total: Decimal) -> int:
    return int((total * 100).quantize(Decimal("1")))


def _client() -> stripe.StripeClient:
    if not is_configured():
        raise PaymentsNotConfigured(NOT_CONFIGURED)
    base = {"api": settings.STRIPE_API_BASE} if settings.STRIPE_API_BASE else None
    return stripe.StripeClient(
        settings.STRIPE_SECRET_KEY,
        base_addresses=base,
        http_client=stripe.RequestsClient(timeout=20),
        max_network_retries=1,
    )


def _plain(value) -> dict:
    """A Stripe sub-object (or None) as a plain dict."""
    return value.to_dict() if hasattr(value, "to_dict") else dict(value or {})


def _intent(obj) -> Intent:
    return Intent(
        id=obj.id,
        status=obj.status,
        amount=obj.amount,
        currency=obj.currency,
        booking_id=str(_plain(obj.metadata).get(METADATA_KEY, "")),
        client_secret=obj.client_secret or "",
    )


def _call(action: str, booking: Booking, function, *args, **kwargs):
    """Run one Stripe call; its failures become ProviderError (logged, never a 500)."""
    try:
        return function(*args, **kwargs)
    except stripe.InvalidRequestError:
        raise
    except stripe.StripeError as exc:
        logger.warning("Stripe %s failed for order %s: %s", action, booking.pk, exc)
        raise ProviderError(PROVIDER_FAILED) from exc


def intent_for(booking: Booking) -> Intent:
    """The PaymentIntent paying for `booking`: its stored one while still payable, else a new one.

    The amount always comes from the stored order, never from the client.
    """
    client = _client()
    cents = amount_in_cents(booking.total_price)
    if booking.payment_intent_id:
        try:
            existing = _intent(
                _call(
                    "retrieve",
                    booking,
                    client.v1.payment_intents.retrieve,
                    booking.payment_intent_id,
                )
            )
        except stripe.InvalidRequestError:
            existing = None
        if existing and existing.status in PAYABLE_STATES and existing.amount == cents:
            return existing
    params = {
        "amount": cents,
        "currency": CURRENCY,
        "metadata": {METADATA_KEY: str(booking.pk)},
        "payment_method_types": ["card"],
    }
    options = {"idempotency_key": f"booking-{booking.pk}-{cents}-{booking.payment_intent_id}"}
    try:
        created = _call(
            "create", booking, client.v1.payment_intents.create, params=params, options=options
        )
    except stripe.InvalidRequestError as exc:
        logger.warning("Stripe refused an intent for order %s: %s", booking.pk, exc)
        raise ProviderError(PROVIDER_FAILED) from exc
    return _intent(created)


def check_pays_for(intent: Intent, booking: Booking) -> None:
    """Raise PaymentRejected unless `intent` is a succeeded payment of this very order."""
    if intent.booking_id != str(booking.pk):
        raise PaymentRejected(WRONG_INTENT)
    if intent.amount != amount_in_cents(booking.total_price) or intent.currency != CURRENCY:
        raise PaymentRejected(WRONG_AMOUNT)
    if intent.status != "succeeded":
        raise PaymentRejected(NOT_SUCCEEDED)


def verified_intent(booking: Booking, intent_id: str) -> Intent:
    """Ask Stripe for `intent_id` and return it only if it paid for `booking`."""
    client = _client()
    try:
        found = _call("retrieve", booking, client.v1.payment_intents.retrieve, intent_id)
    except stripe.InvalidRequestError as exc:
        raise PaymentRejected(UNKNOWN_INTENT) from exc
    intent = _intent(found)
    check_pays_for(intent, booking)
    return intent


def webhook_event(payload: bytes, signature: str):
    """The Stripe event in `payload`, if `signature` proves Stripe sent it; else ValueError."""
    if not settings.STRIPE_WEBHOOK_SECRET:
        raise PaymentsNotConfigured("Stripe webhooks are not configured on this shop.")
    try:
        return stripe.Webhook.construct_event(payload, signature, settings.STRIPE_WEBHOOK_SECRET)
    except (stripe.SignatureVerificationError, ValueError) as exc:
        raise ValueError("Invalid Stripe signature or payload.") from exc


def intent_from_event(event) -> Intent:
    return _intent(event.data.object)


def failure_message(event) -> str:
    """The provider's reason in a payment_intent.payment_failed event."""
    error = _plain(getattr(event.data.object, "last_payment_error", None))
    return error.get("message") or "The payment failed."
