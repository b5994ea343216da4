"""Ordering rules: stock, quantity bounds, prices, holds that lapse, the cap on unpaid orders,
cancelling and approval (how much of a part one account may hold, and for how long: holds.py).

Locks are always taken in one order: the account (placing), then the order's row, then the
part's row (inside catalog.stock), so concurrent services wait for each other and never
deadlock.
"""

from decimal import Decimal
from enum import StrEnum

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from catalog.models import Part
from catalog.stock import stock_lock, stock_release, stock_release_orders, stock_reserve
from core.background import run_after_commit
from core.errors import Conflict, NotFound
from core.wording import counted

from .. import payments, tasks
from ..emails import stock_fell_below_minimum
from ..models import Booking
from .holds import (
    check_held_share,
    hold_deadline,
    hold_deadline_keep,
    hold_deadlines_prune,
)

QUANTITY_BELOW_MINIMUM = "Quantity must be at least {minimum} (the minimum order quantity)"
QUANTITY_ABOVE_STOCK = ("Only {count} unit is available", "Only {count} units are available")
PART_GONE = "This part is no longer available"
PAID_ORDER_LOCKED = "This order is paid and can never be deleted: refund it instead"
ORDER_NOT_PAID = "This order is not paid yet, so it can't be approved"
ALREADY_PAID = "This order is already paid"
ORDER_GONE = "This order no longer exists"
TOTAL_TOO_LARGE = "The total can't pass $99,999,999.99: order fewer units"
TOO_MANY_UNPAID = "You already have {count} unpaid orders: pay or delete one first."
ORDER_EXPIRED = "This order's hold has lapsed: it can no longer be paid. Delete it and order again."
MAX_TOTAL = Decimal("99999999.99")
PAID_MEANWHILE = "This order was paid meanwhile, so it can't be deleted"
PAYMENT_IN_PROGRESS = "A payment of this order is in progress: try again in a moment"
PAYMENT_REFUNDED = (
    "This order's hold lapsed and its stock is gone: your payment was refunded in full"
)
ORDER_REFUNDED = "This order was refunded"
REFUND_UNPAID = "This order is not paid, so there is nothing to refund"


class Settled(StrEnum):
    """What became of an order when it was paid or deleted."""

    PAID = "paid"
    ALREADY_PAID = "already_paid"
    REFUNDED = "refunded"
    DELETED = "deleted"
    GONE = "gone"
    PROCESSING = "processing"


def check_quantity(*, part: Part, quantity: int) -> None:
    """The spec's bounds: minimumOrderQuantity ≤ quantity ≤ availableQuantity, and a total
    that fits the order's money column (and Stripe)."""
    if quantity < part.minimum_order_quantity:
        message = QUANTITY_BELOW_MINIMUM.format(minimum=part.minimum_order_quantity)
        raise ValidationError({"quantity": message})
    if quantity > part.available_quantity:
        message = counted(part.available_quantity, *QUANTITY_ABOVE_STOCK)
        raise ValidationError({"quantity": message})
    check_total(price=part.price, quantity=quantity)


def check_total(*, price: Decimal, quantity: int) -> None:
    if price * quantity > MAX_TOTAL:
        raise ValidationError({"quantity": TOTAL_TOO_LARGE})


def check_unpaid_cap(*, user) -> None:
    """At most MAX_UNPAID_ORDERS unpaid, unexpired orders per account (409 beyond).

    The account's row is locked first, so two orders placed at once count each other (and
    see each other's holds: holds.check_held_share). FOR NO KEY UPDATE, not FOR UPDATE: it
    still makes the account's orders wait for each other, but not the rows that merely point
    at the account (a history entry, a stock movement, a kept deadline). Those are written
    while a part is locked, and an order waiting for that part while holding the account
    would otherwise deadlock with them (a delete and a new order of one account at once).
    """
    accounts = get_user_model().objects.select_for_update(no_key=True)
    accounts.filter(pk=user.pk).values_list("pk").first()
    cap = settings.MAX_UNPAID_ORDERS
    if Booking.objects.filter(user=user).unpaid_holding().count() >= cap:
        raise Conflict(TOO_MANY_UNPAID.format(count=cap))


