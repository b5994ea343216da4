"""Writes of pricing: the owner's shipping methods (with their bands), tax rates and vouchers,
and a voucher's uses. The API, Django admin and the demo data all write through these.

Rules that span rows live here, backed by the database's constraints: exactly one default
method (the first method is it; another becomes it only by taking it over), the default is
active, one rate per country and region, one voucher per code whatever its case, and a use
is counted under the voucher's row lock so the last use goes to exactly one order."""

from collections.abc import Collection, Iterable
from datetime import datetime
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from core.caching import versions
from core.emails import normalize_email

from . import selectors
from .models import (
    CODE_TAKEN,
    RATE_TAKEN,
    ShippingMethod,
    TaxRate,
    Voucher,
    VoucherUse,
    WeightBand,
)
from .vouchers import voucher_check

ONE_DEFAULT = "One method is always the default: make another method the default instead."
DEFAULT_ACTIVE = "The default method can't be switched off: make another method the default first."
DEFAULT_DELETE = "Make another method the default before deleting this one."
BANDS_REPEAT = "Each band needs its own weight: {grams:,} g is there twice."
PERCENT_RANGE = "A percentage is 1 to 100."
FIXED_POSITIVE = "Dollars off must be more than 0."
ENDS_BEFORE = "The end must come after the start."


def _bands_clean(bands: Iterable[tuple[int, Decimal]]) -> list[tuple[int, Decimal]]:
    bands = sorted(bands)
    seen = set()
    for grams, _ in bands:
        if grams in seen:
            raise ValidationError({"bands": BANDS_REPEAT.format(grams=grams)})
        seen.add(grams)
    return bands


def shipping_method_validate(*, method: ShippingMethod, was_default: bool) -> None:
    """The rules of one default (ValidationError by field): the only method is the default
    (set here), the default stays it until another takes over, and it is active."""
    others = ShippingMethod.objects.exclude(pk=method.pk)
    if not others.exists():
        method.is_default = True
    if was_default and not method.is_default:
        raise ValidationError({"is_default": ONE_DEFAULT})
    if method.is_default and not method.active:
        raise ValidationError({"active": DEFAULT_ACTIVE})


def _method_write(method: ShippingMethod, *, bands, was_default: bool) -> ShippingMethod:
    """Saves `method` and replaces its bands, keeping exactly one default."""
    bands = _bands_clean(bands)
    shipping_method_validate(method=method, was_default=was_default)
    others = ShippingMethod.objects.exclude(pk=method.pk)
    if method.is_default and not was_default:
        # Taken over: the old default's row is locked first, so two owners making two
        # methods the default at once end with one (the later), never with a constraint error.
        list(others.select_for_update().filter(is_default=True))
        others.filter(is_default=True).update(is_default=False)
    method.save()
    method.bands.all().delete()
    WeightBand.objects.bulk_create(
        WeightBand(method=method, up_to_grams=grams, price=price) for grams, price in bands
    )
    versions.bump(selectors.RULES)
    return method


@transaction.atomic
def shipping_method_create(
    *,
    name: str,
    bands: Iterable[tuple[int, Decimal]] = (),
    countries: Iterable[str] = (),
    free_over: Decimal | None = None,
    eta: str = "",
    active: bool = True,
    is_default: bool = False,
) -> ShippingMethod:
    """A new method priced by `bands` ((up to grams, price) pairs; none: free at any weight)."""
    method = ShippingMethod(
        name=name,
        countries=sorted(set(countries)),
        free_over=free_over,
        eta=eta,
        active=active,
        is_default=is_default,
    )
    return _method_write(method, bands=bands, was_default=False)


@transaction.atomic
def shipping_method_update(
    *,
    method: ShippingMethod,
    name: str,
    bands: Iterable[tuple[int, Decimal]] = (),
    countries: Iterable[str] = (),
    free_over: Decimal | None = None,
    eta: str = "",
    active: bool = True,
    is_default: bool = False,
) -> ShippingMethod:
    """Every field of `method` set anew, its bands replaced."""
    was_default = ShippingMethod.objects.select_for_update().get(pk=method.pk).is_default
    method.name = name
    method.countries = sorted(set(countries))
    method.free_over = free_over
    method.eta = eta
    method.active = active
    method.is_default = is_default
    return _method_write(method, bands=bands, was_default=was_default)


@transaction.atomic
def shipping_method_delete(*, method: ShippingMethod) -> None:
    """Removes a method; the default goes only when it is the last one."""
    method = ShippingMethod.objects.select_for_update().get(pk=method.pk)
    if method.is_default and ShippingMethod.objects.exclude(pk=method.pk).exists():
        raise ValidationError(DEFAULT_DELETE)
    method.delete()
    versions.bump(selectors.RULES)


def _rate_write(rate: TaxRate) -> TaxRate:
    rate.region = rate.region.strip()
    taken = TaxRate.objects.filter(country=rate.country, region__iexact=rate.region)
    if taken.exclude(pk=rate.pk).exists():
        raise ValidationError({"region": RATE_TAKEN})
    try:
        with transaction.atomic():
            rate.save()
    except IntegrityError:  # the unique (country, region) constraint: raced or repeated
        raise ValidationError({"region": RATE_TAKEN}) from None
    versions.bump(selectors.RULES)
    return rate


@transaction.atomic
def tax_rate_create(*, country: str, name: str, rate: Decimal, region: str = "") -> TaxRate:
    return _rate_write(TaxRate(country=country, region=region, name=name, rate=rate))


