"""Pricing: whether the shop's prices include tax, and where an order with a free-text address
ships to."""

from django.core.exceptions import ImproperlyConfigured
from django_countries.data import COUNTRIES

from .base import env

# On: a price is what the shopper pays, and an order shows the tax it contains; off: the tax
# is added to the total.
PRICES_INCLUDE_TAX = env.bool("PRICES_INCLUDE_TAX", default=True)
# The country (ISO 3166-1 alpha-2) an order placed with the spec's free-text address ships to.
SHOP_COUNTRY = env.str("SHOP_COUNTRY", default="US").strip().upper()
if SHOP_COUNTRY not in COUNTRIES:  # the plain table: no Django settings needed yet
    raise ImproperlyConfigured(
        f"SHOP_COUNTRY must be an ISO 3166-1 alpha-2 country code (e.g. US), not {SHOP_COUNTRY!r}."
    )
