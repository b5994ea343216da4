"""How many units of a part one line may have: the one rule that the cart (each line's
`problem`) and the order (its 400s on `quantity`, its 409s naming a line) share.

line_bound says which bound a line breaks; each audience says it in its own words, a wording
map of Bound → sentence (or a pair of sentences, one unit and many, chosen by the units on the
shelf): `{count}` is the units on the shelf, `{minimum}` the part's minimum order quantity.
"""

from collections.abc import Mapping
from decimal import Decimal
from enum import Enum

from catalog.models import Part
from core.wording import counted

MAX_TOTAL = Decimal("99999999.99")  # the order's money column, and more than Stripe takes
TOTAL_TOO_LARGE = "The total can't pass $99,999,999.99: order fewer units"


class Bound(Enum):
    """A bound a line breaks, the first in this order."""

    SOLD_OUT = "sold out"  # fewer units on the shelf than the minimum order: no quantity fits
    ABOVE_STOCK = "above stock"
    BELOW_MINIMUM = "below minimum"
    TOTAL_TOO_LARGE = "total too large"


Wording = Mapping[Bound, str | tuple[str, str]]


def line_bound(*, part: Part, quantity: int) -> Bound | None:
    """The bound that `quantity` units of `part` (as read) break, or None: the part has its
    minimum order on the shelf, minimumOrderQuantity ≤ quantity ≤ availableQuantity, and the
    line's total fits the order's money column."""
    if part.is_out_of_stock:
        return Bound.SOLD_OUT
    if quantity > part.available_quantity:
        return Bound.ABOVE_STOCK
    if quantity < part.minimum_order_quantity:
        return Bound.BELOW_MINIMUM
    if part.price * quantity > MAX_TOTAL:
        return Bound.TOTAL_TOO_LARGE
    return None


def line_bound_text(wording: Wording, *, part: Part, quantity: int) -> str | None:
    """line_bound in `wording`'s words; None when the line is within its bounds."""
    bound = line_bound(part=part, quantity=quantity)
    if bound is None:
        return None
    words = wording[bound]
    minimum = part.minimum_order_quantity
    if isinstance(words, tuple):
        return counted(part.available_quantity, *words, minimum=minimum)
    return words.format(count=part.available_quantity, minimum=minimum)
