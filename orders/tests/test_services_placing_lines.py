"""Orders of several parts (lines): placed all at once or not at all, one hold for the whole
order, every line's stock reserved under its part's lock (orders.services.booking_place_lines).
"""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from catalog.models import Part, StockMovement
from catalog.tests.factories import PartFactory
from core.api import exception_handler
from core.errors import Conflict
from orders import services
from orders.models import Booking, BookingLine
from orders.services import LineUnavailable

pytestmark = pytest.mark.django_db


def place_lines(user, *lines) -> Booking:
    """An order of (part, quantity) lines."""
    return services.booking_place_lines(
        user=user,
        lines=[(part.pk, quantity) for part, quantity in lines],
        address="1 Road",
        phone="12345",
    )


def stock(part) -> int:
    return Part.objects.get(pk=part.pk).available_quantity


@pytest.fixture
def pads():
    return PartFactory(
        name="Brake pads", price=Decimal("25.50"), available_quantity=10, minimum_order_quantity=1
    )


@pytest.fixture
def rotor():
    return PartFactory(
        name="Rotor", price=Decimal("80.00"), available_quantity=4, minimum_order_quantity=1
    )


def test_an_order_of_several_lines_holds_each_lines_stock(user, pads, rotor):
    booking = place_lines(user, (rotor, 1), (pads, 2))

    lines = list(booking.lines.values_list("part_id", "parts_name", "price_per_unit", "quantity"))
    assert sorted(lines) == sorted(
        [
            (pads.pk, "Brake pads", Decimal("25.50"), 2),
            (rotor.pk, "Rotor", Decimal("80.00"), 1),
        ]
    )
    totals = dict(booking.lines.values_list("part_id", "line_total"))
    assert totals == {pads.pk: Decimal("51.00"), rotor.pk: Decimal("80.00")}
    # The order's own fields: no single part, the names joined, the units, the sum.
    assert booking.part_id is None
    assert booking.price_per_unit is None
    assert booking.quantity == 3
    assert booking.total_price == Decimal("131.00")
    assert set(booking.parts_name.split(", ")) == {"Brake pads", "Rotor"}
    assert booking.state == Booking.State.UNPAID
    assert booking.expires_at > timezone.now()
    assert (stock(pads), stock(rotor)) == (8, 3)
    movements = StockMovement.objects.filter(order_id=booking.pk)
    assert sorted(movements.values_list("part_id", "change")) == sorted(
        [(pads.pk, -2), (rotor.pk, -1)]
    )


def test_one_line_order_keeps_the_spec_fields_of_its_part(user, pads):
    booking = place_lines(user, (pads, 2))

    assert (booking.part_id, booking.parts_name, booking.price_per_unit) == (
        pads.pk,
        "Brake pads",
        Decimal("25.50"),
    )
    assert (booking.quantity, booking.total_price) == (2, Decimal("51.00"))
    assert booking.lines.count() == 1


def test_a_part_named_twice_is_one_line(user, pads):
    booking = place_lines(user, (pads, 1), (pads, 2))

    assert list(booking.lines.values_list("part_id", "quantity")) == [(pads.pk, 3)]
    assert stock(pads) == 7


@pytest.mark.parametrize(
    "quantity, reason",
    [
        (5, "Only 4 units are available"),
        (0, "Quantity must be at least 1 (the minimum order quantity)"),
    ],
)
def test_a_line_that_cannot_be_had_holds_nothing(user, pads, rotor, quantity, reason):
    with pytest.raises(LineUnavailable) as refused:
        place_lines(user, (pads, 2), (rotor, quantity))

    assert refused.value.part_id == rotor.pk
    assert refused.value.message == f"Rotor: {reason}"
    assert refused.value.status_code == 409
    assert not Booking.objects.exists()
    assert not BookingLine.objects.exists()
    assert (stock(pads), stock(rotor)) == (10, 4)


def test_a_part_gone_is_named(user, pads):
    with pytest.raises(LineUnavailable) as refused:
        services.booking_place_lines(
            user=user, lines=[(pads.pk, 1), (987654, 1)], address="1 Road", phone="12345"
        )

    assert refused.value.part_id == 987654
    assert refused.value.message == "This part is no longer available"
    assert stock(pads) == 10


def test_the_fair_hold_limit_counts_units_across_orders_lines(user, settings, pads, rotor):
    settings.MAX_HELD_SHARE = 0.5
    place_lines(user, (pads, 3), (rotor, 1))  # 3 of pads held: 7 left, limit floor(0.5 × 10)

    with pytest.raises(LineUnavailable) as refused:
        place_lines(user, (rotor, 1), (pads, 3))

    assert refused.value.part_id == pads.pk
    assert refused.value.message == (
        "Brake pads: You can hold at most 5 units of this part until you pay."
    )
    assert (stock(pads), stock(rotor)) == (7, 3)


def test_the_unpaid_cap_counts_orders_not_lines(user, settings, pads, rotor):
    settings.MAX_UNPAID_ORDERS = 2
    place_lines(user, (pads, 1), (rotor, 1))
    place_lines(user, (pads, 1))

    with pytest.raises(Conflict) as refused:
        place_lines(user, (rotor, 1))

    assert not isinstance(refused.value, LineUnavailable)
    assert refused.value.message == "You already have 2 unpaid orders: pay or delete one first."


def test_the_order_lapses_with_the_earliest_hold_of_its_parts(user, pads, rotor):
    """A part the account holds already: the new order of it and another part lapses when
    that earlier hold does (deleting and ordering again never renews a hold)."""
    earlier = place_lines(user, (rotor, 1))
    Booking.objects.filter(pk=earlier.pk).update(expires_at=timezone.now() + timedelta(minutes=5))
    earlier.refresh_from_db()
    services.booking_cancel(booking=earlier)

    booking = place_lines(user, (pads, 1), (rotor, 1))

    assert booking.expires_at == earlier.expires_at


def test_the_one_line_form_answers_as_before(user, rotor):
    """booking_place is an order of one line through the same core, with its 400s."""
    with pytest.raises(ValidationError) as refused:
        services.booking_place(user=user, part=rotor, quantity=5, address="1 Road", phone="1234")
    assert refused.value.message_dict == {"quantity": ["Only 4 units are available"]}

    booking = services.booking_place(
        user=user, part=rotor, quantity=2, address="1 Road", phone="12345"
    )
    assert list(booking.lines.values_list("part_id", "quantity", "line_total")) == [
        (rotor.pk, 2, Decimal("160.00"))
    ]


def test_the_answer_names_the_part():
    """What POST /api/checkout answers: 409 {"detail", "partId"}."""
    refused = LineUnavailable(part_id=7, name="Rotor", reason="Only 1 unit is available")

    answer = exception_handler(refused, {"request": None})

    assert answer.status_code == 409
    assert answer.data == {"detail": "Rotor: Only 1 unit is available", "partId": 7}
