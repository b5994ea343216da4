"""Payments: starting one, recording one (from the shopper's confirmation or Stripe's
webhook), and what happens to a payment that comes too late. No shopper is charged for
nothing: a payment that cannot buy its order is refunded in full.

Every way an order gets paid (the PATCH confirmation, the webhook, booking_mark_paid, a late
payment, a payment found succeeded when an order is deleted or withdrawn) goes through
settle_locked, which gives the order its invoice number (services.invoicing) in the same
transaction, once: a paid order is never paid again. A paid order later refunded keeps its
number (it was sold); a late payment refunded at once because the stock was gone gets none."""

from django.db import transaction
from django.utils import timezone

from catalog.models import Part
from catalog.stock import stock_reserve
from core.errors import Conflict, NotFound
from core.templatetags.money import money
from pricing.services import voucher_use
from pricing.vouchers import NOT_VALID, VoucherRefused, voucher_find

from .. import emails, payments
from ..models import Booking, BookingEventKind
from .common import (
    ORDER_GONE,
    ORDER_REFUNDED,
    Settled,
    booking_locked,
    orders_changed,
    purchase_changed,
)
from .invoicing import invoice_number_take
from .refunding import record_refund
from .timeline import record_event

ALREADY_PAID = "This order is already paid"
ORDER_EXPIRED = "This order's hold has lapsed: it can no longer be paid. Delete it and order again."
PAYMENT_REFUNDED = (
    "This order's hold lapsed and its stock is gone: your payment was refunded in full"
)


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
    locked = booking_locked(booking.pk)
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
    lapsed takes its stock and its voucher's use again when both are still to be had, else it
    is refunded in full and the order is refunded. Refunds happen at Stripe before anything is
    committed here.
    """
    locked = booking_locked(booking_id)
    if locked is None:
        payments.refund_intent(intent_id, booking_id=booking_id)
        return Settled.REFUNDED
    return settle_locked(locked, intent_id=intent_id)


@transaction.atomic
def booking_mark_paid(*, booking_id: int, transaction_id: str) -> bool:
    """Record a verified payment of an unpaid order, once: True when the order is now paid;
    False when it was already paid or is gone (nothing is refunded here: the webhook and the
    PATCH settle those through booking_settle_payment), or when the payment came after the
    hold lapsed and its stock is gone (then it is refunded in full)."""
    locked = booking_locked(booking_id)
    if locked is None or locked.paid:
        return False
    return settle_locked(locked, intent_id=transaction_id) == Settled.PAID


def booking_record_payment_failure(*, booking: Booking, message: str) -> None:
    """Keep what Stripe said about a failed payment (shown in Django admin only)."""
    booking.payment_error = message[:500]
    booking.save(update_fields=["payment_error"])


def settle_locked(locked: Booking, *, intent_id: str) -> str:
    """booking_settle_payment on the order's locked row."""
    if locked.paid:
        if locked.transaction_id == intent_id:
            return Settled.ALREADY_PAID
        payments.refund_intent(intent_id, booking_id=locked.pk)  # paid twice
        return Settled.REFUNDED
    if locked.released_at and not _taken_again(locked):
        refund_id = payments.refund_intent(intent_id, booking_id=locked.pk)
        _record_payment(locked, transaction_id=intent_id)
        record_refund(locked, refund_id=refund_id)
        return Settled.REFUNDED
    _record_payment(locked, transaction_id=intent_id, invoiced=True)
    emails.booking_mail_paid(booking_id=locked.pk)
    emails.booking_mail_paid_admins(booking_id=locked.pk)
    return Settled.PAID


def _taken_again(locked: Booking) -> bool:
    """Take what an expired order gave back when its hold lapsed, all or nothing: its units,
    every line in part id order (the lock order of placing), then its voucher's use, checked
    as at checkout (another order may have taken the last use meanwhile); False when a part is
    gone or short or the voucher no longer applies."""
    lines = list(locked.lines.order_by("part_id").values_list("part_id", "quantity"))
    try:
        with transaction.atomic():  # a savepoint: whatever fails undoes what was taken before
            for part_id, quantity in lines:
                if part_id is None:
                    raise Part.DoesNotExist
                stock_reserve(
                    part_id=part_id,
                    quantity=quantity,
                    order_id=locked.pk,
                    note="Paid after its hold lapsed",
                )
            if locked.voucher_code:
                _voucher_used_again(locked)
    except (Conflict, Part.DoesNotExist, VoucherRefused):
        return False
    locked.released_at = None
    locked.save(update_fields=["released_at"])
    return True


def _voucher_used_again(locked: Booking) -> None:
    voucher = voucher_find(locked.voucher_code)
    if voucher is None:  # deleted since
        raise VoucherRefused(NOT_VALID)
    voucher_use(
        voucher_id=voucher.pk,
        user=locked.user,
        email=locked.email,
        order_id=locked.pk,
        subtotal=locked.subtotal,
    )


def _record_payment(locked: Booking, *, transaction_id: str, invoiced: bool = False) -> None:
    """The order (its row locked) is paid; `invoiced`: the payment bought it, so it takes the
    invoices' next number (a payment refunded at once, its stock gone, sold nothing: none).
    The number is taken last, so the invoices' counter stays locked only while this commits."""
    locked.paid = True
    locked.paid_at = timezone.now()
    locked.transaction_id = transaction_id
    locked.payment_intent_id = transaction_id
    locked.payment_error = ""
    text = f"Paid {money(locked.total_price)} by card"
    if invoiced:
        locked.invoice_number = invoice_number_take(paid_at=locked.paid_at)
        text += f" (invoice {locked.invoice_number})"
    record_event(locked, BookingEventKind.PAID, text)
    locked.save(
        update_fields=[
            "paid",
            "paid_at",
            "transaction_id",
            "payment_intent_id",
            "payment_error",
            "invoice_number",
            "events",
        ]
    )
    orders_changed()
    purchase_changed(locked)
