"""Placing an order of one or more lines: the quantity bounds, the cap on unpaid orders, the
account's share of each part, the server's prices, the one hold; and correcting where an order
goes.

The purchase form and POST /api/booking place an order of one line (booking_place, with its
400s on the form's fields); a checkout places an order of every line of a cart
(booking_place_lines, 409 naming the line that cannot be had). Both go through one core,
_booking_create, so each rule is written once.
"""

from collections.abc import Iterable, Sequence
from decimal import Decimal

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Value

from catalog.models import Part
from catalog.stock import (
    stock_fell_below_minimum,
    stock_lock_parts,
    stock_shortfall,
    stock_take_lines,
)
from core.emails import normalize_email
from core.errors import Conflict
from core.locks import NamedLock, named_locks_take
from core.templatetags.money import money
from pricing import selectors as pricing_selectors
from pricing.models import ShippingMethod, Voucher
from pricing.quotes import Line, Quote, ShippingRefused, quote
from pricing.services import voucher_lock, voucher_record_use
from pricing.vouchers import NOT_VALID, VoucherRefused

from .. import emails
from ..bounds import MAX_TOTAL, TOTAL_TOO_LARGE, Bound, line_bound_text
from ..models import Booking, BookingEventKind, BookingLine
from .common import booking_locked, orders_changed
from .expiring import booking_release_lapsed_holds
from .guests import guest_key_new
from .holds import AccountHolds, account_holds, held_share, held_share_refusal, hold_deadline
from .timeline import new_event

QUANTITY_BELOW_MINIMUM = "Quantity must be at least {minimum} (the minimum order quantity)"
QUANTITY_ABOVE_STOCK = ("Only {count} unit is available", "Only {count} units are available")
QUANTITY_SOLD_OUT = "This part is out of stock"
# A line's bounds (orders.bounds) as the order's 400s and 409s say them.
QUANTITY_WORDING = {
    Bound.SOLD_OUT: QUANTITY_SOLD_OUT,
    Bound.ABOVE_STOCK: QUANTITY_ABOVE_STOCK,
    Bound.BELOW_MINIMUM: QUANTITY_BELOW_MINIMUM,
    Bound.TOTAL_TOO_LARGE: TOTAL_TOO_LARGE,
}
PART_GONE = "This part is no longer available"
TOO_MANY_UNPAID = "You already have {count} unpaid orders: pay or delete one first."
LINE_UNAVAILABLE = "{name}: {reason}"
ADDRESS_LOCK = "orders.client_address:"  # the name of an address's lock (core.locks)
GUEST_LOCK = "orders.guest_email:"  # the name of a guest's e-mail's lock (core.locks)
PRICES_CHANGED = "Prices changed since you looked: please check your order again."
SHIPPING_METHOD_UNKNOWN = "There is no shipping method with this id"


class LineUnavailable(Conflict):
    """A line of an order cannot be had (stock, minimum, fair-hold limit, total, part gone):
    nothing was held. 409 `{"detail", "partId"}`; `detail` names the part and says why.

    `reason` is the sentence alone, `field` the input it is about ("quantity" or "partId"),
    and `stock_changed` tells a shortfall found under the part's lock (another order got there
    first) from one the shopper could have seen: booking_place answers them as it always has.
    """

    def __init__(
        self,
        *,
        part_id: int,
        reason: str,
        name: str = "",
        field: str = "quantity",
        stock_changed: bool = False,
    ):
        detail = LINE_UNAVAILABLE.format(name=name, reason=reason) if name else reason
        super().__init__(detail, partId=part_id)
        self.part_id = part_id
        self.reason = reason
        self.field = field
        self.stock_changed = stock_changed


class PricesChanged(Conflict):
    """The order's total at the prices read under the parts' locks is not the one the shopper
    was shown (`expected_total`): nothing was held. 409; the cart's endpoint answers it with
    the cart as it is now."""

    def __init__(self):
        super().__init__(PRICES_CHANGED)


class VoucherNoLongerApplies(Conflict):
    """The cart's voucher does not apply to the order (checked under its row's lock): nothing
    was held or used. 409 `{"detail": <the voucher's message>, "voucher": <its code>}`."""

    def __init__(self, *, code: str, reason: str):
        super().__init__(reason, voucher=code)


def quantity_problem(*, part: Part, quantity: int) -> str | None:
    """Why `quantity` units of `part` (as read) cannot be ordered, in the order's words, or
    None: the line's bounds (orders.bounds)."""
    return line_bound_text(QUANTITY_WORDING, part=part, quantity=quantity)


def check_quantity(*, part: Part, quantity: int) -> None:
    """quantity_problem as a 400 on `quantity`."""
    if problem := quantity_problem(part=part, quantity=quantity):
        raise ValidationError({"quantity": problem})