def booking_place(*, user, part: Part, quantity: int, address: str, phone: str) -> Booking:
    """Record the order and have the catalog reserve its stock, at the server's prices; the
    order holds that stock for ORDER_HOLD_SECONDS (or until the account's earlier hold of the
    part lapses: holds.hold_deadline).

    Lapsed holds on the part go back on the shelf first, so a hold that lapsed never blocks
    a shopper, worker or no worker. `part` is the shopper's view of it (its stock read again
    after that): bounds are checked against that view first (400); then the part's row is
    locked, where a shortfall means another order got there first (409), and the account's
    share of the part is decided on it (400). The order is written before the stock is taken
    so the stock movement can name it; a refusal rolls both back.
    """
    # Committed on their own: a refused order never puts lapsed holds back on hold.
    if booking_release_lapsed_holds(part_id=part.pk):
        part.available_quantity = (
            Part.objects.filter(pk=part.pk).values_list("available_quantity", flat=True).first()
            or 0
        )
    return _booking_create(user=user, part=part, quantity=quantity, address=address, phone=phone)


@transaction.atomic
def _booking_create(*, user, part: Part, quantity: int, address: str, phone: str) -> Booking:
    check_unpaid_cap(user=user)
    check_quantity(part=part, quantity=quantity)
    try:
        locked = stock_lock(part_id=part.pk, quantity=quantity)  # until the order commits
    except Part.DoesNotExist:
        raise ValidationError({"partId": PART_GONE}) from None
    if locked.price != part.price:  # changed since the shopper read it
        check_total(price=locked.price, quantity=quantity)
    check_held_share(user=user, part=locked, quantity=quantity)
    booking = Booking.objects.create(
        user=user,
        part=locked,
        email=user.email,
        name=user.name,
        parts_name=locked.name,
        price_per_unit=locked.price,
        quantity=quantity,
        total_price=locked.price * quantity,
        address=address,
        phone=phone,
        expires_at=hold_deadline(user=user, part=locked),
    )
    locked = stock_reserve(part_id=locked.pk, quantity=quantity, order_id=booking.pk, by=user)
    run_after_commit(tasks.send_booking_placed, booking_id=booking.pk)
    before = locked.available_quantity + quantity
    minimum = locked.minimum_order_quantity
    if stock_fell_below_minimum(before=before, after=locked.available_quantity, minimum=minimum):
        # Only then: the task checks the same rule again (a task per order cost a publish).
        run_after_commit(tasks.send_low_stock, booking_id=booking.pk, before=before)
    return booking


def booking_expire(*, booking_id: int) -> bool:
    """Put the stock of an unpaid order whose hold lapsed back on the shelf, exactly once;
    False when there is nothing to do (paid, still held, already released, gone, or being
    paid or deleted right now)."""
    return bool(_release_lapsed(Booking.objects.filter(pk=booking_id)))


def booking_withdraw_for_part(*, part_id: int) -> int:
    """The part is being deleted: its unpaid orders can no longer be paid (each PaymentIntent
    is cancelled at Stripe first; ProviderError when Stripe fails, then nothing changes) and
    what they held goes with the part; each shopper is mailed. An order paid meanwhile is
    recorded as paid (then shipped or refunded as usual). How many were withdrawn."""
    unpaid = Booking.objects.filter(part_id=part_id, paid=False, released_at__isnull=True)
    return sum(
        _booking_withdraw(booking_id=pk)
        for pk in unpaid.order_by("pk").values_list("pk", flat=True)
    )


@transaction.atomic
def _booking_withdraw(*, booking_id: int) -> bool:
    locked = Booking.objects.select_for_update().filter(pk=booking_id).first()
    if locked is None or locked.paid or locked.released_at:
        return False
    if locked.payment_intent_id:
        intent = payments.intent_cancel(locked)
        if intent is not None and intent.status == "succeeded":
            payments.check_pays_for(intent, locked)
            _settle(locked, intent_id=intent.id)
            return False
    # The part's row goes with it, so no stock is released; the order shows as expired.
    locked.released_at = timezone.now()
    locked.save(update_fields=["released_at"])
    run_after_commit(tasks.send_booking_withdrawn, booking_id=locked.pk)
    return True


RELEASE_BATCH = 200


