"""Stripe's webhook events: how an order gets paid even when the shopper closed the tab, and
how no shopper is ever charged for an order the shop does not fulfil or refund."""

from django.db import IntegrityError, transaction

from . import payments, services
from .models import Booking, PaymentEvent

Outcome = PaymentEvent.Outcome
SETTLED = {
    services.Settled.PAID: Outcome.PAID,
    services.Settled.ALREADY_PAID: Outcome.ALREADY_PAID,
    services.Settled.REFUNDED: Outcome.REFUNDED,
}


def payment_event_handle(event) -> PaymentEvent:
    """Act on a verified Stripe event once; the same event again changes nothing.

    When acting needs Stripe (a refund) and Stripe fails, nothing is recorded (502): Stripe
    delivers the event again later.
    """
    seen = PaymentEvent.objects.filter(event_id=event.id).first()
    if seen:
        return seen
    booking, outcome, detail = _act(event)
    try:
        with transaction.atomic():
            return PaymentEvent.objects.create(
                event_id=event.id, type=event.type, booking=booking, outcome=outcome, detail=detail
            )
    except IntegrityError:  # the same event, delivered twice at once
        return PaymentEvent.objects.get(event_id=event.id)


def _act(event) -> tuple[Booking | None, str, str]:
    if event.type == "charge.refunded":
        return _refunded(event)
    if event.type not in ("payment_intent.succeeded", "payment_intent.payment_failed"):
        return None, Outcome.IGNORED, ""
    intent = payments.intent_from_event(event)
    if not intent.booking_id.isdigit():  # not a payment of this shop's orders
        return None, Outcome.IGNORED, f"No order named by {intent.id}."
    booking = Booking.objects.filter(pk=intent.booking_id).first()
    if event.type == "payment_intent.payment_failed":
        if booking is None:
            return None, Outcome.IGNORED, f"No order {intent.booking_id} for {intent.id}."
        message = payments.failure_message(event)
        services.booking_record_payment_failure(booking=booking, message=message)
        return booking, Outcome.FAILED, message
    if booking is not None:
        try:
            payments.check_pays_for(intent, booking)
        except payments.PaymentRejected as exc:
            return booking, Outcome.REJECTED, exc.message
    settled = services.booking_settle_payment(
        booking_id=booking.pk if booking else None, intent_id=intent.id
    )
    if booking is None:
        return None, SETTLED[settled], f"Order {intent.booking_id} is gone: {intent.id} refunded."
    return Booking.objects.filter(pk=booking.pk).first(), SETTLED[settled], intent.id


def _refunded(event) -> tuple[Booking | None, str, str]:
    intent_id, in_full, refund_id = payments.refunded_charge_from_event(event)
    booking = Booking.objects.filter(paid=True, transaction_id=intent_id).first()
    if booking is None or not intent_id:
        return None, Outcome.IGNORED, f"No paid order for {intent_id or '(none)'}."
    if not in_full:
        return booking, Outcome.IGNORED, "Partly refunded: the order stays paid."
    changed = services.booking_mark_refunded(transaction_id=intent_id, refund_id=refund_id)
    return booking, Outcome.REFUNDED if changed else Outcome.ALREADY_REFUNDED, refund_id
