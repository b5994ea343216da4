"""Reads of pricing: shipping methods (and what one costs for an order), tax rates, vouchers."""

from decimal import Decimal

from django.db.models import Count, Prefetch, Q

from .models import ShippingMethod, TaxRate, Voucher, WeightBand

ZERO = Decimal("0.00")


def _with_bands(queryset):
    return queryset.prefetch_related(
        Prefetch("bands", queryset=WeightBand.objects.order_by("up_to_grams"))
    )


def method_list():
    """Every method with its bands (the owner's list), by name."""
    return _with_bands(ShippingMethod.objects.all())


def method_default() -> ShippingMethod | None:
    """The method an order ships by when none is chosen (None while the shop has none)."""
    return _with_bands(ShippingMethod.objects.filter(is_default=True)).first()


def method_get(pk: int) -> ShippingMethod | None:
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
    region = (region or "").strip()
    where = Q(region="") | Q(region__iexact=region) if region else Q(region="")
    rates = list(TaxRate.objects.filter(where, country=country))
    return max(rates, key=lambda r: r.region != "", default=None)


def tax_rate_list():
    return TaxRate.objects.all()


def voucher_list():
    """Every voucher with how many times it was used."""
    return Voucher.objects.annotate(use_count=Count("uses")).order_by("code")
