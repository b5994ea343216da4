"""The cart: parts a shopper means to order, kept for the signed-in account (every device) or for
a visitor's session, merged at sign-in, and checked out as one order.

A cart holds no stock and no prices: they are read when it is shown (cart_read, with the
problem that stops checkout for each line) and again when it is checked out (the order's own
rules: orders.services). A cart's writes go one at a time (its row is locked first, then its
lines) and never read a quantity to write it back: a line is changed in the database
(quantity = quantity + n), so two tabs adding the same part at once add both.
"""

from datetime import timedelta
from decimal import Decimal

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Count, F, Q, Sum
from django.db.models.functions import Greatest, Least
from django.utils import timezone

from catalog.garage import fit_warnings
from catalog.models import Part
from core.errors import NotFound, Rejected
from core.wording import counted

from . import services
from .models import Booking, Cart, CartLine

SESSION_KEY = "cart"  # where a visitor's session keeps its cart's id (kept across sign-in)
CART_EMPTY = "Your cart is empty."
CART_FULL = (
    "Your cart can hold at most {count} part: check out or remove it first.",
    "Your cart can hold at most {count} parts: check out or remove one first.",
)
NOT_IN_CART = "This part is not in your cart."
PROBLEM_OUT_OF_STOCK = "This part is out of stock"
PROBLEM_FEW_LEFT = "Only {count} left"
PROBLEM_MINIMUM = "The minimum order is {minimum}"


# --- Where a cart lives ------------------------------------------------------------------------


def cart_of_request(request, *, create: bool = False) -> Cart | None:
    """The asker's cart: the signed-in account's, else the one the visitor's session names.
    None when there is none yet, unless `create` (a visitor's session is created then)."""
    user = request.user
    if user.is_authenticated:
        if create:
            return Cart.objects.get_or_create(user=user)[0]
        return Cart.objects.filter(user=user).first()
    cart_id = request.session.get(SESSION_KEY)
    cart = Cart.objects.filter(pk=cart_id, user__isnull=True).first() if cart_id else None
    if cart is None and create:
        cart = Cart.objects.create()
        request.session[SESSION_KEY] = cart.pk
    return cart


# --- Reading ------------------------------------------------------------------------------------


def line_problem(*, part: Part, quantity: int) -> str | None:
    """What stops this line from being ordered now, as the shopper reads it; None when nothing."""
    if part.is_out_of_stock:
        return PROBLEM_OUT_OF_STOCK
    if quantity > part.available_quantity:
        return PROBLEM_FEW_LEFT.format(count=part.available_quantity)
    if quantity < part.minimum_order_quantity:
        return PROBLEM_MINIMUM.format(minimum=part.minimum_order_quantity)
    return None


def cart_read_for(request, *, cart: Cart | None) -> dict:
    """cart_read for the caller of a page or API request: warned against their active bike."""
    return cart_read(cart=cart, user=request.user, session=request.session)


def cart_read(*, cart: Cart | None, user=None, session=None) -> dict:
    """The cart as GET /api/cart answers it: its lines in the order they were added, at
    today's prices and stock, each with its problem (which stops checkout) and its warning
    (a part that does not fit the caller's active bike, which does not); the number of units
    and the total. No warnings without `session` (the caller's)."""
    lines = []
    rows = (
        CartLine.objects.filter(cart=cart)
        .select_related("part")
        .only(
            "quantity",
            "part__name",
            "part__img",
            "part__price",
            "part__minimum_order_quantity",
            "part__available_quantity",
        )
        if cart is not None
        else []
    )
    for line in rows:
        part = line.part
        lines.append(
            {
                "partId": part.pk,
                "name": part.name,
                "img": part.img,
                "url": part.get_absolute_url(),
                "price": part.price,
                "quantity": line.quantity,
                "lineTotal": part.price * line.quantity,
                "minimumOrderQuantity": part.minimum_order_quantity,
                "availableQuantity": part.available_quantity,
                "problem": line_problem(part=part, quantity=line.quantity),
            }
        )
    if session is not None:
        warnings = fit_warnings(user=user, session=session, part_ids=[ln["partId"] for ln in lines])
        for line in lines:
            line["warning"] = warnings.get(line["partId"])
    return {
        "lines": lines,
        "count": sum(line["quantity"] for line in lines),
        "total": sum((line["lineTotal"] for line in lines), Decimal("0.00")),
    }


def checkout_defaults(*, user) -> dict:
    """Where the shopper's last order went: the checkout form starts from it."""
    last = Booking.objects.filter(user=user).order_by("-created_at", "-id").first()
    return {"address": last.address, "phone": last.phone} if last else {"address": "", "phone": ""}


# --- Changing ------------------------------------------------------------------------------------


def _check_addition(*, part: Part, quantity: int) -> None:
    """A quantity to add is at least 1 and at most the part's stock (the line's own bounds are
    checked on the sum): anything else reads as the order's quantity messages."""
    if quantity < 1 or quantity > part.available_quantity:
        services.check_quantity(part=part, quantity=quantity)


def _touch(cart: Cart) -> None:
    """Lock the cart's row until the transaction ends (one write at a time per cart, in the
    same order everywhere: the cart, then its lines) and note that it is in use (a visitor's
    cart idle past a session's life is pruned)."""
    Cart.objects.filter(pk=cart.pk).update(updated_at=timezone.now())


