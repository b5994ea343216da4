"""The one function that adds an order's money up: its lines, a voucher, a shipping method
and the tax of where it goes. The cart, the shipping methods' prices, the checkout and the
order all ask `quote`; nothing else adds money up.

Every figure is a Decimal of dollars. The lines' totals are whole cents already; a percentage
off and the tax are each rounded half up to the cent, once per order (never per line).
"""

from collections.abc import Iterable
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from django.conf import settings
from django_countries import countries

from core.errors import Rejected

from . import selectors
from .models import ShippingMethod, Voucher
from .vouchers import voucher_check

CENT = Decimal("0.01")
ZERO = Decimal("0.00")
NOT_THERE = "This shipping method does not deliver to {country}."
TOO_HEAVY = "This shipping method cannot carry an order of {weight:,} g."
NOT_OFFERED = "This shipping method is not offered any more."


class ShippingRefused(Rejected):
    """The chosen method cannot deliver this order (where it goes, or its weight)."""


def cents(amount: Decimal) -> Decimal:
    """`amount` rounded half up to the cent."""
    return amount.quantize(CENT, rounding=ROUND_HALF_UP)


@dataclass(frozen=True)
class Line:
    """One line to price: a unit price (dollars), how many, and one unit's weight (grams)."""

    unit_price: Decimal
    quantity: int
    weight: int = 0

    @property
    def total(self) -> Decimal:
        return self.unit_price * self.quantity


@dataclass(frozen=True)
class Shipping:
    method: str  # the method's name ("" while the shop has no method: nothing to pay)
    price: Decimal
    eta: str
    method_id: int | None = None


@dataclass(frozen=True)
class Quote:
    subtotal: Decimal  # the lines' totals
    discount: Decimal  # off the goods (a free-shipping voucher leaves it at 0)
    voucher: str | None  # the code applied
    shipping: Shipping
    tax: Decimal  # contained in the total when tax_included, else added to it
    tax_included: bool
    total: Decimal
    weight: int  # grams, the lines' together

    @property
    def goods(self) -> Decimal:
        """The goods after the discount (what free-over and the minimums compare)."""
        return self.subtotal - self.discount


@dataclass(frozen=True)
class Choice:
    """A method that can deliver an order, and what the order costs by it."""

    method: ShippingMethod
    quote: Quote


def quote(
    *,
    lines: Iterable[Line],
    country: str,
    region: str = "",
    method: ShippingMethod | None = None,
    voucher: Voucher | None = None,
    user=None,
    email: str = "",
) -> Quote:
    """What an order of `lines` shipped to `country` (and `region`) by `method` (the default
    when None) with `voucher` costs `user` (or the guest of `email`). VoucherRefused when the
    voucher does not apply, ShippingRefused when the method cannot deliver the order."""
    goods = _Goods.of(lines, voucher=voucher, user=user, email=email)
    rate = selectors.tax_rate_for(country=country, region=region)
    shipping = _shipping(method, country=country, weight=goods.weight, goods=goods.after_discount)
    return goods.quote(shipping, voucher=voucher, rate=rate)


def quote_options(
    *,
    lines: Iterable[Line],
    country: str,
    region: str = "",
    voucher: Voucher | None = None,
    user=None,
    email: str = "",
) -> list["Choice"]:
    """Every active method that can deliver an order of `lines` to `country`, with what the
    order costs by it (as quote says), cheapest first (the default first among equals).
    VoucherRefused when the voucher does not apply."""
    goods = _Goods.of(lines, voucher=voucher, user=user, email=email)
    rate = selectors.tax_rate_for(country=country, region=region)
    options = []
    for method in (method for method in selectors.rules().methods if method.active):
        try:
            shipping = _shipping(
                method, country=country, weight=goods.weight, goods=goods.after_discount
            )
        except ShippingRefused:
            continue
        options.append(Choice(method, goods.quote(shipping, voucher=voucher, rate=rate)))
    return sorted(options, key=lambda o: (o.quote.total, not o.method.is_default, o.method.pk))


def voucher_discount(
    *, voucher: Voucher | None, subtotal: Decimal, user=None, email: str = ""
) -> Decimal:
    """What `voucher` takes off goods worth `subtotal` for `user` (or the guest of `email`):
    0 for none and for a free-shipping code; VoucherRefused when it does not apply."""
    if voucher is None:
        return ZERO
    voucher_check(voucher=voucher, subtotal=subtotal, user=user, email=email)
    return _discount(voucher, subtotal)


@dataclass(frozen=True)
class _Goods:
    """The lines added up, with the voucher's discount: what every method's quote shares."""

    subtotal: Decimal
    discount: Decimal
    weight: int

    @classmethod
    def of(cls, lines: Iterable[Line], *, voucher, user, email) -> "_Goods":
        lines = list(lines)
        subtotal = sum((line.total for line in lines), ZERO)
        discount = voucher_discount(voucher=voucher, subtotal=subtotal, user=user, email=email)
        weight = sum(line.weight * line.quantity for line in lines)
        return cls(subtotal, discount, weight)

    @property
    def after_discount(self) -> Decimal:
        return self.subtotal - self.discount

    def quote(self, shipping: Shipping, *, voucher: Voucher | None, rate) -> Quote:
        """The order by `shipping`, taxed at `rate` (a TaxRate or None)."""
        if voucher is not None and voucher.kind == Voucher.Kind.SHIPPING:
            shipping = Shipping(shipping.method, ZERO, shipping.eta, shipping.method_id)
        taxable = self.after_discount + shipping.price
        tax = ZERO
        included = settings.PRICES_INCLUDE_TAX
        if rate is not None and rate.rate:
            tax = cents(taxable * rate.rate / ((100 + rate.rate) if included else 100))
        return Quote(
            subtotal=self.subtotal,
            discount=self.discount,
            voucher=voucher.code if voucher is not None else None,
            shipping=shipping,
            tax=tax,
            tax_included=included,
            total=taxable if included else taxable + tax,
            weight=self.weight,
        )


def _discount(voucher: Voucher, subtotal: Decimal) -> Decimal:
    if voucher.kind == Voucher.Kind.PERCENT:
        return min(cents(subtotal * voucher.value / 100), subtotal)
    if voucher.kind == Voucher.Kind.FIXED:
        return min(voucher.value, subtotal)
    return ZERO


def _shipping(
    method: ShippingMethod | None, *, country: str, weight: int, goods: Decimal
) -> Shipping:
    if method is None:
        method = selectors.method_default()
        if method is None:  # a shop without methods ships as the spec's shop did: free
            return Shipping("", ZERO, "")
    if not method.active:
        raise ShippingRefused(NOT_OFFERED)
    if not method.delivers_to(country):
        raise ShippingRefused(NOT_THERE.format(country=countries.name(country) or country))
    price = selectors.method_price(method, weight=weight, goods=goods)
    if price is None:
        raise ShippingRefused(TOO_HEAVY.format(weight=weight))
    return Shipping(method.name, price, method.eta, method.pk)
