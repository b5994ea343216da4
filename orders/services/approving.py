"""Approving a paid order: the shop has shipped it."""

from django.db import transaction

from core.errors import Conflict, NotFound

from .. import emails
from ..models import Booking
from .common import ORDER_GONE, ORDER_REFUNDED, booking_locked, orders_changed

ORDER_NOT_PAID = "This order is not paid yet, so it can't be approved"


@transaction.atomic
def booking_approve(*, booking: Booking) -> bool:
    """Mark a paid order approved (shipped); False when it already was.

    The order is locked and read again first (it may have been paid, approved, refunded or
    deleted meanwhile); `booking` is refreshed to what was stored.
    """
    locked = booking_locked(booking.pk)
    if locked is None:
        raise NotFound(ORDER_GONE)
    if not locked.paid:
        raise Conflict(ORDER_NOT_PAID)
    if locked.refunded_at:
        raise Conflict(ORDER_REFUNDED)
    changed = locked.status != Booking.Status.APPROVED
    if changed:
        locked.status = Booking.Status.APPROVED
        locked.save(update_fields=["status"])
        orders_changed()
        emails.booking_mail_shipped(booking_id=locked.pk)
    booking.refresh_from_db()
    return changed
