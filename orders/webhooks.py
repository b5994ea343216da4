"""Stripe's webhook events: how an order gets paid even when the shopper closed the tab."""

from django.db import IntegrityError, transaction

from . import payments, services
from .models import Booking, PaymentEvent

Outcome = PaymentEvent.Outcome


def payment_event_handle(event) -> PaymentEvent:
    """Act on a verified Stripe event once; the same event again changes nothing."""
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
    if event.type not in ("payment_intent.succeeded", "payment_intent.payment_failed"):
        return None, Outcome.IGNORED, ""
    intent = payments.intent_from_event(event)
    booking = (
        Booking.objects.filter(pk=intent.booking_id).first()
        if intent.booking_id.isdigit()
        else None
    )
    if booking is None:
        return None, Outcome.IGNORED, f"No order {intent.booking_id or '(none)'} for {intent.id}."
    if event.type == "payment_intent.payment_failed":
        message = payments.failure_message(event)
        services.booking_record_payment_failure(booking=booking, message=message)
        return booking, Outcome.FAILED, message
    try:
        payments.check_pays_for(intent, booking)
    except payments.PaymentRejected as exc:
        return booking, Outcome.REJECTED, exc.message
    paid = services.booking_mark_paid(booking_id=booking.pk, transaction_id=intent.id)
    return booking, Outcome.PAID if paid else Outcome.ALREADY_PAID, intent.id
