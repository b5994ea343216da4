"""`{{ value|money }}`: dollars written one way everywhere, as the islands write them
("$1,249.00")."""

from decimal import Decimal, InvalidOperation

from django import template

register = template.Library()


@register.filter
def money(value) -> str:
    try:
        amount = Decimal(str(value))
    except (InvalidOperation, ValueError):
        return ""
    sign = "-" if amount < 0 else ""
    return f"{sign}${abs(amount):,.2f}"
