"""An order's invoice as a person reads it: the seller (SHOP_LEGAL_NAME, SHOP_ADDRESS,
SHOP_TAX_ID), the buyer, where it ships, what was bought and its figures (Booking.price_rows),
and when it was paid. Only an order with an invoice number has one (given at payment:
services.invoicing)."""

from django.conf import settings
from django_countries import countries

from .models import Booking


def seller() -> dict:
    """The shop as invoices name it; an empty address or tax id is left off."""
    return {
        "name": settings.SHOP_LEGAL_NAME,
        "address_lines": [line for line in settings.SHOP_ADDRESS.splitlines() if line.strip()],
        "tax_id": settings.SHOP_TAX_ID,
    }


def ship_to_lines(booking: Booking) -> list[str]:
    """Where the order ships, a line each: its copy of the address ("Jane Rider", "1 Main St",
    "Apt 2", "Springfield, IL 62701", "United States of America"), or the spec's one line of
    free text."""
    copy = booking.ship_to
    if not copy:
        return [booking.address]
    place = " ".join(part for part in (copy.get("region"), copy.get("postcode")) if part)
    town = ", ".join(part for part in (copy.get("city"), place) if part)
    country = countries.name(copy.get("country") or "") or copy.get("country")
    lines = (copy.get("fullName"), copy.get("line1"), copy.get("line2"), town, country)
    return [line for line in lines if line]


def invoice_context(booking: Booking, *, order_url: str | None = None) -> dict:
    """What the invoice page shows of `booking` (read with its lines); "Back to Order #N" goes
    to `order_url`, the order's page by default."""
    return {
        "booking": booking,
        "order_url": order_url or booking.get_absolute_url(),
        "seller": seller(),
        "ship_to_lines": ship_to_lines(booking),
    }
