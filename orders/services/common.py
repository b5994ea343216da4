"""What the order services share: the locked read of an order, its lines' stock going back,
what became of an order that was paid or deleted, the messages about an order as a whole, and the one call that makes the
orders' cached reads stale."""

from enum import StrEnum

from catalog.stock import stock_release
from core.caching import versions

from ..models import Booking
from ..selectors import CACHE
from ..signals import booking_purchase_changed

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


def release_lines(locked: Booking, *, note: str = "", except_part_id: int | None = None) -> None:
    """Put what every line of the order (its row locked) holds back on its part's shelf, one
    part at a time in part id order, the order placing locks them in; a deleted part's line
    (and `except_part_id`'s, a part being deleted) has no shelf to go back to."""
    lines = locked.lines.filter(part__isnull=False).exclude(part_id=except_part_id)
    for part_id, quantity in lines.order_by("part_id").values_list("part_id", "quantity"):
        stock_release(part_id=part_id, quantity=quantity, order_id=locked.pk, note=note)


def purchase_changed(booking: Booking) -> None:
    """The order's payment changed (paid, refunded, joined an account): whoever listens
    (reviews' "Verified buyer") hears which account and parts, in the same transaction."""
    if booking.user_id is None:
        return
    part_ids = list(booking.lines.filter(part__isnull=False).values_list("part_id", flat=True))
    booking_purchase_changed.send(sender=Booking, booking=booking, part_ids=part_ids)


def orders_changed() -> None:
    """An order was placed, deleted, or changed in what the shop shows of it (its state, its
    address, its part link): every read kept under the orders' version is stale (My Order,
    an order's page, the counts of Manage Orders, the Overview's figures).

    Called by the service that wrote, never by its callers. Writes that change nothing shown
    do not call it: a PaymentIntent handed out or a payment failure noted (neither is shown),
    and a lapsed hold's stock going back (the order was expired by its time already)."""
    versions.bump(CACHE)
