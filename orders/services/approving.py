"""Approving a paid order: the shop has shipped it, with a carrier and a tracking number when
it gives them."""

from django.db import transaction
from django.utils import timezone

from core.errors import Conflict, NotFound

from .. import emails
from ..models import Booking, BookingEventKind
from ..shipments import carrier_name, shipment_text
from .common import ORDER_GONE, ORDER_REFUNDED, booking_locked, orders_changed
from .timeline import record_event

ORDER_NOT_PAID = "This order is not paid yet, so it can't be approved"


@transaction.atomic
def booking_approve(*, booking: Booking, carrier: str = "", tracking_number: str = "") -> bool:
    """Mark a paid order approved (shipped) now, by `carrier` with `tracking_number` (either
    may be empty), and mail the shopper; False when nothing changed. An order approved
    already takes a carrier or tracking number given later (no second mail).

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
    carrier, tracking_number = carrier_name(carrier), tracking_number.strip()
    shipping = locked.status != Booking.Status.APPROVED
    if shipping:
        locked.status, locked.shipped_at = Booking.Status.APPROVED, timezone.now()
    fields = {"carrier": carrier, "tracking_number": tracking_number}
    given = {name: value for name, value in fields.items() if value or shipping}
    changed = shipping or any(getattr(locked, name) != value for name, value in given.items())
    if changed:
        for name, value in given.items():
            setattr(locked, name, value)
        text = shipment_text(locked.carrier, locked.tracking_number)
        record_event(locked, BookingEventKind.SHIPPED, text if shipping else f"Updated: {text}")
        locked.save(update_fields=["status", "shipped_at", *given, "events"])
        orders_changed()
    if shipping:
        emails.booking_mail_shipped(booking_id=locked.pk)
    booking.refresh_from_db()
    return changed
