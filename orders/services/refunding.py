"""Refunds: in full, at Stripe first, then recorded here; the stock goes back unless the order
shipped."""

from django.db import transaction
from django.utils import timezone

from core.errors import Conflict, NotFound
from core.templatetags.money import money

from .. import emails, payments
from ..models import Booking, BookingEventKind
from .common import (
    ORDER_GONE,
    ORDER_REFUNDED,
    booking_locked,
    orders_changed,
    purchase_changed,
    release_lines,
)
from .timeline import record_event

REFUND_UNPAID = "This order is not paid, so there is nothing to refund"


@transaction.atomic
def booking_refund(*, booking: Booking, outside_stripe: bool = False) -> Booking:
    """Refund a paid order in full: at Stripe first (ProviderError, 502, when it fails:
    nothing changes), then the order is refunded and its stock goes back unless it shipped.
    Conflict when the order is unpaid or already refunded; `booking` is refreshed.

    `outside_stripe=True` records a refund whose money went back some other way (no card was
    charged through Stripe: the demo data); it never calls Stripe.
    """
    locked = booking_locked(booking.pk)
    if locked is None:
        raise NotFound(ORDER_GONE)
    if locked.refunded_at:
        raise Conflict(ORDER_REFUNDED)
    if not locked.paid:
        raise Conflict(REFUND_UNPAID)
    refund_id = ""
    if not outside_stripe:
        refund_id = payments.refund_intent(locked.transaction_id, booking_id=locked.pk)
    record_refund(locked, refund_id=refund_id)
    booking.refresh_from_db()
    return booking


@transaction.atomic
def booking_mark_refunded(*, transaction_id: str, refund_id: str = "") -> bool:
    """Stripe says the payment `transaction_id` was refunded in full (e.g. from its
    dashboard): the order is refunded, once; False when already so or there is no such paid
    order."""
    if not transaction_id:
        return False
    locked = (
        Booking.objects.select_for_update().filter(paid=True, transaction_id=transaction_id).first()
    )
    if locked is None or locked.refunded_at:
        return False
    record_refund(locked, refund_id=refund_id)
    return True


def record_refund(locked: Booking, *, refund_id: str) -> None:
    """The order (its row locked) is refunded; every line's stock goes back unless it shipped
    or is back already."""
    if not locked.status and not locked.released_at:
        release_lines(locked, note="Order refunded")
    locked.refunded_at = timezone.now()
    locked.refund_id = refund_id
    amount = locked.total_price - locked.refunded_amount  # what returns left, or the whole
    locked.refunded_amount = locked.total_price
    record_event(locked, BookingEventKind.REFUNDED, f"Refunded {money(amount)}", amount=amount)
    locked.save(update_fields=["refunded_at", "refund_id", "refunded_amount", "events"])
    orders_changed()
    purchase_changed(locked)
    emails.booking_mail_refunded(booking_id=locked.pk)
