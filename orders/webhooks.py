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
    """Act on a signed Stripe event once; the same event again changes nothing.

    The event only names what it is about: the PaymentIntent (or charge) is fetched from Stripe
    and checked as for the PATCH before anything changes, so a signed event naming an intent
    that Stripe does not confirm changes nothing (outcome "rejected"). When Stripe fails (the
    fetch, a refund) nothing is recorded (502): Stripe delivers the event again later.
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
    """What the event asks, once Stripe confirms it: the event names an object (an intent, a
    charge) and the shop asks Stripe how that object stands before changing anything."""
    if event.type == "charge.refunded":
        return _refunded(event)
    if event.type not in ("payment_intent.succeeded", "payment_intent.payment_failed"):
        return None, Outcome.IGNORED, ""
    try:
        intent = payments.intent_at_stripe(payments.event_object_id(event))
    except payments.PaymentRejected as exc:  # Stripe does not know it: nothing changes
        return None, Outcome.REJECTED, exc.message
    if not intent.booking_id.isdigit():  # not a payment of this shop's orders
        return None, Outcome.IGNORED, f"No order named by {intent.id}."
    booking = Booking.objects.filter(pk=intent.booking_id).first()
    if event.type == "payment_intent.payment_failed":
        return _failed(intent, booking)
    try:
        if booking is None:
            payments.check_succeeded(intent)
        else:
            payments.check_pays_for(intent, booking)
    except payments.PaymentRejected as exc:
        return booking, Outcome.REJECTED, exc.message
    settled = services.booking_settle_payment(
        booking_id=booking.pk if booking else None, intent_id=intent.id
    )
    if booking is None:
        return None, SETTLED[settled], f"Order {intent.booking_id} is gone: {intent.id} refunded."
    return Booking.objects.filter(pk=booking.pk).first(), SETTLED[settled], intent.id


def _failed(intent: payments.Intent, booking: Booking | None) -> tuple[Booking | None, str, str]:
    if booking is None:
        return None, Outcome.IGNORED, f"No order {intent.booking_id} for {intent.id}."
    if not intent.failure:
        return booking, Outcome.REJECTED, f"Stripe reports no failed payment for {intent.id}."
    services.booking_record_payment_failure(booking=booking, message=intent.failure)
    return booking, Outcome.FAILED, intent.failure


def _refunded(event) -> tuple[Booking | None, str, str]:
    try:
        charge = payments.charge_at_stripe(payments.event_object_id(event))
    except payments.PaymentRejected as exc:
        return None, Outcome.REJECTED, exc.message
    booking = Booking.objects.filter(paid=True, transaction_id=charge.intent_id).first()
    if booking is None or not charge.intent_id:
        return None, Outcome.IGNORED, f"No paid order for {charge.intent_id or '(none)'}."
    try:
        payments.check_refunds(charge, booking)
    except payments.PaymentRejected as exc:
        return booking, Outcome.REJECTED, exc.message
    if charge.amount_refunded < charge.amount:
        return booking, Outcome.IGNORED, "Partly refunded: the order stays paid."
    refund_id = payments.latest_refund_id(charge.id)
    changed = services.booking_mark_refunded(transaction_id=charge.intent_id, refund_id=refund_id)
    return booking, Outcome.REFUNDED if changed else Outcome.ALREADY_REFUNDED, refund_id