def account_locked_holds(
    *, user, client_address: str | None, part_ids: Sequence[int], email: str = ""
) -> AccountHolds:
    """The account's row (a guest's: its e-mail's lock, `user` None) and its client address
    locked until the order commits, and what the account's unpaid orders (the guest's: those
    of its e-mail, holds.holder_filter) and those placed from that address hold
    (holds.account_holds) read under those locks; Conflict (409) when the account's are
    MAX_UNPAID_ORDERS already (orders, however many lines each has).

    Locked first, so two orders of one account, or from one address, placed at once count
    each other (and see each other's holds: holds.held_share_refusal). Both locks are taken
    by one statement, the address's (core.locks.NamedLock) as it reads the account's row, so
    every order takes them in the same order and the address costs no round trip. FOR NO KEY
    UPDATE, not FOR UPDATE: it still makes the account's orders wait for each other, but not
    the rows that merely point at the account (a history entry, a stock movement, a kept
    deadline). Those are written while a part is locked, and an order waiting for that part
    while holding the account would otherwise deadlock with them (a delete and a new order of
    one account at once). A guest has no row: its e-mail's lock and then the address's are
    taken by one statement of their own.
    """
    if held_share() >= 1:
        client_address = None  # no share to keep: no address's holds to count or lock
    if user is None:
        address_names = [ADDRESS_LOCK + client_address] if client_address else []
        named_locks_take(GUEST_LOCK + email, *address_names)
    else:
        account = get_user_model().objects.select_for_update(no_key=True).filter(pk=user.pk)
        address_lock = NamedLock(ADDRESS_LOCK + client_address) if client_address else Value(False)
        account.values_list("pk", address_lock).first()
    holds = account_holds(user=user, email=email, client_address=client_address, part_ids=part_ids)
    cap = settings.MAX_UNPAID_ORDERS
    if holds.orders >= cap:
        raise Conflict(TOO_MANY_UNPAID.format(count=cap))
    return holds


def shipping_method_chosen(method_id: int | None) -> ShippingMethod | None:
    """The method an order asks for by its id, with its bands (None: the default, which
    pricing's quote finds); a 400 on `shippingMethod` when there is no method of that id."""
    if method_id is None:
        return None
    method = pricing_selectors.method_chosen(method_id)
    if method is None:
        raise ValidationError({"shippingMethod": SHIPPING_METHOD_UNKNOWN})
    return method


def booking_place(
    *,
    user,
    part: Part,
    quantity: int,
    address: str,
    phone: str,
    client_address: str | None = None,
    shipping_method: int | None = None,
) -> Booking:
    """Place an order of one line: `quantity` units of `part` (the shopper's view of it),
    from `client_address` (core.clients.client_address of the request; None for orders the
    shop places itself, which are counted by their account alone).

    Bounds checked on that view are 400s on `quantity` (a part gone: on `partId`); a shortfall
    found under the part's lock means another order got there first (409); a method that
    cannot deliver the order is a 400 on `shippingMethod`. See _booking_create for the rest.
    """
    method = shipping_method_chosen(shipping_method)
    # Committed on their own: a refused order never puts lapsed holds back on hold.
    if booking_release_lapsed_holds(part_ids=[part.pk]):
        part.available_quantity = (
            Part.objects.filter(pk=part.pk).values_list("available_quantity", flat=True).first()
            or 0
        )
    try:
        with transaction.atomic():
            return _booking_create(
                user=user,
                wanted=[(part.pk, part, quantity)],
                address=address,
                phone=phone,
                client_address=client_address,
                method=method,
            )
    except LineUnavailable as refused:
        if refused.stock_changed:
            raise Conflict(refused.reason) from None
        raise ValidationError({refused.field: refused.reason}) from None


