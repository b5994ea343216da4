"""Placing an order: the quantity bounds, the cap on unpaid orders, the account's share of the
part, the server's prices, the hold; and correcting where an order goes."""

from collections.abc import Iterable
from decimal import Decimal

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import transaction

from catalog.models import Part
from catalog.stock import stock_lock, stock_reserve
from core.background import run_after_commit
from core.errors import Conflict
from core.wording import counted

from .. import tasks
from ..emails import stock_fell_below_minimum
from ..models import Booking
from .common import booking_locked, orders_changed
from .expiring import booking_release_lapsed_holds
from .holds import check_held_share, hold_deadline

QUANTITY_BELOW_MINIMUM = "Quantity must be at least {minimum} (the minimum order quantity)"
QUANTITY_ABOVE_STOCK = ("Only {count} unit is available", "Only {count} units are available")
PART_GONE = "This part is no longer available"
TOTAL_TOO_LARGE = "The total can't pass $99,999,999.99: order fewer units"
TOO_MANY_UNPAID = "You already have {count} unpaid orders: pay or delete one first."
MAX_TOTAL = Decimal("99999999.99")


def check_quantity(*, part: Part, quantity: int) -> None:
    """minimumOrderQuantity ≤ quantity ≤ availableQuantity, and a total that fits the order's
    money column (and Stripe)."""
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
    orders_changed()
    run_after_commit(tasks.send_booking_placed, booking_id=booking.pk)
    before = locked.available_quantity + quantity
    minimum = locked.minimum_order_quantity
    if stock_fell_below_minimum(before=before, after=locked.available_quantity, minimum=minimum):
        # Only then: the task checks the same rule again, and most orders need no task.
        run_after_commit(tasks.send_low_stock, booking_id=booking.pk, before=before)
    return booking


@transaction.atomic
def booking_correct(*, booking: Booking, fields: Iterable[str]) -> bool:
    """Store `fields` of an order corrected by hand in Django admin (where it goes: its
    address or phone; the rest is read-only there and changes only through the services);
    False when there was nothing to store or the order is gone.

    Only those columns are written, on the order's locked row, so a payment or a refund
    recorded while the form was open stands.
    """
    fields = list(fields)
    locked = booking_locked(booking.pk) if fields else None
    if locked is None:
        return False
    for field in fields:
        setattr(locked, field, getattr(booking, field))
    locked.save(update_fields=fields)
    orders_changed()
    return True
