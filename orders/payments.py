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
UNKNOWN_CHARGE = "There is no such charge."
NOT_REFUNDED = "This payment has not been refunded."
REFUND_FAILED = "The payment provider refused the refund. Nothing was changed."


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
    failure: str = ""  # the provider's reason for the last failed attempt


@dataclass(frozen=True)
class Charge:
    """What the shop needs of a charge (a refund is reported on the charge)."""

    id: str
    intent_id: str
    amount: int
    currency: str
    amount_refunded: int


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
    raw = _plain(obj)
    return Intent(
        id=obj.id,
        status=obj.status,
        amount=obj.amount,
        currency=obj.currency,
        booking_id=str(_plain(obj.metadata).get(METADATA_KEY, "")),
        client_secret=obj.client_secret or "",
        failure=str(_plain(raw.get("last_payment_error")).get("message") or ""),
    )


def _call(action: str, booking: Booking | int | None, function, *args, **kwargs):
    """Run one Stripe call; its failures become ProviderError (logged, never a 500)."""
    try:
        return function(*args, **kwargs)
    except stripe.InvalidRequestError:
        raise
    except stripe.StripeError as exc:
        order = getattr(booking, "pk", booking)
        logger.warning("Stripe %s failed for order %s: %s", action, order, exc)
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
    """Raise PaymentRejected unless `intent` (as Stripe has it) is a succeeded payment of this
    very order: the one check of a payment, for the PATCH and the webhook alike."""
    if intent.booking_id != str(booking.pk):
        raise PaymentRejected(WRONG_INTENT)
    if intent.amount != amount_in_cents(booking.total_price) or intent.currency != CURRENCY:
        raise PaymentRejected(WRONG_AMOUNT)
    check_succeeded(intent)


def check_succeeded(intent: Intent) -> None:
    if intent.status != "succeeded":
        raise PaymentRejected(NOT_SUCCEEDED)


def intent_at_stripe(intent_id: str, *, booking: Booking | None = None) -> Intent:
    """The PaymentIntent `intent_id` as Stripe has it (never as a client or an event says).
    PaymentRejected when Stripe does not know it; ProviderError when Stripe fails."""
    client = _client()
    if not intent_id:  # an empty id would ask Stripe for the list of intents
        raise PaymentRejected(UNKNOWN_INTENT)
    try:
        found = _call("retrieve", booking, client.v1.payment_intents.retrieve, intent_id)
    except stripe.InvalidRequestError as exc:
        raise PaymentRejected(UNKNOWN_INTENT) from exc
    return _intent(found)


def verified_intent(booking: Booking, intent_id: str) -> Intent:
    """Ask Stripe for `intent_id` and return it only if it paid for `booking`."""
    intent = intent_at_stripe(intent_id, booking=booking)
    check_pays_for(intent, booking)
    return intent


def charge_at_stripe(charge_id: str) -> Charge:
    """The charge `charge_id` as Stripe has it. PaymentRejected when Stripe does not know it;
    ProviderError when Stripe fails."""
    client = _client()
    if not charge_id:
        raise PaymentRejected(UNKNOWN_CHARGE)
    try:
        found = _call("retrieve charge", None, client.v1.charges.retrieve, charge_id)
    except stripe.InvalidRequestError as exc:
        raise PaymentRejected(UNKNOWN_CHARGE) from exc
    return Charge(
        id=found.id,
        intent_id=str(_plain(found).get("payment_intent") or ""),
        amount=found.amount,
        currency=found.currency,
        amount_refunded=found.amount_refunded or 0,
    )


def check_refunds(charge: Charge, booking: Booking) -> None:
    """Raise PaymentRejected unless `charge` (as Stripe has it) is this order's payment, and
    refunded at least in part (a partial refund leaves the order paid: the caller's rule)."""
    if charge.intent_id != booking.transaction_id:
        raise PaymentRejected(WRONG_INTENT)
    if charge.amount != amount_in_cents(booking.total_price) or charge.currency != CURRENCY:
        raise PaymentRejected(WRONG_AMOUNT)
    if charge.amount_refunded <= 0:
        raise PaymentRejected(NOT_REFUNDED)


def latest_refund_id(charge_id: str) -> str:
    """The id of the charge's latest refund at Stripe ("" when none); ProviderError when
    Stripe fails."""
    client = _client()
    params = {"charge": charge_id, "limit": 1}
    found = _call("list refunds", None, client.v1.refunds.list, params=params)
    return found.data[0].id if found.data else ""


