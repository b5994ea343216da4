"""Reads of the cart: its lines at today's prices and stock, each with what stops it from being
ordered (`problem`), what changed since it was added (`notice`) and whether it fits the
caller's active bike (`warning`); and the voucher applied and what it takes off."""

from decimal import Decimal

from catalog.garage import fit_warnings
from catalog.models import Part
from core.templatetags.money import money
from pricing.models import Voucher
from pricing.quotes import voucher_discount
from pricing.vouchers import VoucherRefused

from ..bounds import TOTAL_TOO_LARGE, Bound, line_bound_text
from ..models import Cart, CartLine

PROBLEM_OUT_OF_STOCK = "This part is out of stock"
PROBLEM_FEW_LEFT = "Only {count} left"
PROBLEM_MINIMUM = "The minimum order is {minimum}"
# A line's bounds (orders.bounds) as the cart says them: each stops checkout for its line.
PROBLEM_WORDING = {
    Bound.SOLD_OUT: PROBLEM_OUT_OF_STOCK,
    Bound.ABOVE_STOCK: PROBLEM_FEW_LEFT,
    Bound.BELOW_MINIMUM: PROBLEM_MINIMUM,
    Bound.TOTAL_TOO_LARGE: TOTAL_TOO_LARGE,
}
PRICE_CHANGED = "The price went from {before} to {now} since you added it."


def line_problem(*, part: Part, quantity: int) -> str | None:
    """What stops this line from being ordered now, as the shopper reads it; None when nothing."""
    return line_bound_text(PROBLEM_WORDING, part=part, quantity=quantity)


def line_notice(*, part: Part, price_when_added: Decimal) -> str | None:
    """What the shopper should know before checking out (it does not stop checkout): the
    part's price since the line was added; None when it is the same."""
    if part.price == price_when_added:
        return None
    return PRICE_CHANGED.format(before=money(price_when_added), now=money(part.price))


def cart_read(*, cart: Cart | None, user=None, session=None) -> dict:
    """The cart as GET /api/cart answers it: its lines in the order they were added, at
    today's prices and stock, each with its problem (which stops checkout), its notice (a
    price changed since it was added) and its warning (a part that does not fit the caller's
    active bike, which does not stop checkout); the number of units; the subtotal, the
    voucher applied and its discount (0, with `voucherProblem` saying why, when it no longer
    applies), and the total after it. No warnings without `session` (the caller's). Reading
    never creates anything."""
    lines = [_line_json(line) for line in _lines(cart)]
    if session is not None:
        warnings = fit_warnings(user=user, session=session, part_ids=[ln["partId"] for ln in lines])
        for line in lines:
            line["warning"] = warnings.get(line["partId"])
    subtotal = sum((line["lineTotal"] for line in lines), Decimal("0.00"))
    voucher = cart.voucher if cart is not None else None
    discount, problem = _discount(voucher, subtotal=subtotal, user=user)
    return {
        "lines": lines,
        "count": sum(line["quantity"] for line in lines),
        "subtotal": subtotal,
        "discount": discount,
        "voucher": _voucher_json(voucher),
        "voucherProblem": problem,
        "total": subtotal - discount,
    }


def _discount(voucher: Voucher | None, *, subtotal: Decimal, user) -> tuple[Decimal, str | None]:
    """What the cart's voucher takes off its goods today, and why it takes nothing when it no
    longer applies (the voucher's message: checkout would refuse it)."""
    try:
        return voucher_discount(voucher=voucher, subtotal=subtotal, user=user), None
    except VoucherRefused as refused:
        return Decimal("0.00"), refused.message


def _voucher_json(voucher: Voucher | None) -> dict | None:
    if voucher is None:
        return None
    return {"code": voucher.code, "kind": voucher.kind, "value": voucher.value}


def cart_subtotal(*, cart: Cart | None) -> Decimal:
    """The cart's goods at today's prices (what a voucher's minimum compares)."""
    if cart is None:
        return Decimal("0.00")
    lines = CartLine.objects.filter(cart=cart).values_list("part__price", "quantity")
    return sum((price * quantity for price, quantity in lines), Decimal("0.00"))


def _lines(cart: Cart | None):
    if cart is None:
        return []
    return (
        CartLine.objects.filter(cart=cart)
        .select_related("part")
        .only(
            "quantity",
            "price_when_added",
            "part__name",
            "part__img",
            "part__price",
            "part__minimum_order_quantity",
            "part__available_quantity",
        )
    )


def _line_json(line: CartLine) -> dict:
    part = line.part
    return {
        "partId": part.pk,
        "name": part.name,
        "img": part.img,
        "url": part.get_absolute_url(),
        "price": part.price,
        "priceWhenAdded": line.price_when_added,
        "quantity": line.quantity,
        "lineTotal": part.price * line.quantity,
        "minimumOrderQuantity": part.minimum_order_quantity,
        "availableQuantity": part.available_quantity,
        "problem": line_problem(part=part, quantity=line.quantity),
        "notice": line_notice(part=part, price_when_added=line.price_when_added),
    }
