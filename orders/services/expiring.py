"""Holds that end without a payment: lapsed ones go back on the shelf (in batches, each order
once), and a part being deleted withdraws its unpaid orders."""

from django.db import transaction
from django.utils import timezone

from catalog.stock import stock_release_orders
from core.background import run_after_commit

from .. import payments, tasks
from ..models import Booking
from .common import booking_locked, orders_changed
from .holds import hold_deadlines_prune
from .paying import settle_locked

RELEASE_BATCH = 200


def booking_expire(*, booking_id: int) -> bool:
    """Put the stock of an unpaid order whose hold lapsed back on the shelf, exactly once;
    False when there is nothing to do (paid, still held, already released, gone, or being
    paid or deleted right now)."""
    return bool(_release_lapsed(Booking.objects.filter(pk=booking_id)))


def booking_release_lapsed_holds(*, part_id: int | None = None) -> int:
    """Release every lapsed hold (of one part, when `part_id` is given); how many were.

    In batches of RELEASE_BATCH orders, each its own transaction: a few queries per batch,
    however many holds lapsed, and an order placed after them pays for that once.
    """
    due = Booking.objects.all() if part_id is None else Booking.objects.filter(part_id=part_id)
    if part_id is not None and not due.lapsed().exists():
        return 0  # what an order usually finds: one plain read instead of a transaction
    released = 0
    while batch := _release_lapsed(due):
        released += batch
    if part_id is None:  # the sweep (worker, release_holds) also forgets deadlines that passed
        hold_deadlines_prune()
    return released


@transaction.atomic
def _release_lapsed(due) -> int:
    """One batch of the lapsed holds among `due`: their stock back on the shelf (one write per
    part, a movement per order), marked released, their shoppers mailed; how many.

    The orders' rows are locked first; rows another service holds (a payment being recorded,
    a delete) are skipped, so a payment recorded meanwhile wins and two releases at once give
    the stock back once. The orders were expired by their time already: nothing shown of them
    changes (common.orders_changed).
    """
    now = timezone.now()
    rows = list(
        due.lapsed(now)
        .select_for_update(skip_locked=True)
        .order_by("part_id", "pk")
        .values_list("pk", "part_id", "quantity")[:RELEASE_BATCH]
    )
    by_part: dict[int, list[tuple[int, int]]] = {}
    for pk, part_id, quantity in rows:
        if part_id:  # a deleted part's orders have no shelf to go back to
            by_part.setdefault(part_id, []).append((pk, quantity))
    for part_id, orders in by_part.items():
        stock_release_orders(part_id=part_id, orders=orders, note="The order's hold lapsed unpaid")
    ids = [pk for pk, _, _ in rows]
    Booking.objects.filter(pk__in=ids).update(released_at=now)
    if ids:
        _record_versions(ids, reason="The order's hold lapsed unpaid")
        run_after_commit(tasks.send_bookings_expired, booking_ids=ids)
    return len(ids)


def _record_versions(ids: list[int], *, reason: str) -> None:
    """Keep a history version of orders changed by one UPDATE (the history sees saves only):
    two queries for the batch. Nobody made the change but the shop itself, whichever request
    happened to set it off (a shopper's order releases other shoppers' lapsed holds)."""
    bookings = list(Booking.objects.filter(pk__in=ids))
    for booking in bookings:
        booking._history_user = None  # django-simple-history's documented way to name nobody
    Booking.history.bulk_history_create(bookings, update=True, default_change_reason=reason)


def booking_withdraw_for_part(*, part_id: int) -> int:
    """The part is being deleted: its unpaid orders can no longer be paid (each PaymentIntent
    is cancelled at Stripe first; ProviderError when Stripe fails, then nothing changes) and
    what they held goes with the part; each shopper is mailed. An order paid meanwhile is
    recorded as paid (then shipped or refunded as usual). Every order of the part loses its
    link to it. How many were withdrawn."""
    orders = Booking.objects.filter(part_id=part_id)
    unpaid = orders.filter(paid=False, released_at__isnull=True)
    withdrawn = sum(
        _booking_withdraw(booking_id=pk)
        for pk in unpaid.order_by("pk").values_list("pk", flat=True)
    )
    if orders.exists():
        orders_changed()
    return withdrawn


@transaction.atomic
def _booking_withdraw(*, booking_id: int) -> bool:
    locked = booking_locked(booking_id)
    if locked is None or locked.paid or locked.released_at:
        return False
    if locked.payment_intent_id:
        intent = payments.intent_cancel(locked)
        if intent is not None and intent.status == "succeeded":
            payments.check_pays_for(intent, locked)
            settle_locked(locked, intent_id=intent.id)
            return False
    # The part's row goes with it, so no stock is released; the order shows as expired.
    locked.released_at = timezone.now()
    locked.save(update_fields=["released_at"])
    run_after_commit(tasks.send_booking_withdrawn, booking_id=locked.pk)
    return True
