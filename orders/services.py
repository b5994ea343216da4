"""Ordering rules: stock, quantity bounds, prices, cancelling and approval."""

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from catalog.models import Part
from catalog.stock import stock_release, stock_reserve
from core.errors import Conflict, NotFound

from . import payments, tasks
from .background import run_after_commit
from .models import Booking

QUANTITY_BELOW_MINIMUM = "Quantity must be at least {minimum} (the minimum order quantity)"
QUANTITY_ABOVE_STOCK = "Only {available} units are available"
PART_GONE = "This part is no longer available"
PAID_ORDER_LOCKED = "This order is paid and can no longer be deleted"
ORDER_NOT_PAID = "This order is not paid yet, so it can't be approved"
ALREADY_PAID = "This order is already paid"
ORDER_GONE = "This order no longer exists"


def check_quantity(*, part: Part, quantity: int) -> None:
    """The spec's bounds: minimumOrderQuantity ≤ quantity ≤ availableQuantity."""
    if quantity < part.minimum_order_quantity:
        message = QUANTITY_BELOW_MINIMUM.format(minimum=part.minimum_order_quantity)
        raise ValidationError({"quantity": message})
    if quantity > part.available_quantity:
        message = QUANTITY_ABOVE_STOCK.format(available=part.available_quantity)
        raise ValidationError({"quantity": message})


@transaction.atomic
def booking_place(*, user, part: Part, quantity: int, address: str, phone: str) -> Booking:
    """Record the order and have the catalog reserve its stock, at the server's prices.

    `part` is the shopper's view of it: bounds are checked against that view first (400);
    catalog.stock checks again on the locked row, where a shortfall means another order got
    there first (409). The order is written first so the stock movement can name it; a
    refusal rolls both back.
    """
    check_quantity(part=part, quantity=quantity)
    booking = Booking.objects.create(
        user=user,
        part=part,
        email=user.email,
        name=user.name,
        parts_name=part.name,
        price_per_unit=part.price,
        quantity=quantity,
        total_price=part.price * quantity,
        address=address,
        phone=phone,
    )
    try:
        locked = stock_reserve(part_id=part.pk, quantity=quantity, order_id=booking.pk, by=user)
    except Part.DoesNotExist:
        raise ValidationError({"partId": PART_GONE}) from None
    if (locked.name, locked.price) != (part.name, part.price):  # changed since it was read
        booking.parts_name, booking.price_per_unit = locked.name, locked.price
        booking.total_price = locked.price * quantity
        booking.save(update_fields=["parts_name", "price_per_unit", "total_price"])
    run_after_commit(tasks.send_booking_placed, booking_id=booking.pk)
    run_after_commit(
        tasks.send_low_stock, booking_id=booking.pk, before=locked.available_quantity + quantity
    )
    return booking


@transaction.atomic
def booking_cancel(*, booking: Booking, by_admin: bool) -> bool:
    """Delete an order and give its stock back (unless it has shipped); False when the order
    was already gone.

    Shoppers may delete only unpaid orders; admins may delete any. The order is locked and
    read again first: two cancels at once give its stock back once, and a payment or an
    approval that landed meanwhile counts.
    """
    locked = Booking.objects.select_for_update().filter(pk=booking.pk).first()
    if locked is None:
        return False
    if locked.paid and not by_admin:
        raise Conflict(PAID_ORDER_LOCKED)
    if locked.part_id and locked.state != Booking.State.SHIPPED:
        stock_release(part_id=locked.part_id, quantity=locked.quantity, order_id=locked.pk)
    locked.delete()
    return True


@transaction.atomic
def booking_approve(*, booking: Booking) -> bool:
    """Mark a paid order approved (shipped); False when it already was.

    The order is locked and read again first (it may have been paid, approved or deleted
    meanwhile); `booking` is refreshed to what was stored.
    """
    locked = Booking.objects.select_for_update().filter(pk=booking.pk).first()
    if locked is None:
        raise NotFound(ORDER_GONE)
    if not locked.paid:
        raise Conflict(ORDER_NOT_PAID)
    changed = locked.status != Booking.Status.APPROVED
    if changed:
        locked.status = Booking.Status.APPROVED
        locked.save(update_fields=["status"])
        run_after_commit(tasks.send_booking_shipped, booking_id=locked.pk)
    booking.refresh_from_db()
    return changed


def booking_start_payment(*, booking: Booking) -> str:
    """The client secret of the PaymentIntent for this unpaid order (one intent per order)."""
    if booking.paid:
        raise Conflict(ALREADY_PAID)
    intent = payments.intent_for(booking)
    if intent.id != booking.payment_intent_id:
        booking.payment_intent_id = intent.id
        booking.save(update_fields=["payment_intent_id"])
    return intent.client_secret


def booking_confirm_payment(*, booking: Booking, transaction_id: str) -> Booking:
    """Mark the order paid once Stripe confirms `transaction_id` paid for exactly this order."""
    if booking.paid:
        if booking.transaction_id == transaction_id:
            return booking  # the webhook got there first
        raise Conflict(ALREADY_PAID)
    intent = payments.verified_intent(booking, transaction_id)
    booking_mark_paid(booking_id=booking.pk, transaction_id=intent.id)
    booking.refresh_from_db()
    return booking


@transaction.atomic
def booking_mark_paid(*, booking_id: int, transaction_id: str) -> bool:
    """Record a verified payment, once: False when the order was already paid (or is gone)."""
    booking = Booking.objects.select_for_update().filter(pk=booking_id).first()
    if booking is None or booking.paid:
        return False
    booking.paid = True
    booking.paid_at = timezone.now()
    booking.transaction_id = transaction_id
    booking.payment_intent_id = transaction_id
    booking.payment_error = ""
    booking.save(
        update_fields=["paid", "paid_at", "transaction_id", "payment_intent_id", "payment_error"]
    )
    run_after_commit(tasks.send_booking_paid, booking_id=booking.pk)
    run_after_commit(tasks.send_booking_paid_to_admins, booking_id=booking.pk)
    return True


def booking_record_payment_failure(*, booking: Booking, message: str) -> None:
    booking.payment_error = message[:500]
    booking.save(update_fields=["payment_error"])