def intent_cancel(booking: Booking) -> Intent | None:
    """Cancel the order's PaymentIntent, so it can no longer be paid; the intent as it stands
    now (status "canceled", or "succeeded" when it was paid first), None when Stripe does not
    know it. Raises ProviderError when Stripe fails (nothing may change then).
    """
    client = _client()
    intent_id = booking.payment_intent_id
    try:
        return _intent(_call("cancel", booking, client.v1.payment_intents.cancel, intent_id))
    except stripe.InvalidRequestError:
        pass  # not cancellable (succeeded, canceled, processing) or unknown: see how it stands
    try:
        return _intent(_call("retrieve", booking, client.v1.payment_intents.retrieve, intent_id))
    except stripe.InvalidRequestError:
        return None


def refund_intent(intent_id: str, *, booking_id: int | None = None) -> str:
    """Refund the whole of PaymentIntent `intent_id` (what is left of it after partial refunds
    of returns: Stripe refunds the remainder when no amount is given); the refund's id. A
    payment refunded in full already is not refunded twice (its refund's id is returned). Raises ProviderError
    when Stripe fails or refuses (then nothing was refunded).
    """
    client = _client()
    try:
        intent = _call("retrieve", booking_id, client.v1.payment_intents.retrieve, intent_id)
        done = _call(
            "list refunds",
            booking_id,
            client.v1.refunds.list,
            params={"payment_intent": intent_id, "limit": 100},
        )
        refunds = [r for r in done.data if r.status in ("succeeded", "pending")]
        left = intent.amount - sum(r.amount for r in refunds)
        if refunds and left <= 0:
            return refunds[0].id
        params = {"payment_intent": intent_id, "metadata": {METADATA_KEY: str(booking_id)}}
        key = f"refund-{intent_id}"
        if refunds:  # what returns left: said outright (a fake Stripe may not know it)
            params["amount"] = left
            key = f"refund-{intent_id}-rest-{left}"
        created = _call(
            "refund",
            booking_id,
            client.v1.refunds.create,
            params=params,
            options={"idempotency_key": key},
        )
    except stripe.InvalidRequestError as exc:
        logger.warning("Stripe refused to refund %s (order %s): %s", intent_id, booking_id, exc)
        raise ProviderError(REFUND_FAILED) from exc
    return created.id


def refund_part(intent_id: str, *, cents: int, key: str, booking_id: int | None = None) -> str:
    """Refund `cents` of PaymentIntent `intent_id` (a partial refund: a return's share); the
    refund's id. `key` names this refund for Stripe (idempotency: the same key again is the
    same refund, never a second one). Raises ProviderError when Stripe fails or refuses (then
    nothing was refunded)."""
    client = _client()
    try:
        created = _call(
            "partial refund",
            booking_id,
            client.v1.refunds.create,
            params={
                "payment_intent": intent_id,
                "amount": cents,
                "metadata": {METADATA_KEY: str(booking_id)},
            },
            options={"idempotency_key": key},
        )
    except stripe.InvalidRequestError as exc:
        logger.warning(
            "Stripe refused to refund %s of %s (order %s): %s", cents, intent_id, booking_id, exc
        )
        raise ProviderError(REFUND_FAILED) from exc
    return created.id


def webhook_event(payload: bytes, signature: str):
    """The Stripe event in `payload`, if `signature` proves Stripe sent it and it is shaped
    as an event; else ValueError."""
    if not settings.STRIPE_WEBHOOK_SECRET:
        raise PaymentsNotConfigured("Stripe webhooks are not configured on this shop.")
    try:
        event = stripe.Webhook.construct_event(payload, signature, settings.STRIPE_WEBHOOK_SECRET)
    except (stripe.SignatureVerificationError, ValueError, TypeError, AttributeError) as exc:
        raise ValueError("Invalid Stripe signature or payload.") from exc
    if not _is_event(event):
        raise ValueError("The body is not a Stripe event.")
    return event


def _is_event(event) -> bool:
    """Signed by the right secret is not enough: the body must be an event the shop can read."""
    raw = event.to_dict() if hasattr(event, "to_dict") else None
    if not isinstance(raw, dict):
        return False
    data = raw.get("data")
    return (
        raw.get("object") == "event"
        and isinstance(raw.get("id"), str)
        and isinstance(raw.get("type"), str)
        and isinstance(data, dict)
        and isinstance(data.get("object"), dict)
    )


def event_object_id(event) -> str:
    """The id of the object (a PaymentIntent, a charge) an event is about: all the shop takes
    from an event's body; the object itself is asked of Stripe."""
    return str(_plain(event.data.object).get("id") or "")