def booking_place_lines(
    *,
    user,
    lines: Sequence[tuple[int, int]],
    address: str,
    phone: str,
    client_address: str | None = None,
    expected_total: Decimal | None = None,
    shipping_method: int | None = None,
    ship_to: dict | None = None,
    voucher: Voucher | None = None,
    savepoint: bool = True,
    email: str = "",
    name: str = "",
    release_lapsed: bool = True,
) -> Booking:
    """Place one order of several lines, `(part_id, quantity)` each (one part named twice is
    one line of both quantities), at the server's prices, from `client_address` (as for
    booking_place), shipped to `ship_to` (the address's fields; None: the free-text
    `address`, to SHOP_COUNTRY), with `voucher` (the code the shopper applied, or None): all
    lines or none. Inside a caller's transaction, the order is a savepoint of it, so a
    refusal leaves that transaction usable; `savepoint=False` (Django's atomic's own) when
    the caller's transaction is the order's and ends with the refusal (a checkout), which
    spares two statements.

    LineUnavailable (409 naming the part) when a line cannot be had, Conflict (409) at
    MAX_UNPAID_ORDERS, PricesChanged (409) when `expected_total` (the total the shopper was
    shown; None: not checked) is not the order's total at the prices read under the parts'
    locks; VoucherNoLongerApplies (409 naming the code) when the voucher does not apply to
    the order under its lock; a 400 on `shippingMethod` (the id of `shipping_method`; None:
    the default) when that method cannot deliver the order; whatever the refusal, nothing is
    held or used. With `user` None, a guest's order of `email` (normalised) and `name`, with a
    private key (guests.guest_key_new). `release_lapsed=False`: the caller has put the lapsed
    holds of these parts back before its own transaction (cart_checkout). See _booking_create
    for the rest.
    """
    method = shipping_method_chosen(shipping_method)
    wanted: dict[int, int] = {}
    for part_id, quantity in lines:
        wanted[part_id] = wanted.get(part_id, 0) + quantity
    if not wanted:
        raise ValueError("an order needs at least one line")
    if release_lapsed:  # False: the caller has, before its transaction (cart_checkout)
        booking_release_lapsed_holds(part_ids=list(wanted))  # committed on their own, as above
    parts = Part.objects.defer("search_vector").in_bulk(list(wanted))
    with transaction.atomic(savepoint=savepoint):
        return _booking_create(
            user=user,
            wanted=[(pk, parts.get(pk), wanted[pk]) for pk in sorted(wanted)],
            address=address,
            phone=phone,
            client_address=client_address,
            expected_total=expected_total,
            method=method,
            ship_to=ship_to,
            voucher=voucher,
            email=email,
            name=name,
        )


def _booking_create(
    *,
    user,
    wanted: list[tuple[int, Part | None, int]],
    address: str,
    phone: str,
    client_address: str | None,
    expected_total: Decimal | None = None,
    method: ShippingMethod | None = None,
    ship_to: dict | None = None,
    voucher: Voucher | None = None,
    email: str = "",
    name: str = "",
) -> Booking:
    """Record the order and have the catalog reserve each line's stock, at the server's
    prices, in the caller's transaction (its atomic block: the locks below last until it
    ends, and a refusal rolls it back); the order holds that stock for ORDER_HOLD_SECONDS (or until the account's earliest
    earlier hold of one of its parts lapses: holds.hold_deadline).

    `wanted` is `(part_id, the shopper's view of the part or None when it is gone, quantity)`
    per line, in part id order. Lapsed holds on those parts went back on the shelf first
    (the callers), so a hold that lapsed never blocks a shopper, worker or no worker. Bounds
    are checked against the views first, and the hold's deadline is decided on the account's
    lock; then the parts' rows are locked, in id order (two orders of the same parts wait for
    each other and never deadlock), where a shortfall means another order got there first,
    and the share of each part held by the account and its client address is decided, and
    the order is priced by pricing's quote at those prices (shipped by `method`, the default
    when None, to `ship_to`, a copy of the address fields, or for the spec's free-text
    `address` (ship_to None) to SHOP_COUNTRY) with `voucher`, checked under its row's lock
    (taken after the parts': the last use goes to one order), and its total is compared with
    `expected_total`. The order is written before the stock is taken so each stock movement
    can name it, and the voucher's use is counted with it; a refusal (LineUnavailable,
    PricesChanged, VoucherNoLongerApplies) rolls everything back.
    """
    part_ids = [pk for pk, _, _ in wanted]
    if user is not None:
        email, name = user.email, user.name
    email = normalize_email(email)
    holds = account_locked_holds(
        user=user, email=email, client_address=client_address, part_ids=part_ids
    )
    for part_id, part, quantity in wanted:
        if part is None:
            raise LineUnavailable(part_id=part_id, reason=PART_GONE, field="partId")
        if problem := quantity_problem(part=part, quantity=quantity):
            raise LineUnavailable(part_id=part_id, name=part.name, reason=problem)
    expires_at = hold_deadline(user=user, holds=holds, part_ids=part_ids)
    locked_lines = _locked_lines(wanted)
    for locked, quantity in locked_lines:
        held = holds.units.get(locked.pk, 0)
        refusal = held_share_refusal(part=locked, quantity=quantity, held=held)
        if refusal:
            raise LineUnavailable(part_id=locked.pk, name=locked.name, reason=refusal)
    lines = [
        BookingLine(
            part=locked,
            parts_name=locked.name,
            price_per_unit=locked.price,
            quantity=quantity,
            line_total=locked.price * quantity,
        )
        for locked, quantity in locked_lines
    ]
    subtotal = Decimal(0)
    for line in lines:  # at the prices under the locks, which may have changed since
        subtotal += line.line_total
        if subtotal > MAX_TOTAL:
            raise LineUnavailable(
                part_id=line.part_id, name=line.parts_name, reason=TOTAL_TOO_LARGE
            )
    locked_voucher = _locked_voucher(voucher)
    priced = _priced(
        locked_lines,
        method=method,
        ship_to=ship_to,
        voucher=locked_voucher,
        user=user,
        email=email,
    )
    if priced.total > MAX_TOTAL:  # shipping and tax on top of goods just under it
        last = lines[-1]
        raise LineUnavailable(part_id=last.part_id, name=last.parts_name, reason=TOTAL_TOO_LARGE)
    if expected_total is not None and priced.total != expected_total:
        raise PricesChanged  # before anything is written: nothing held, nothing taken
    booking = Booking.objects.create(
        user=user,
        email=email,
        name=name,
        guest_key=guest_key_new() if user is None else None,
        total_price=priced.total,
        subtotal=priced.subtotal,
        discount=priced.discount,
        voucher_code=priced.voucher or "",
        shipping_method=priced.shipping.method,
        shipping_price=priced.shipping.price,
        shipping_eta=priced.shipping.eta,
        tax=priced.tax,
        tax_included=priced.tax_included,
        ship_to=ship_to,
        address=address,
        phone=phone,
        expires_at=expires_at,
        client_address=client_address,
        events=[new_event(BookingEventKind.PLACED, f"Order placed ({money(priced.total)})")],
    )
    for line in lines:
        line.booking = booking
    booking.placed_lines = BookingLine.objects.bulk_create(lines)
    if locked_voucher is not None:
        voucher_record_use(voucher=locked_voucher, user=user, email=email, order_id=booking.pk)
    _reserve(booking=booking, lines=lines, by=user)
    orders_changed()
    emails.booking_mail_placed(booking=booking)
    return booking


