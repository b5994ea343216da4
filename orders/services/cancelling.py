"""Deleting an unpaid order: its PaymentIntent cancelled at Stripe first, every line's stock
back on the shelf, its voucher's use given back, its deadline kept for the account's next
order of its parts. Paid orders are money
records: refunded, never deleted."""

from django.db import transaction

from core.errors import Conflict
from pricing.services import voucher_give_back

from .. import payments
from ..models import Booking
from .common import Settled, booking_locked, orders_changed, release_lines
from .holds import hold_deadline_keep
from .paying import settle_locked

PAID_ORDER_LOCKED = "This order is paid and can never be deleted: refund it instead"
PAID_MEANWHILE = "This order was paid meanwhile, so it can't be deleted"
PAYMENT_IN_PROGRESS = "A payment of this order is in progress: try again in a moment"


def booking_cancel(*, booking: Booking) -> bool:
    """Delete an unpaid (or expired) order, give back the stock it still holds, and cancel its
    PaymentIntent at Stripe first so it can no longer be paid; False when the order was
    already gone.

    Paid orders are never deleted, whoever asks (Conflict): money records are refunded, not
    removed. Stripe is asked before anything changes here: when it fails (ProviderError, 502)
    nothing changes; when the payment succeeded first, the payment is recorded instead (the
    order is now paid, or refunded when its stock is gone) and the answer is Conflict.
    """
    outcome = _booking_cancel(booking_id=booking.pk)
    if outcome == Settled.DELETED:
        return True
    if outcome == Settled.GONE:
        return False
    if outcome == Settled.PROCESSING:
        raise Conflict(PAYMENT_IN_PROGRESS)
    raise Conflict(PAID_MEANWHILE)


@transaction.atomic
def _booking_cancel(*, booking_id: int) -> str:
    locked = booking_locked(booking_id)
    if locked is None:
        return Settled.GONE
    if locked.paid:
        raise Conflict(PAID_ORDER_LOCKED)
    if locked.payment_intent_id:
        intent = payments.intent_cancel(locked)
        if intent is not None and intent.status == "succeeded":
            payments.check_pays_for(intent, locked)
            return settle_locked(locked, intent_id=intent.id)
        if intent is not None and intent.status != "canceled":
            return Settled.PROCESSING
    if not locked.released_at:
        release_lines(locked)
    hold_deadline_keep(booking=locked)  # the next order of its parts lapses when this would have
    if locked.voucher_code:
        voucher_give_back(order_ids=[locked.pk])
    locked.delete()
    orders_changed()
    return Settled.DELETED
