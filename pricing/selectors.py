"""Reads of pricing: shipping methods (and what one costs for an order), tax rates, vouchers.

What a quote reads of the shop's methods, bands and rates (`rules`) is kept until one of them
changes (core.caching.versions: every write bumps RULES), so pricing an order costs no SQL
statement; the owner's pages and API read the rows themselves. Vouchers are never kept: a
checkout reads its voucher under the row's lock.
"""

from dataclasses import dataclass
from decimal import Decimal

from django.db.models import Count, Prefetch

from core.caching import versions

from .models import ShippingMethod, TaxRate, Voucher, WeightBand

ZERO = Decimal("0.00")
RULES = "pricing"  # the version of the methods, their bands and the tax rates


def _with_bands(queryset):
    return queryset.prefetch_related(
        Prefetch("bands", queryset=WeightBand.objects.order_by("up_to_grams"))
    )


def method_list():
    """Every method with its bands (the owner's list), by name."""
    return _with_bands(ShippingMethod.objects.all())


@dataclass(frozen=True)
class Rules:
    """What a quote reads: every method with its bands, and every tax rate."""

    methods: tuple[ShippingMethod, ...]
    rates: tuple[TaxRate, ...]


def rules() -> Rules:
    """The shop's methods (with their bands) and tax rates, kept until one changes (RULES)."""
    return versions.get_or_set("pricing:rules", _rules_now, names=[RULES])


def _rules_now() -> Rules:
    return Rules(tuple(method_list()), tuple(TaxRate.objects.all()))


def method_default() -> ShippingMethod | None:
    """The method an order ships by when none is chosen (None while the shop has none)."""
    return next((method for method in rules().methods if method.is_default), None)


def method_chosen(pk: int) -> ShippingMethod | None:
    """The method of `pk` as a quote prices it (switched off or not); None when none has it."""
    return next((method for method in rules().methods if method.pk == pk), None)


def method_get(pk: int) -> ShippingMethod | None:
    """The method of `pk` with its bands, read now (the owner's pages and API)."""
    return _with_bands(ShippingMethod.objects.filter(pk=pk)).first()


def method_price(method: ShippingMethod, *, weight: int, goods: Decimal) -> Decimal | None:
    """What `method` costs for an order of `weight` grams and goods worth `goods` (after any
    discount); None when the order is heavier than its last band. A method without bands
    costs nothing at any weight; at or above `free_over` it costs nothing either."""
    bands = list(method.bands.all())  # in weight order (prefetched)
    if bands:
        band = next((b for b in sorted(bands, key=_grams) if weight <= b.up_to_grams), None)
        if band is None:
            return None
        price = band.price
    else:
        price = ZERO
    if method.free_over is not None and goods >= method.free_over:
        return ZERO
    return price


def _grams(band: WeightBand) -> int:
    return band.up_to_grams


def tax_rate_for(*, country: str, region: str = "") -> TaxRate | None:
    """The most specific rate of a destination: its region's, else its country's, else None."""
    region = (region or "").strip().casefold()
    rates = [
        rate
        for rate in rules().rates
        if rate.country == country and rate.region.casefold() in ("", region)
    ]
    return max(rates, key=lambda r: r.region != "", default=None)


def tax_rate_list():
    return TaxRate.objects.all()


def voucher_list():
    """Every voucher with how many times it was used."""
    return Voucher.objects.annotate(use_count=Count("uses")).order_by("code")
