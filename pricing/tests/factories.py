"""Pricing's objects made as the shop makes them: through its services."""

from decimal import Decimal

from pricing import services


def method(name="Standard", *, bands=(), **fields):
    """A shipping method; `bands` as (up to grams, price) pairs."""
    bands = [(grams, Decimal(str(price))) for grams, price in bands]
    return services.shipping_method_create(name=name, bands=bands, **fields)


def voucher(code="RIDE10", kind="percent", value="10", **fields):
    return services.voucher_create(code=code, kind=kind, value=Decimal(str(value)), **fields)


def tax_rate(country="DE", rate="19", *, region="", name="VAT"):
    return services.tax_rate_create(
        country=country, region=region, name=name, rate=Decimal(str(rate))
    )
