"""What the order services share: the locked read of an order, what became of an order that
was paid or deleted, and the messages about an order as a whole."""

from enum import StrEnum

from ..models import Booking

ORDER_GONE = "This order no longer exists"
ORDER_REFUNDED = "This order was refunded"


class Settled(StrEnum):
    """What became of an order when it was paid or deleted."""

    PAID = "paid"
    ALREADY_PAID = "already_paid"
    REFUNDED = "refunded"
    DELETED = "deleted"
    GONE = "gone"
    PROCESSING = "processing"


def booking_locked(booking_id: int | None) -> Booking | None:
    """The order's row, locked until the transaction ends (None when it is gone), so two
    services changing one order never interleave."""
    if booking_id is None:
        return None
    return Booking.objects.select_for_update().filter(pk=booking_id).first()