def _locked_voucher(voucher: Voucher | None) -> Voucher | None:
    """The voucher's row locked until the order commits; VoucherNoLongerApplies when the
    owner deleted it meanwhile."""
    if voucher is None:
        return None
    locked = voucher_lock(voucher_id=voucher.pk)
    if locked is None:
        raise VoucherNoLongerApplies(code=voucher.code, reason=NOT_VALID)
    return locked


def _priced(
    locked_lines: list[tuple[Part, int]],
    *,
    method: ShippingMethod | None,
    ship_to: dict | None,
    voucher: Voucher | None,
    user,
    email: str = "",
) -> Quote:
    """The order priced by pricing's one function, at the locked parts' prices and weights;
    a method that cannot deliver it is a 400 on `shippingMethod`, a voucher that does not
    apply a VoucherNoLongerApplies."""
    country = ship_to["country"] if ship_to else settings.SHOP_COUNTRY
    region = ship_to.get("region", "") if ship_to else ""
    try:
        return quote(
            lines=[Line(part.price, quantity, part.weight) for part, quantity in locked_lines],
            country=country,
            region=region,
            method=method,
            voucher=voucher,
            user=user,
            email=email,
        )
    except ShippingRefused as refused:
        raise ValidationError({"shippingMethod": refused.message}) from None
    except VoucherRefused as refused:
        raise VoucherNoLongerApplies(code=voucher.code, reason=refused.message) from None


def _locked_lines(wanted: list[tuple[int, Part, int]]) -> list[tuple[Part, int]]:
    """Each line's part, its row locked until the order commits, with at least the line's
    quantity on it (LineUnavailable otherwise, for the first line in part id order)."""
    rows = stock_lock_parts(part_ids=[pk for pk, _, _ in wanted])
    locked_lines = []
    for part_id, part, quantity in wanted:
        locked = rows.get(part_id)
        if locked is None:
            raise LineUnavailable(part_id=part_id, reason=PART_GONE, field="partId")
        if shortfall := stock_shortfall(part=locked, quantity=quantity):
            raise LineUnavailable(
                part_id=part_id, name=part.name, reason=shortfall, stock_changed=True
            )
        locked_lines.append((locked, quantity))
    return locked_lines


def _reserve(*, booking: Booking, lines: list[BookingLine], by) -> None:
    """Take the lines' units off their parts' shelves (at once); the low-stock mail for each
    part whose stock crossed its minimum order quantity."""
    stock_take_lines(
        lines=[(line.part, line.quantity) for line in lines], order_id=booking.pk, by=by
    )
    for line in lines:
        after, minimum = line.part.available_quantity, line.part.minimum_order_quantity
        before = after + line.quantity
        if stock_fell_below_minimum(before=before, after=after, minimum=minimum):
            # Only then: the mail checks the same rule again, and most orders need no mail.
            emails.part_mail_low_stock(booking_id=booking.pk, before=before, part_id=line.part_id)


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
