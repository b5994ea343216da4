"""The cart warns on a line that does not fit the active bike (BEYOND.md, "My Garage"): a
warning, not a block."""

import pytest
from rest_framework.test import APIClient

from catalog.models import Fitment, Vehicle
from catalog.tests.factories import PartFactory
from core.tests.islands import island_props

pytestmark = pytest.mark.django_db

WARNING = "Does not fit your 2019 Yamaha MT-07"


@pytest.fixture
def mt07():
    return Vehicle.objects.create(make="Yamaha", model="MT-07", year=2019)


@pytest.fixture
def parts(mt07):
    """A part listed for the bike, a universal one and one for another bike."""
    fits = PartFactory(available_quantity=10, minimum_order_quantity=1)
    Fitment.objects.create(part=fits, vehicle=mt07)
    universal = PartFactory(available_quantity=10, minimum_order_quantity=1, universal=True)
    other = PartFactory(available_quantity=10, minimum_order_quantity=1)
    other_bike = Vehicle.objects.create(make="Honda", model="CB500F", year=2019)
    Fitment.objects.create(part=other, vehicle=other_bike)
    return fits, universal, other


@pytest.fixture(params=["visitor", "account"])
def shopper(request, user):
    client = APIClient()
    if request.param == "account":
        client.force_login(user)
    return client


def fill(client, parts):
    for part in parts:
        assert (
            client.post("/api/cart", {"partId": part.pk, "quantity": 1}, format="json").status_code
            == 200
        )


def test_a_line_for_another_bike_is_warned_of_and_can_still_be_ordered(shopper, mt07, parts):
    assert shopper.post("/api/garage", {"vehicle": mt07.pk}, format="json").status_code == 200
    fill(shopper, parts)

    lines = shopper.get("/api/cart").json()["lines"]

    assert [line["warning"] for line in lines] == [None, None, WARNING]
    assert [line["problem"] for line in lines] == [None, None, None]


def test_without_a_bike_nothing_is_warned_of(shopper, parts):
    fill(shopper, parts)

    lines = shopper.get("/api/cart").json()["lines"]

    assert [line["warning"] for line in lines] == [None, None, None]


def test_the_cart_page_carries_the_warning(client, mt07, parts):
    sent = {"content_type": "application/json"}
    client.post("/api/garage", {"vehicle": mt07.pk}, **sent)
    client.post("/api/cart", {"partId": parts[2].pk, "quantity": 1}, **sent)

    props = island_props(client.get("/cart"), "cart")

    assert props["cart"]["lines"][0]["warning"] == WARNING
