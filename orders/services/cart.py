"""The cart's writes: adding, setting and removing a line, merging a visitor's cart into the
account's at sign-in, pruning visitors' carts whose sessions are gone, and checking a cart out
as one order.

A cart holds no stock: prices and stock are read when it is shown (orders.selectors.cart) and
again when it is checked out (the order's own rules: placing). A line remembers its part's
price when it was added, only to tell the shopper when that price changed; adding the part
again (the shopper has seen its page, at the new price) remembers the new one.

A cart's writes go one at a time: its row is locked first (the cart, then its lines, then
what placing locks), and a quantity is never read to be written back: a line is changed in
the database (quantity = quantity + n), so two tabs adding the same part at once add both.
A visitor's cart is made by their first addition that holds up, never by reading.
"""

from datetime import timedelta
from decimal import Decimal

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Count, F, Q, Sum
from django.db.models.functions import Greatest, Least
from django.utils import timezone

from catalog.models import Part
from core.errors import NotFound, Rejected
from core.wording import counted
from pricing.vouchers import VoucherRefused, voucher_check, voucher_find

from ..models import Booking, Cart, CartLine
from ..selectors.cart import cart_subtotal
from .expiring import booking_release_lapsed_holds
from .placing import PART_GONE, booking_place_lines, check_quantity
from .ship_to import ShipTo, ship_to_save

CART_EMPTY = "Your cart is empty."
CART_FULL = (
    "Your cart can hold at most {count} part: check out or remove it first.",
    "Your cart can hold at most {count} parts: check out or remove one first.",
)
NOT_IN_CART = "This part is not in your cart."


def _lock(cart: Cart) -> None:
    """Lock the cart's row until the transaction ends (one write at a time per cart, in the
    same order everywhere: the cart, then its lines) and note that it is in use (a visitor's
    cart idle past a session's life is pruned)."""
    Cart.objects.filter(pk=cart.pk).update(updated_at=timezone.now())


def _check_addition(*, part: Part, quantity: int) -> None:
    """A quantity to add is at least 1 and at most the part's stock (the line's own bounds are
    checked on the sum): anything else reads as the order's quantity messages."""
    if quantity < 1 or quantity > part.available_quantity:
        check_quantity(part=part, quantity=quantity)


def cart_add(*, cart: Cart | None, user, part: Part, quantity: int) -> Cart:
    """Add `quantity` units of `part` (as the shopper saw it: its price is the line's
    remembered one) to `cart`: to its line when there is one, else as a new line (at most
    CART_MAX_LINES). The line's quantity must stay within the part's bounds (400 `quantity`;
    nothing changes); 404 when the part was deleted meanwhile.

    Without a cart, the account's (or, for a visitor, a new one) is made, only when the
    addition holds up; the cart is answered either way (a visitor's session keeps its id)."""
    try:
        return _cart_add(cart=cart, user=user, part=part, quantity=quantity)
    except IntegrityError:  # a new line's part key is checked when the transaction commits
        raise NotFound(PART_GONE) from None


@transaction.atomic
def _cart_add(*, cart: Cart | None, user, part: Part, quantity: int) -> Cart:
    _check_addition(part=part, quantity=quantity)
    if cart is None:
        cart = _new_cart(user)
    _lock(cart)
    # Read under the cart's lock: another tab's addition waits for it, then reads this one's.
    lines = CartLine.objects.filter(cart=cart)
    now = lines.aggregate(lines=Count("pk"), quantity=Sum("quantity", filter=Q(part=part)))
    if now["quantity"] is not None:
        check_quantity(part=part, quantity=now["quantity"] + quantity)
        # In the database, not the sum read: a line removed meanwhile is added again below.
        added = F("quantity") + quantity
        if lines.filter(part=part).update(quantity=added, price_when_added=part.price):
            return cart
    check_quantity(part=part, quantity=quantity)
    if now["lines"] >= settings.CART_MAX_LINES:
        raise ValidationError({"partId": counted(settings.CART_MAX_LINES, *CART_FULL)})
    # No savepoint: the cart's lock above keeps another tab from adding the same line first.
    CartLine.objects.create(cart=cart, part=part, quantity=quantity, price_when_added=part.price)
    return cart


@transaction.atomic
def cart_set(*, cart: Cart | None, part_id: int, quantity: int) -> None:
    """Set a line's quantity within the part's bounds (400 `quantity`); 0 removes the line.
    404 when the part is not in the cart. The line keeps the price it remembers."""
    if cart is not None:
        _lock(cart)
    lines = CartLine.objects.filter(cart=cart, part_id=part_id) if cart else CartLine.objects.none()
    line = lines.select_related("part").first()
    if line is None:
        raise NotFound(NOT_IN_CART)
    if quantity == 0:
        line.delete()
        return
    check_quantity(part=line.part, quantity=quantity)
    CartLine.objects.filter(pk=line.pk).update(quantity=quantity)


@transaction.atomic
def cart_remove(*, cart: Cart | None, part_id: int) -> None:
    """The part's line leaves the cart (nothing happens when it is not there)."""
    if cart is None:
        return
    _lock(cart)
    CartLine.objects.filter(cart=cart, part_id=part_id).delete()


@transaction.atomic
def cart_voucher_apply(*, cart: Cart | None, user, code: str) -> Cart:
    """Apply the voucher of `code` (any case) to the cart, in place of the one applied: 400
    on `code` with the voucher's reason when it does not apply to the cart's goods as they
    are now (the old one stays). Without a cart, the account's (or a visitor's new one) is
    made, only when the code applies."""
    voucher = voucher_find(code)
    if cart is not None:
        _lock(cart)
    subtotal = cart_subtotal(cart=cart)
    try:
        voucher_check(voucher=voucher, subtotal=subtotal, user=user)
    except VoucherRefused as refused:
        raise ValidationError({"code": refused.message}) from None
    if cart is None:
        cart = _new_cart(user)
    cart.voucher = voucher
    Cart.objects.filter(pk=cart.pk).update(voucher=voucher)
    return cart