@transaction.atomic
def tax_rate_update(
    *, tax_rate: TaxRate, country: str, name: str, rate: Decimal, region: str = ""
) -> TaxRate:
    tax_rate.country, tax_rate.region, tax_rate.name, tax_rate.rate = country, region, name, rate
    return _rate_write(tax_rate)


@transaction.atomic
def tax_rate_delete(*, tax_rate: TaxRate) -> None:
    tax_rate.delete()
    versions.bump(selectors.RULES)


def voucher_validate(*, voucher: Voucher) -> None:
    """A voucher's rules across its fields and the other vouchers (ValidationError by field);
    its code is put in capitals and a free-shipping voucher's value to 0."""
    voucher.code = voucher.code.strip().upper()
    if voucher.kind == Voucher.Kind.PERCENT and not 1 <= voucher.value <= 100:
        raise ValidationError({"value": PERCENT_RANGE})
    if voucher.kind == Voucher.Kind.FIXED and voucher.value <= 0:
        raise ValidationError({"value": FIXED_POSITIVE})
    if voucher.kind == Voucher.Kind.SHIPPING:
        voucher.value = Decimal("0")
    if voucher.starts_at and voucher.ends_at and voucher.ends_at <= voucher.starts_at:
        raise ValidationError({"ends_at": ENDS_BEFORE})
    taken = Voucher.objects.filter(code__iexact=voucher.code).exclude(pk=voucher.pk)
    if taken.exists():
        raise ValidationError({"code": CODE_TAKEN})


def _voucher_write(voucher: Voucher) -> Voucher:
    voucher_validate(voucher=voucher)
    try:
        with transaction.atomic():
            voucher.save()
    except IntegrityError:  # the same code written at the same moment
        raise ValidationError({"code": CODE_TAKEN}) from None
    return voucher


@transaction.atomic
def voucher_create(
    *,
    code: str,
    kind: str,
    value: Decimal = Decimal("0"),
    min_subtotal: Decimal = Decimal("0"),
    starts_at: datetime | None = None,
    ends_at: datetime | None = None,
    usage_limit: int | None = None,
    once_per_customer: bool = False,
    active: bool = True,
) -> Voucher:
    voucher = Voucher(
        code=code,
        kind=kind,
        value=value,
        min_subtotal=min_subtotal,
        starts_at=starts_at,
        ends_at=ends_at,
        usage_limit=usage_limit,
        once_per_customer=once_per_customer,
        active=active,
    )
    return _voucher_write(voucher)


@transaction.atomic
def voucher_update(
    *,
    voucher: Voucher,
    code: str,
    kind: str,
    value: Decimal = Decimal("0"),
    min_subtotal: Decimal = Decimal("0"),
    starts_at: datetime | None = None,
    ends_at: datetime | None = None,
    usage_limit: int | None = None,
    once_per_customer: bool = False,
    active: bool = True,
) -> Voucher:
    """Every field set anew, under the voucher's lock (a use being counted waits)."""
    Voucher.objects.select_for_update().filter(pk=voucher.pk).first()
    voucher.code, voucher.kind, voucher.value = code, kind, value
    voucher.min_subtotal, voucher.starts_at, voucher.ends_at = min_subtotal, starts_at, ends_at
    voucher.usage_limit, voucher.once_per_customer = usage_limit, once_per_customer
    voucher.active = active
    return _voucher_write(voucher)


@transaction.atomic
def voucher_delete(*, voucher: Voucher) -> None:
    """Removes a voucher and its uses; the orders keep its code (their own copy)."""
    voucher.delete()


def voucher_lock(*, voucher_id: int) -> Voucher | None:
    """The voucher's row, locked until the transaction ends (None when it was deleted): an
    order checks the voucher (pricing.quotes.quote) and records its use (voucher_record_use)
    under this lock, so two orders never both take its last use. Call it in the transaction
    that places the order, after the order's other locks (the account, the parts).

    FOR NO KEY UPDATE: orders wait for each other all the same, but rows that merely point at
    the voucher (a cart applying it, a use being counted) do not wait for them."""
    return Voucher.objects.select_for_update(no_key=True).filter(pk=voucher_id).first()


def voucher_record_use(*, voucher: Voucher, user, email: str, order_id: int) -> VoucherUse:
    """Counts order `order_id`'s use of `voucher`, which this transaction locked
    (voucher_lock) and checked (voucher_check, or quote) for this customer."""
    customer = user if user is not None and user.is_authenticated else None
    return VoucherUse.objects.create(
        voucher=voucher, user=customer, email=normalize_email(email), order_id=order_id
    )


@transaction.atomic
def voucher_use(
    *, voucher_id: int, user, email: str, order_id: int, subtotal: Decimal
) -> VoucherUse:
    """Counts order `order_id`'s use of a voucher, checked again under the voucher's row lock
    (two orders never both take its last use): VoucherRefused with the reason when it no
    longer applies to goods worth `subtotal` for this customer."""
    voucher = voucher_lock(voucher_id=voucher_id)
    voucher_check(voucher=voucher, subtotal=subtotal, user=user, email=email)
    return voucher_record_use(voucher=voucher, user=user, email=email, order_id=order_id)


def voucher_give_back(*, order_ids: Collection[int]) -> int:
    """The uses of unpaid orders that are deleted or expire come back (not a refunded
    order's: the caller decides). How many there were."""
    deleted, _ = VoucherUse.objects.filter(order_id__in=list(order_ids)).delete()
    return deleted