def cart_add(*, cart: Cart, part: Part, quantity: int) -> None:
    """Add `quantity` units of `part`: to its line when there is one, else as a new line (at
    most CART_MAX_LINES). The line's quantity must stay within the part's bounds (400
    `quantity`; nothing changes); 404 when the part was deleted meanwhile."""
    try:
        _cart_add(cart=cart, part=part, quantity=quantity)
    except IntegrityError:  # a new line's part key is checked when the transaction commits
        raise NotFound(services.PART_GONE) from None


@transaction.atomic
def _cart_add(*, cart: Cart, part: Part, quantity: int) -> None:
    _check_addition(part=part, quantity=quantity)
    _touch(cart)
    # Read under the cart's lock: another tab's addition waits for it, then reads this one's.
    lines = CartLine.objects.filter(cart=cart)
    now = lines.aggregate(lines=Count("pk"), quantity=Sum("quantity", filter=Q(part=part)))
    if now["quantity"] is not None:
        services.check_quantity(part=part, quantity=now["quantity"] + quantity)
        # In the database, not the sum read: a line removed meanwhile is added again below.
        if lines.filter(part=part).update(quantity=F("quantity") + quantity):
            return
    services.check_quantity(part=part, quantity=quantity)
    if now["lines"] >= settings.CART_MAX_LINES:
        raise ValidationError({"partId": counted(settings.CART_MAX_LINES, *CART_FULL)})
    # No savepoint: the cart's lock above keeps another tab from adding the same line first.
    CartLine.objects.create(cart=cart, part=part, quantity=quantity)


@transaction.atomic
def cart_set(*, cart: Cart | None, part_id: int, quantity: int) -> None:
    """Set a line's quantity within the part's bounds (400 `quantity`); 0 removes the line.
    404 when the part is not in the cart."""
    lines = CartLine.objects.filter(cart=cart, part_id=part_id) if cart else CartLine.objects.none()
    line = lines.select_related("part").first()
    if line is None:
        raise NotFound(NOT_IN_CART)
    _touch(cart)
    if quantity == 0:
        line.delete()
        return
    services.check_quantity(part=line.part, quantity=quantity)
    CartLine.objects.filter(pk=line.pk).update(quantity=quantity)


def cart_remove(*, cart: Cart | None, part_id: int) -> None:
    """The part's line leaves the cart (nothing happens when it is not there)."""
    if cart is not None:
        CartLine.objects.filter(cart=cart, part_id=part_id).delete()


@transaction.atomic
def cart_merge(*, cart_id: int, user) -> None:
    """At sign-in: the visitor's cart `cart_id` goes into the account's. A part in both gets
    the sum of the two quantities, capped at the part's stock, but never less than either
    cart had; lines past CART_MAX_LINES stay out. The visitor's cart is then gone."""
    visitor = Cart.objects.filter(pk=cart_id, user__isnull=True).first()
    if visitor is None:
        return
    account, _ = Cart.objects.get_or_create(user=user)
    _touch(account)
    have = set(CartLine.objects.filter(cart=account).values_list("part_id", flat=True))
    room = settings.CART_MAX_LINES - len(have)
    for line in visitor.lines.select_related("part"):
        if line.part_id in have:
            added = F("quantity") + line.quantity
            capped = Least(added, line.part.available_quantity)
            merged = Greatest(F("quantity"), line.quantity, capped)
            CartLine.objects.filter(cart=account, part_id=line.part_id).update(quantity=merged)
        elif room > 0:
            CartLine.objects.create(cart=account, part_id=line.part_id, quantity=line.quantity)
            room -= 1
    visitor.delete()


def cart_prune_visitors(*, idle_for: timedelta) -> int:
    """Visitors' carts unchanged for `idle_for` (a session's life: their sessions are gone)
    are deleted; how many. Accounts' carts stay, however old."""
    before = timezone.now() - idle_for
    _, deleted = Cart.objects.filter(user__isnull=True, updated_at__lt=before).delete()
    return deleted.get(Cart._meta.label, 0)


def cart_checkout(*, user, address: str, phone: str, client_address: str | None = None) -> Booking:
    """One order of every line of the account's cart, placed from `client_address`, held as
    any order is (orders.services.booking_place_lines: its 400s and 409s, nothing held and the
    cart unchanged when a line cannot be had); then the cart is empty. 400 when it is empty.

    The cart's row stays locked until the order is committed: a second checkout of the same
    cart (a double click, another device) waits, then finds it empty. The cart is emptied
    before the order is placed, so that the parts' locks are not held for it; a refused order
    rolls that back with the rest."""
    with transaction.atomic():
        cart = Cart.objects.select_for_update().filter(user=user).first()
        lines = list(CartLine.objects.filter(cart=cart).values_list("part_id", "quantity"))
        if cart is None or not lines:
            raise Rejected(CART_EMPTY)
        CartLine.objects.filter(cart=cart).delete()  # what was read under the lock: all of it
        return services.booking_place_lines(
            user=user, lines=lines, address=address, phone=phone, client_address=client_address
        )