def booking_release_lapsed_holds(*, part_id: int | None = None) -> int:
    """Release every lapsed hold (of one part, when `part_id` is given); how many were.

    In batches of RELEASE_BATCH orders, each its own transaction: a few queries per batch, so
    10,000 lapsed holds cost an order placed after them well under a second, once.
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
    the stock back once.
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
        booking._history_user = None
    Booking.history.bulk_history_create(bookings, update=True, default_change_reason=reason)


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
    locked = Booking.objects.select_for_update().filter(pk=booking_id).first()
    if locked is None:
        return Settled.GONE
    if locked.paid:
        raise Conflict(PAID_ORDER_LOCKED)
    if locked.payment_intent_id:
        intent = payments.intent_cancel(locked)
        if intent is not None and intent.status == "succeeded":
            payments.check_pays_for(intent, locked)
            return _settle(locked, intent_id=intent.id)
        if intent is not None and intent.status != "canceled":
            return Settled.PROCESSING
    if locked.part_id and not locked.released_at:
        stock_release(part_id=locked.part_id, quantity=locked.quantity, order_id=locked.pk)
    hold_deadline_keep(booking=locked)  # the next order of the part lapses when this would have
    locked.delete()
    return Settled.DELETED


@transaction.atomic
def booking_approve(*, booking: Booking) -> bool:
    """Mark a paid order approved (shipped); False when it already was.

    The order is locked and read again first (it may have been paid, approved, refunded or
    deleted meanwhile); `booking` is refreshed to what was stored.
    """
    locked = Booking.objects.select_for_update().filter(pk=booking.pk).first()
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
        run_after_commit(tasks.send_booking_shipped, booking_id=locked.pk)
    booking.refresh_from_db()
    return changed


def check_payable(booking: Booking) -> None:
    """Only an unpaid order that still holds its stock can be paid (409 otherwise)."""
    if booking.refunded_at:
        raise Conflict(ORDER_REFUNDED)
    if booking.paid:
        raise Conflict(ALREADY_PAID)
    if booking.state == Booking.State.EXPIRED:
        raise Conflict(ORDER_EXPIRED)


@transaction.atomic
def booking_start_payment(*, booking: Booking) -> str:
    """The client secret of the PaymentIntent for this unpaid order (one intent per order).

    The order is locked while Stripe is asked, so a delete at the same time waits and then
    cancels the very intent handed out here.
    """
    locked = Booking.objects.select_for_update().filter(pk=booking.pk).first()
    if locked is None:
        raise NotFound(ORDER_GONE)
    check_payable(locked)
    intent = payments.intent_for(locked)
    if intent.id != locked.payment_intent_id:
        locked.payment_intent_id = intent.id
        locked.save(update_fields=["payment_intent_id"])
    return intent.client_secret


def booking_confirm_payment(*, booking: Booking, transaction_id: str) -> Booking:
    """Mark the order paid once Stripe confirms `transaction_id` paid for exactly this order.

    An expired order cannot be paid (Conflict), unless the card was charged already: then the
    payment takes the stock again when enough is left, else it is refunded in full (Conflict,
    and the order is refunded), exactly as when Stripe's webhook reports it.
    """
    if booking.paid:
        if booking.transaction_id == transaction_id:
            return booking  # the webhook got there first
        raise Conflict(ORDER_REFUNDED if booking.refunded_at else ALREADY_PAID)
    try:
        intent = payments.verified_intent(booking, transaction_id)
    except payments.PaymentRejected:
        if booking.state == Booking.State.EXPIRED:
            raise Conflict(ORDER_EXPIRED) from None
        raise
    outcome = booking_settle_payment(booking_id=booking.pk, intent_id=intent.id)
    if outcome == Settled.REFUNDED:
        raise Conflict(PAYMENT_REFUNDED)
    booking.refresh_from_db()
    return booking


@transaction.atomic
def booking_settle_payment(*, booking_id: int | None, intent_id: str) -> str:
    """Record a PaymentIntent that succeeded (checked by the caller) for order `booking_id`;
    what became of it (Settled): PAID, ALREADY_PAID or REFUNDED.

    No shopper is charged for nothing: a payment for an order that no longer exists, or a
    second payment of a paid order, is refunded in full; a payment for an order whose hold
    lapsed takes its stock again when enough is left, else it is refunded in full and the
    order is refunded. Refunds happen at Stripe before anything is committed here.
    """
    locked = None
    if booking_id is not None:
        locked = Booking.objects.select_for_update().filter(pk=booking_id).first()
    if locked is None:
        payments.refund_intent(intent_id, booking_id=booking_id)
        return Settled.REFUNDED
    return _settle(locked, intent_id=intent_id)


def _settle(locked: Booking, *, intent_id: str) -> str:
    """booking_settle_payment on the order's locked row."""
    if locked.paid:
        if locked.transaction_id == intent_id:
            return Settled.ALREADY_PAID
        payments.refund_intent(intent_id, booking_id=locked.pk)  # paid twice
        return Settled.REFUNDED
    if locked.released_at and not _stock_taken_again(locked):
        refund_id = payments.refund_intent(intent_id, booking_id=locked.pk)
        _record_payment(locked, transaction_id=intent_id)
        _record_refund(locked, refund_id=refund_id)
        return Settled.REFUNDED
    _record_payment(locked, transaction_id=intent_id)
    run_after_commit(tasks.send_booking_paid, booking_id=locked.pk)
    run_after_commit(tasks.send_booking_paid_to_admins, booking_id=locked.pk)
    return Settled.PAID


