"""Holds that end without a payment: lapsed ones go back on the shelf (in batches, each order
once), and a part being deleted withdraws its unpaid orders."""

from collections.abc import Collection

from django.db import transaction
from django.utils import timezone

from catalog.stock import stock_lock_parts, stock_release_orders
from pricing.services import voucher_give_back

from .. import emails, payments
from ..models import Booking, BookingEventKind, BookingLine
from ..selectors import lapsed_holds_of_parts_exist
from .common import booking_locked, orders_changed, release_lines
from .holds import hold_deadlines_prune
from .paying import settle_locked
from .timeline import new_event, record_event

EXPIRED_TEXT = "The hold lapsed unpaid: the order expired"

RELEASE_BATCH = 200


def booking_expire(*, booking_id: int) -> bool:
    """Put the stock of an unpaid order whose hold lapsed back on the shelf, exactly once;
    False when there is nothing to do (paid, still held, already released, gone, or being
    paid or deleted right now)."""
    return bool(_release_lapsed(Booking.objects.filter(pk=booking_id)))


def booking_release_lapsed_holds(*, part_ids: Collection[int] | None = None) -> int:
    """Release every lapsed hold (of the orders with a line of one of `part_ids`, when given);
    how many orders were. A lapsed order gives back every line, whichever part led to it.

    In batches of RELEASE_BATCH orders, each its own transaction: a few queries per batch,
    however many holds lapsed, and an order placed after them pays for that once.
    """
    due = Booking.objects.all()
    if part_ids is not None:
        if not lapsed_holds_of_parts_exist(part_ids=part_ids):
            return 0  # what an order usually finds: one plain read instead of a transaction
        due = due.lapsed_of_parts(part_ids)
    released = 0
    while batch := _release_lapsed(due):
        released += batch
    if part_ids is None:  # the sweep (worker, release_holds) also forgets deadlines that passed
        hold_deadlines_prune()
    return released


@transaction.atomic
def _release_lapsed(due) -> int:
    """One batch of the lapsed holds among `due`: every line's stock back on the shelf (one
    write per part, in part id order, a movement per order), marked released, their
    vouchers' uses given back, their shoppers mailed; how many.

    The orders' rows are locked first; rows another service holds (a payment being recorded,
    a delete) are skipped, so a payment recorded meanwhile wins and two releases at once give
    the stock back once. The orders were expired by their time already: nothing shown of them
    changes (common.orders_changed).
    """
    now = timezone.now()
    rows = list(
        due.lapsed(now)
        .select_for_update(skip_locked=True)
        .order_by("pk")
        .values_list("pk", "voucher_code")[:RELEASE_BATCH]
    )
    if not rows:
        return 0
    ids = [pk for pk, _ in rows]
    # A deleted part's lines have no shelf to go back to.
    lines = BookingLine.objects.filter(booking_id__in=ids, part__isnull=False)
    by_part: dict[int, list[tuple[int, int]]] = {}
    for part_id, booking_id, quantity in lines.values_list("part_id", "booking_id", "quantity"):
        by_part.setdefault(part_id, []).append((booking_id, quantity))
    for part_id in sorted(by_part):
        note = "The order's hold lapsed unpaid"
        stock_release_orders(part_id=part_id, orders=by_part[part_id], note=note)
    Booking.objects.filter(pk__in=ids).update(released_at=now)
    if with_voucher := [pk for pk, code in rows if code]:
        voucher_give_back(order_ids=with_voucher)
    # Read once, as released: for their history and their shoppers' mails.
    bookings = list(
        Booking.objects.select_related("user").prefetch_related("lines").filter(pk__in=ids)
    )
    expired = new_event(BookingEventKind.EXPIRED, EXPIRED_TEXT)
    for booking in bookings:
        booking.events = [*booking.events, expired]
    Booking.objects.bulk_update(bookings, ["events"])
    _record_versions(bookings, reason="The order's hold lapsed unpaid")
    emails.bookings_mail_expired(bookings=bookings)
    return len(ids)


def _record_versions(bookings: list[Booking], *, reason: str) -> None:
    """Keep a history version of orders changed by one UPDATE (the history sees saves only):
    two queries for the batch. Nobody made the change but the shop itself, whichever request
    happened to set it off (a shopper's order releases other shoppers' lapsed holds)."""
    for booking in bookings:
        booking._history_user = None  # django-simple-history's documented way to name nobody
    Booking.history.bulk_history_create(bookings, update=True, default_change_reason=reason)


@transaction.atomic  # the locks below last until the deletion commits (it runs inside it)
def booking_withdraw_for_part(*, part_id: int) -> int:
    """The part is being deleted: the unpaid orders with a line of it can no longer be paid
    (each PaymentIntent is cancelled at Stripe first; ProviderError when Stripe fails, then
    nothing changes); what they held of that part goes with it, what they held of other parts
    goes back on the shelf, and each shopper is mailed. An order paid meanwhile is recorded as
    paid (then shipped or refunded as usual). Every order of the part loses its link to it.
    How many were withdrawn."""
    orders = Booking.objects.filter(
        pk__in=BookingLine.objects.filter(part_id=part_id).values("booking")
    )
    unpaid = orders.filter(paid=False, released_at__isnull=True)
    _lock_for_withdrawal(orders, unpaid, part_id=part_id)
    withdrawn = sum(
        _booking_withdraw(booking_id=pk, part_id=part_id)
        for pk in unpaid.order_by("pk").values_list("pk", flat=True)
    )
    if orders.exists():
        orders_changed()
    return withdrawn


def _lock_for_withdrawal(orders, unpaid, *, part_id: int) -> None:
    """Every lock the deletion will need, taken before anything is written and in the order
    placing takes them (services' lock order): the rows of the part's orders (the deletion
    writes them all, the part's link going), then the rows of the part and of the other parts
    its unpaid orders hold, in id order. Taken one by one as they came (another part's shelf
    when an order gives it back, the part's own last), an order of the part and that other
    part placed meanwhile held one and waited for the other: a deadlock, and the shopper's
    order aborted."""
    list(orders.select_for_update().order_by("pk").values_list("pk"))
    held = BookingLine.objects.filter(booking__in=unpaid, part__isnull=False)
    stock_lock_parts(part_ids={part_id, *held.values_list("part_id", flat=True)})


@transaction.atomic
def _booking_withdraw(*, booking_id: int, part_id: int) -> bool:
    locked = booking_locked(booking_id)
    if locked is None or locked.paid or locked.released_at:
        return False
    if locked.payment_intent_id:
        intent = payments.intent_cancel(locked)
        if intent is not None and intent.status == "succeeded":
            payments.check_pays_for(intent, locked)
            settle_locked(locked, intent_id=intent.id)
            return False
    # The part's row goes with it, so its line's stock is not released; the order shows as
    # expired.
    note = "The order was withdrawn: a part of it is no longer sold"
    release_lines(locked, note=note, except_part_id=part_id)
    gone = locked.lines.filter(part_id=part_id).values_list("parts_name", flat=True).first()
    locked.released_at = timezone.now()
    record_event(locked, BookingEventKind.EXPIRED, f"Withdrawn: {gone} is no longer sold")
    locked.save(update_fields=["released_at", "events"])
    if locked.voucher_code:
        voucher_give_back(order_ids=[locked.pk])
    emails.booking_mail_withdrawn(booking_id=locked.pk, part_name=gone)
    return True
