"""A rating as stars: "★★★★☆" for 4 (or 4.4) out of 5."""

from decimal import ROUND_HALF_UP, Decimal

from django import template

register = template.Library()

MAX_STARS = 5


@register.filter
def stars(value) -> str:
    """Filled stars for `value` rounded to a whole number (half up), empty ones to five."""
    if value in (None, ""):
        return "☆" * MAX_STARS
    filled = int(Decimal(str(value)).quantize(Decimal(1), rounding=ROUND_HALF_UP))
    filled = max(0, min(MAX_STARS, filled))
    return "★" * filled + "☆" * (MAX_STARS - filled)


@register.filter
def one_decimal(value) -> str:
    """4.6 as "4.6", 5 as "5.0"; "" for none."""
    if value in (None, ""):
        return ""
    return f"{Decimal(str(value)):.1f}"