def _stock_taken_again(locked: Booking) -> bool:
    """Reserve an expired order's units again; False when the part is gone or short."""
    if not locked.part_id:
        return False
    try:
        with transaction.atomic():
            stock_reserve(
                part_id=locked.part_id,
                quantity=locked.quantity,
                order_id=locked.pk,
                note="Paid after its hold lapsed",
            )
    except (Conflict, Part.DoesNotExist):
        return False
    locked.released_at = None
    locked.save(update_fields=["released_at"])
    return True


def _record_payment(locked: Booking, *, transaction_id: str) -> None:
    locked.paid = True
    locked.paid_at = timezone.now()
    locked.transaction_id = transaction_id
    locked.payment_intent_id = transaction_id
    locked.payment_error = ""
    locked.save(
        update_fields=["paid", "paid_at", "transaction_id", "payment_intent_id", "payment_error"]
    )


def _record_refund(locked: Booking, *, refund_id: str) -> None:
    """The order is refunded; its stock goes back unless it shipped or is back already."""
    if locked.part_id and not locked.status and not locked.released_at:
        stock_release(
            part_id=locked.part_id,
            quantity=locked.quantity,
            order_id=locked.pk,
            note="Order refunded",
        )
    locked.refunded_at = timezone.now()
    locked.refund_id = refund_id
    locked.save(update_fields=["refunded_at", "refund_id"])
    run_after_commit(tasks.send_booking_refunded, booking_id=locked.pk)


@transaction.atomic
def booking_mark_paid(*, booking_id: int, transaction_id: str) -> bool:
    """Record a verified payment of an unpaid order, once: True when the order is now paid;
    False when it was already paid or is gone (nothing is refunded here: the webhook and the
    PATCH settle those through booking_settle_payment), or when the payment came after the
    hold lapsed and its stock is gone (then it is refunded in full)."""
    locked = Booking.objects.select_for_update().filter(pk=booking_id).first()
    if locked is None or locked.paid:
        return False
    return _settle(locked, intent_id=transaction_id) == Settled.PAID


@transaction.atomic
def booking_refund(*, booking: Booking, outside_stripe: bool = False) -> Booking:
    """Refund a paid order in full: at Stripe first (ProviderError, 502, when it fails:
    nothing changes), then the order is refunded and its stock goes back unless it shipped.
    Conflict when the order is unpaid or already refunded; `booking` is refreshed.

    `outside_stripe=True` records a refund whose money went back some other way (no card was
    charged through Stripe: the demo data); it never calls Stripe.
    """
    locked = Booking.objects.select_for_update().filter(pk=booking.pk).first()
    if locked is None:
        raise NotFound(ORDER_GONE)
    if locked.refunded_at:
        raise Conflict(ORDER_REFUNDED)
    if not locked.paid:
        raise Conflict(REFUND_UNPAID)
    refund_id = ""
    if not outside_stripe:
        refund_id = payments.refund_intent(locked.transaction_id, booking_id=locked.pk)
    _record_refund(locked, refund_id=refund_id)
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
    _record_refund(locked, refund_id=refund_id)
    return True


def booking_record_payment_failure(*, booking: Booking, message: str) -> None:
    booking.payment_error = message[:500]
    booking.save(update_fields=["payment_error"])
