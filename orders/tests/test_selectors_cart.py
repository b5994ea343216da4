"""The cart's reads (orders/selectors/cart.py): a line that does not fit the active bike is
warned of (BEYOND.md, "My Garage"), a price changed since the line was added is noticed (API.md
"Checking out at the price you saw"): each is said, neither stops checkout."""

from decimal import Decimal

import pytest
from rest_framework.test import APIClient

from catalog.models import Fitment, Part, Vehicle
from catalog.tests.factories import PartFactory
from core.tests.islands import island_props
from orders.models import Cart
from orders.selectors.cart import cart_read
from orders.tests.factories import CartLineFactory

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


class TestNotice:
    def test_a_line_at_the_price_it_was_added_has_no_notice(self):
        line = CartLineFactory(part=PartFactory(price=Decimal("15.00")))

        (read,) = cart_read(cart=line.cart)["lines"]

        assert read["priceWhenAdded"] == read["price"] == Decimal("15.00")
        assert read["notice"] is None

    @pytest.mark.parametrize(
        ("before", "now", "notice"),
        [
            ("15.00", "150.00", "The price went from $15.00 to $150.00 since you added it."),
            ("1249.00", "999.50", "The price went from $1,249.00 to $999.50 since you added it."),
        ],
    )
    def test_a_changed_price_is_noticed_and_the_line_is_at_the_new_one(self, before, now, notice):
        line = CartLineFactory(part=PartFactory(price=Decimal(before)), quantity=2)
        Part.objects.filter(pk=line.part_id).update(price=Decimal(now))

        cart = cart_read(cart=line.cart)
        (read,) = cart["lines"]

        assert read["notice"] == notice
        assert read["problem"] is None  # a notice, not a block
        assert read["priceWhenAdded"] == Decimal(before)
        assert read["price"] == Decimal(now)
        assert cart["total"] == read["lineTotal"] == 2 * Decimal(now)

    def test_reading_a_cart_changes_nothing(self):
        line = CartLineFactory(part=PartFactory(price=Decimal("15.00")))
        Part.objects.filter(pk=line.part_id).update(price=Decimal("16.00"))
        updated = Cart.objects.get(pk=line.cart_id).updated_at

        cart_read(cart=line.cart)
        cart_read(cart=line.cart)

        line.refresh_from_db()
        assert line.price_when_added == Decimal("15.00")
        assert Cart.objects.get(pk=line.cart_id).updated_at == updated
