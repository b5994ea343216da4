"""A line's bounds (orders/bounds.py): one rule, said by the cart (`problem`) and by the order
(its 400s and 409s), each in its own words."""

from decimal import Decimal

import pytest

from catalog.models import Part
from orders.bounds import MAX_TOTAL, TOTAL_TOO_LARGE, Bound, line_bound
from orders.selectors.cart import line_problem
from orders.services import quantity_problem


def part(*, available: int, minimum: int, price: str = "10.00") -> Part:
    return Part(
        name="Brake lever",
        price=Decimal(price),
        available_quantity=available,
        minimum_order_quantity=minimum,
    )


@pytest.mark.parametrize(
    ("available", "minimum", "quantity", "bound", "cart", "order"),
    [
        (10, 2, 2, None, None, None),
        (10, 2, 10, None, None, None),
        (
            1,
            2,
            3,
            Bound.SOLD_OUT,
            "This part is out of stock",
            "This part is out of stock",
        ),
        # Fewer than the minimum on the shelf: whatever the quantity, nothing can be had.
        (1, 2, 1, Bound.SOLD_OUT, "This part is out of stock", "This part is out of stock"),
        (0, 1, 0, Bound.SOLD_OUT, "This part is out of stock", "This part is out of stock"),
        (4, 2, 6, Bound.ABOVE_STOCK, "Only 4 left", "Only 4 units are available"),
        (1, 1, 2, Bound.ABOVE_STOCK, "Only 1 left", "Only 1 unit is available"),
        (
            10,
            5,
            3,
            Bound.BELOW_MINIMUM,
            "The minimum order is 5",
            "Quantity must be at least 5 (the minimum order quantity)",
        ),
        (
            10,
            2,
            -3,
            Bound.BELOW_MINIMUM,
            "The minimum order is 2",
            "Quantity must be at least 2 (the minimum order quantity)",
        ),
    ],
)
def test_one_rule_two_wordings(available, minimum, quantity, bound, cart, order):
    shown = part(available=available, minimum=minimum)

    assert line_bound(part=shown, quantity=quantity) == bound
    assert line_problem(part=shown, quantity=quantity) == cart
    assert quantity_problem(part=shown, quantity=quantity) == order


def test_a_total_past_the_money_column_is_a_bound_for_both():
    dear = part(available=100, minimum=1, price="9999999.99")

    assert dear.price * 10 <= MAX_TOTAL
    assert line_bound(part=dear, quantity=10) is None
    assert line_bound(part=dear, quantity=11) == Bound.TOTAL_TOO_LARGE
    assert line_problem(part=dear, quantity=11) == TOTAL_TOO_LARGE
    assert quantity_problem(part=dear, quantity=11) == TOTAL_TOO_LARGE
