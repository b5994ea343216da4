"""booking_json, the hot reads' plain builder, writes exactly what BookingOutputSerializer
writes: the same keys, values and JSON, in every state of an order."""

import json
from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone
from rest_framework.renderers import JSONRenderer

from orders.models import Booking
from orders.serializers import BookingOutputSerializer, booking_json, bookings_json

from .factories import BookingFactory

pytestmark = pytest.mark.django_db

STATES = {
    "unpaid": {},
    "expired": {"lapsed": True},
    "released": {"released_at": timezone.now},
    "pending": {"paid_order": True},
    "shipped": {"shipped": True},
    "refunded": {"paid_order": True, "refunded_at": timezone.now},
    "part deleted": {"part": None, "parts_name": "Gone", "price_per_unit": Decimal("5")},
    "no hold": {"expires_at": None},
    "odd money": {"price_per_unit": Decimal("1249.5"), "quantity": 3},
    "priced": {
        "subtotal": Decimal("80"),
        "discount": Decimal("8.5"),
        "voucher_code": "RIDE10",
        "shipping_method": "Express",
        "shipping_price": Decimal("14.99"),
        "shipping_eta": "1–2 business days",
        "tax": Decimal("3.1"),
        "tax_included": False,
        "total_price": Decimal("89.59"),
        "ship_to": {"fullName": "Jane Rider", "country": "US", "region": "IL"},
    },
}


def made(traits: dict) -> Booking:
    return BookingFactory(**{k: v() if callable(v) else v for k, v in traits.items()})


@pytest.mark.parametrize("traits", STATES.values(), ids=STATES.keys())
def test_the_plain_builder_writes_what_the_serializer_writes(traits):
    booking = Booking.objects.get(pk=made(traits).pk)  # as read from the database
    plain, drf = booking_json(booking), BookingOutputSerializer(booking).data
    assert plain == drf
    assert JSONRenderer().render(plain) == JSONRenderer().render(drf)


def test_the_same_for_an_order_just_placed_in_memory():
    booking = made({})  # the object the service hands back, not read again
    booking.expires_at = timezone.now() + timedelta(minutes=5)
    assert booking_json(booking) == BookingOutputSerializer(booking).data


def test_a_list_in_the_same_order():
    bookings = [made({}), made({"paid_order": True}), made({"shipped": True})]
    assert bookings_json(bookings) == BookingOutputSerializer(bookings, many=True).data
    assert json.loads(JSONRenderer().render(bookings_json(bookings)))[0]["_id"] == bookings[0].pk