@transaction.atomic
def cart_voucher_remove(*, cart: Cart | None) -> None:
    """The cart's voucher leaves it (nothing happens when it has none)."""
    if cart is None:
        return
    Cart.objects.filter(pk=cart.pk).update(voucher=None, updated_at=timezone.now())
    cart.voucher = None


def _new_cart(user) -> Cart:
    """The account's cart (made now when it has none), or a visitor's new one."""
    if user is not None and user.is_authenticated:
        return Cart.objects.get_or_create(user=user)[0]
    return Cart.objects.create()


@transaction.atomic
def cart_merge(*, cart_id: int, user) -> None:
    """At sign-in: the visitor's cart `cart_id` goes into the account's. A part in both gets
    the sum of the two quantities, capped at the part's stock, but never less than either
    cart had, and the price the visitor's line remembers (the shopper's latest look at it);
    lines past CART_MAX_LINES stay out; the visitor's voucher replaces the account's (the
    latest code applied). The visitor's cart is then gone."""
    visitor = Cart.objects.select_for_update().filter(pk=cart_id, user__isnull=True).first()
    if visitor is None:
        return
    account, _ = Cart.objects.get_or_create(user=user)
    _lock(account)
    have = set(CartLine.objects.filter(cart=account).values_list("part_id", flat=True))
    room = settings.CART_MAX_LINES - len(have)
    for line in visitor.lines.select_related("part"):
        if line.part_id in have:
            added = F("quantity") + line.quantity
            capped = Least(added, line.part.available_quantity)
            merged = Greatest(F("quantity"), line.quantity, capped)
            CartLine.objects.filter(cart=account, part_id=line.part_id).update(
                quantity=merged, price_when_added=line.price_when_added
            )
        elif room > 0:
            CartLine.objects.create(
                cart=account,
                part_id=line.part_id,
                quantity=line.quantity,
                price_when_added=line.price_when_added,
            )
            room -= 1
    if visitor.voucher_id is not None:
        Cart.objects.filter(pk=account.pk).update(voucher_id=visitor.voucher_id)
    visitor.delete()


def cart_prune_visitors(*, idle_for: timedelta) -> int:
    """Visitors' carts unchanged for `idle_for` (a session's life: their sessions are gone)
    are deleted; how many. Accounts' carts stay, however old."""
    before = timezone.now() - idle_for
    _, deleted = Cart.objects.filter(user__isnull=True, updated_at__lt=before).delete()
    return deleted.get(Cart._meta.label, 0)


def cart_checkout(
    *,
    user,
    ship: ShipTo,
    client_address: str | None = None,
    expected_total: Decimal | None = None,
    shipping_method: int | None = None,
    save_address: bool = False,
    cart_id: int | None = None,
    email: str = "",
) -> Booking:
    """One order of every line of the account's cart (a guest's, `user` None: of the visitor's
    cart `cart_id`, an order of `email` with its private key: placing.booking_place_lines), with its voucher, shipped to `ship`
    (with `save_address`, a new address is saved to the account's book with the order),
    placed from `client_address`, held as any order is
    (placing.booking_place_lines: its 400s and 409s, nothing held and the cart unchanged when
    a line cannot be had, or when `expected_total`, the total the shopper was shown, is not
    the total at the prices the order would be placed at: PricesChanged, or when the voucher
    no longer applies: VoucherNoLongerApplies); then the cart is empty and has no voucher.
    400 when it is empty.

    The cart's row stays locked until the order is committed: a second checkout of the same
    cart (a double click, another device) waits, then finds it empty. The cart is emptied
    before the order is placed, so that the parts' locks are not held for it; a refused order
    rolls that back with the rest.

    The lapsed holds of the cart's parts go back on the shelf first, each batch committed on
    its own (expiring.booking_release_lapsed_holds), never inside the order's transaction: its
    parts' locks would be held there, taken in another order than the order's own (part id),
    and an order placed meanwhile could deadlock with it."""
    if user is None:
        carts = (
            Cart.objects.filter(pk=cart_id, user__isnull=True) if cart_id else Cart.objects.none()
        )
    else:
        carts = Cart.objects.filter(user=user)
    if part_ids := list(CartLine.objects.filter(cart__in=carts).values_list("part_id", flat=True)):
        booking_release_lapsed_holds(part_ids=part_ids)
    with transaction.atomic():
        cart = carts.select_for_update(of=("self",)).select_related("voucher").first()
        lines = list(CartLine.objects.filter(cart=cart).values_list("part_id", "quantity"))
        if cart is None or not lines:
            raise Rejected(CART_EMPTY)
        CartLine.objects.filter(cart=cart).delete()  # what was read under the lock: all of it
        if cart.voucher_id is not None:
            Cart.objects.filter(pk=cart.pk).update(voucher=None)
        booking = booking_place_lines(
            user=user,
            lines=lines,
            address=ship.address,
            phone=ship.phone,
            client_address=client_address,
            expected_total=expected_total,
            shipping_method=shipping_method,
            ship_to=ship.copy,
            voucher=cart.voucher,
            savepoint=False,  # this transaction is the order's: a refusal ends it all
            release_lapsed=False,  # released above, on their own
            email=email,
            name=(ship.copy or {}).get("fullName", ""),
        )
        if save_address and ship.fields is not None and user is not None:
            ship_to_save(user=user, ship=ship)
        return booking
