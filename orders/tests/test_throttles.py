"""Placing orders is limited per user (DRF's "orders" throttle, counted in the cache)."""

import re

import pytest
from django.conf import settings
from django.core.cache import cache
from drf_spectacular.generators import SchemaGenerator

from catalog.tests.factories import PartFactory
from orders.models import Booking

THROTTLED = re.compile(r"^Request was throttled\. Expected available in \d+ seconds?\.$")

pytestmark = pytest.mark.django_db


def orders_allowed() -> int:
    return int(settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["orders"].split("/")[0])


@pytest.fixture(autouse=True)
def no_unpaid_cap(settings):
    """The orders throttle is what this module tests, not the cap on unpaid orders."""
    settings.MAX_UNPAID_ORDERS = 10_000


@pytest.fixture
def part():
    return PartFactory(minimum_order_quantity=1, available_quantity=10_000)


def place(client, part):
    body = {"partId": part.pk, "quantity": 1, "address": "1 Main St", "phone": "0123456789"}
    return client.post("/api/booking", body, format="json")


def test_orders_per_user_are_limited_and_reset(as_user, as_other, user, part):
    limit = orders_allowed()
    for _ in range(limit):
        assert place(as_user, part).status_code == 201
    throttled = place(as_user, part)
    assert throttled.status_code == 429
    assert THROTTLED.match(throttled.json()["detail"])
    assert int(throttled["Retry-After"]) > 0
    assert Booking.objects.filter(user=user).count() == limit  # the refused one wrote nothing
    part.refresh_from_db()
    assert part.available_quantity == 10_000 - limit
    # Another user (from the same address) orders as usual; the throttled one still reads.
    assert place(as_other, part).status_code == 201
    assert as_user.get("/api/booking").status_code == 200
    cache.clear()
    assert place(as_user, part).status_code == 201


def test_schema_documents_the_429_on_placing_only():
    operations = SchemaGenerator().get_schema(public=True)["paths"]["/api/booking"]
    assert "429" in operations["post"]["responses"]
    assert "429" not in operations["get"]["responses"]
