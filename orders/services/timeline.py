"""An order's Timeline (Booking.events): each step is recorded by the service that made it
happen, in its transaction and under the order's row lock (a step that rolls back leaves no
event, and two steps at once never lose one); and the shop's notes."""

from decimal import Decimal

from django.db import transaction
from django.utils import timezone

from core.errors import NotFound

from ..models import Booking, BookingEventKind
from .common import ORDER_GONE, booking_locked, orders_changed

TEXT_MAX = 1000


def new_event(kind: str, text: str, *, amount: Decimal | None = None, by=None) -> dict:
    """One step of an order's Timeline, now: what Booking.events holds."""
    return {
        "at": timezone.now().isoformat(),
        "kind": str(kind),
        "text": text[:TEXT_MAX],
        "amount": None if amount is None else str(amount),
        "by": getattr(by, "pk", None),
    }


def record_event(locked: Booking, kind: str, text: str, *, amount: Decimal | None = None) -> None:
    """Append a step to `locked`'s events in memory (its row locked by the caller, who saves
    "events" with its own change: no statement of its own). Not with booking_event_add on the
    same order in one transaction: each would write over the other's step."""
    locked.events = [*locked.events, new_event(kind, text, amount=amount)]


@transaction.atomic
def booking_event_add(
    *, booking_id: int, kind: str, text: str, amount: Decimal | None = None, by=None
) -> dict:
    """Record a step of order `booking_id` now: its row locked, the step appended and
    written (a Timeline entry is no change of the order's own: no history version). The
    caller makes the orders' reads stale, as it does for the change the step records."""
    locked = booking_locked(booking_id)
    if locked is None:
        raise NotFound(ORDER_GONE)
    event = new_event(kind, text, amount=amount, by=by)
    Booking.objects.filter(pk=booking_id).update(events=[*locked.events, event])
    return event


def booking_note_add(*, booking: Booking, text: str, internal: bool, by) -> dict:
    """A shop admin's note on an order: to its shopper (the order's page and its API answers
    show it), or `internal` (shown to shop admins only). NotFound when the order is gone."""
    kind = BookingEventKind.INTERNAL_NOTE if internal else BookingEventKind.NOTE
    event = booking_event_add(booking_id=booking.pk, kind=kind, text=text, by=by)
    orders_changed()
    return event
