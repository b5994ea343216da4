"""What an order would cost by each shipping method, for the shopper asking: their cart (with
its voucher), or one line of a part (the purchase form). Pricing's quote_options adds it up."""

from django.conf import settings

from catalog.models import Part
from pricing.models import Voucher
from pricing.quotes import Choice, Line, quote_options
from pricing.vouchers import VoucherRefused

from ..models import Cart, CartLine


def cart_priced_lines(*, cart: Cart | None) -> list[Line]:
    """The cart's lines at today's prices and weights, to price."""
    if cart is None:
        return []
    rows = CartLine.objects.filter(cart=cart).values_list("part__price", "quantity", "part__weight")
    return [Line(price, quantity, weight) for price, quantity, weight in rows]


def part_priced_lines(*, part: Part, quantity: int | None) -> list[Line]:
    """One line of `quantity` units of `part` (its minimum order when None), to price."""
    return [Line(part.price, quantity or part.minimum_order_quantity, part.weight)]


def shipping_choices(
    *,
    lines: list[Line],
    user,
    country: str = "",
    region: str = "",
    voucher: Voucher | None = None,
) -> list[Choice]:
    """The methods that deliver `lines` to `country` (SHOP_COUNTRY when empty), cheapest
    first, each with the order's breakdown by it for `user`; a voucher that does not apply
    (the cart says why) prices them without it."""
    where = {"lines": lines, "country": country or settings.SHOP_COUNTRY, "region": region}
    try:
        return quote_options(**where, voucher=voucher, user=user)
    except VoucherRefused:
        return quote_options(**where, user=user)
