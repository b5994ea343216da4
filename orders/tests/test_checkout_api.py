"""POST /api/checkout (API.md "Cart and checkout", "Checking out at the price you saw"): one
order of the whole cart, held as any order is; the 400s and 409s, nothing held and the cart
unchanged when a line cannot be had or the total is not the one the shopper was shown."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from accounts.tests.factories import UserFactory
from catalog.models import Part
from catalog.tests.factories import PartFactory
from conftest import bearer_client
from orders import services
from orders.models import Booking, CartLine
from orders.tests.factories import BookingFactory

WHERE = {"address": "12 Harbour Road, Leeds", "phone": "+441130000000"}


@pytest.fixture
def parts(db):
    return [
        PartFactory(price=Decimal("40.00"), minimum_order_quantity=2, available_quantity=10),
        PartFactory(price=Decimal("5.50"), minimum_order_quantity=1, available_quantity=8),
        PartFactory(price=Decimal("12.00"), minimum_order_quantity=1, available_quantity=30),
    ]


def fill(client, lines):
    for part, quantity in lines:
        response = client.post(
            "/api/cart", {"partId": part.pk, "quantity": quantity}, format="json"
        )
        assert response.status_code == 200, response.content


def stock(part) -> int:
    return Part.objects.values_list("available_quantity", flat=True).get(pk=part.pk)


def cart_of(client) -> list[tuple[int, int]]:
    return [(line["partId"], line["quantity"]) for line in client.get("/api/cart").json()["lines"]]


def test_checkout_places_one_order_of_every_line_and_empties_the_cart(as_user, user, parts):
    a, b, c = parts
    fill(as_user, [(a, 2), (b, 3), (c, 1)])
    response = as_user.post("/api/checkout", WHERE, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["insertedId"] == body["_id"]
    assert body["state"] == "unpaid"
    assert body["totalPrice"] == 108.5  # 80 + 16.50 + 12
    assert body["quantity"] == 6
    assert [(line["partId"], line["quantity"]) for line in body["lines"]] == [
        (a.pk, 2),
        (b.pk, 3),
        (c.pk, 1),
    ]
    assert body["url"] == f"/dashboard/orders/{body['_id']}"
    assert (stock(a), stock(b), stock(c)) == (8, 5, 29)
    booking = Booking.objects.get()
    assert booking.user == user
    assert (booking.address, booking.phone) == (WHERE["address"], WHERE["phone"])
    assert cart_of(as_user) == []


def test_an_empty_cart_is_a_400(as_user):
    response = as_user.post("/api/checkout", WHERE, format="json")
    assert response.status_code == 400
    assert response.json() == {"detail": "Your cart is empty."}


def test_a_visitor_without_an_email_is_a_400_on_email(anon, parts):
    # A visitor's checkout is a guest's order (test_checkout_api_guest.py): it needs an e-mail.
    fill(anon, [(parts[0], 2)])
    response = anon.post("/api/checkout", WHERE, format="json")
    assert (response.status_code, response.json()) == (400, {"email": ["Email is required"]})
    assert not Booking.objects.exists()


@pytest.mark.parametrize(
    ("payload", "field", "message"),
    [
        ({"phone": "+441130000000"}, "address", "Address is required"),
        ({"address": "1 Dock St", "phone": ""}, "phone", "Phone is required"),
    ],
)
def test_address_and_phone_as_for_a_booking(as_user, parts, payload, field, message):
    fill(as_user, [(parts[0], 2)])
    response = as_user.post("/api/checkout", payload, format="json")
    assert response.status_code == 400
    assert response.json()[field] == [message]
    assert cart_of(as_user) == [(parts[0].pk, 2)]


def test_a_line_out_of_stock_is_a_409_naming_it_nothing_held_cart_unchanged(as_user, parts):
    a, b, _ = parts
    fill(as_user, [(a, 2), (b, 3)])
    Part.objects.filter(pk=b.pk).update(available_quantity=1)
    response = as_user.post("/api/checkout", WHERE, format="json")
    assert response.status_code == 409
    body = response.json()
    assert set(body) == {"detail", "partId"}
    assert body["partId"] == b.pk
    assert b.name in body["detail"]
    assert not Booking.objects.exists()
    assert stock(a) == 10  # nothing held
    assert cart_of(as_user) == [(a.pk, 2), (b.pk, 3)]


def test_the_fair_hold_limit_is_a_409_naming_the_part(as_user, parts):
    a, _, c = parts
    fill(as_user, [(c, 1), (a, 6)])  # 6 of 10: past half the part's stock
    response = as_user.post("/api/checkout", WHERE, format="json")
    assert response.status_code == 409
    assert response.json()["partId"] == a.pk
    assert not Booking.objects.exists()
    assert stock(c) == 30


def test_the_cap_on_unpaid_orders_is_a_409(as_user, user, parts, settings):
    settings.MAX_UNPAID_ORDERS = 1
    BookingFactory(user=user, part=parts[2])
    fill(as_user, [(parts[0], 2)])
    response = as_user.post("/api/checkout", WHERE, format="json")
    assert response.status_code == 409
    assert response.json() == {
        "detail": "You already have 1 unpaid orders: pay or delete one first."
    }
    assert cart_of(as_user) == [(parts[0].pk, 2)]


def test_the_same_cart_from_another_device(user, parts):
    phone, laptop = bearer_client(user), bearer_client(user)
    fill(phone, [(parts[1], 2)])
    assert laptop.post("/api/checkout", WHERE, format="json").status_code == 201
    assert phone.post("/api/checkout", WHERE, format="json").json() == {
        "detail": "Your cart is empty."
    }
    assert Booking.objects.count() == 1


PRICES_CHANGED = "Prices changed since you looked: please check your order again."


class TestExpectedTotal:
    @pytest.mark.parametrize("shown", [108.5, "108.50", "108.5"])
    def test_the_total_shown_places_the_order(self, as_user, parts, shown):
        a, b, c = parts
        fill(as_user, [(a, 2), (b, 3), (c, 1)])

        response = as_user.post("/api/checkout", {**WHERE, "expectedTotal": shown}, format="json")

        assert response.status_code == 201, response.content
        assert response.json()["totalPrice"] == 108.5

    def test_a_price_raised_since_is_a_409_with_the_cart_and_nothing_held(self, as_user, parts):
        a, b, _ = parts
        fill(as_user, [(a, 2), (b, 3)])
        shown = as_user.get("/api/cart").json()["total"]  # 96.50
        Part.objects.filter(pk=b.pk).update(price=Decimal("55.00"))  # tenfold

        response = as_user.post("/api/checkout", {**WHERE, "expectedTotal": shown}, format="json")

        assert response.status_code == 409
        body = response.json()
        assert set(body) == {"detail", "cart"}
        assert body["detail"] == PRICES_CHANGED
        assert body["cart"]["total"] == 245.0  # 80 + 165
        assert [line["notice"] for line in body["cart"]["lines"]] == [
            None,
            "The price went from $5.50 to $55.00 since you added it.",
        ]
        assert not Booking.objects.exists()
        assert (stock(a), stock(b)) == (10, 8)  # nothing held
        assert cart_of(as_user) == [(a.pk, 2), (b.pk, 3)]
        assert CartLine.objects.get(part=b).price_when_added == Decimal("5.50")

        again = as_user.post("/api/checkout", {**WHERE, "expectedTotal": 245}, format="json")
        assert again.status_code == 201
        assert again.json()["totalPrice"] == 245.0

    def test_a_price_lowered_since_is_a_409_too(self, as_user, parts):
        fill(as_user, [(parts[0], 2)])
        Part.objects.filter(pk=parts[0].pk).update(price=Decimal("39.99"))

        response = as_user.post("/api/checkout", {**WHERE, "expectedTotal": 80}, format="json")

        assert response.status_code == 409
        assert not Booking.objects.exists()

    @pytest.mark.parametrize("payload", [WHERE, {**WHERE, "expectedTotal": None}])
    def test_without_it_the_order_is_placed_at_the_servers_prices(self, as_user, parts, payload):
        fill(as_user, [(parts[1], 2)])
        Part.objects.filter(pk=parts[1].pk).update(price=Decimal("55.00"))

        response = as_user.post("/api/checkout", payload, format="json")

        assert response.status_code == 201
        assert response.json()["totalPrice"] == 110.0

    @pytest.mark.parametrize("shown", ["lots", "12.345", 10**13, [], {"a": 1}])
    def test_a_total_that_is_not_an_amount_is_a_400(self, as_user, parts, shown):
        fill(as_user, [(parts[0], 2)])

        response = as_user.post("/api/checkout", {**WHERE, "expectedTotal": shown}, format="json")

        assert response.status_code == 400
        assert response.json() == {
            "expectedTotal": [
                "expectedTotal must be the total you were shown, in dollars (e.g. 76.50)"
            ]
        }
        assert cart_of(as_user) == [(parts[0].pk, 2)]


def test_a_refused_checkout_has_put_its_parts_lapsed_holds_back_all_the_same(as_user, parts):
    """The lapsed holds of the cart's parts go back on the shelf in transactions of their own,
    before the order's (inside it, their parts' locks were taken out of the order's part-id
    order: a deadlock with another order placed meanwhile); a refusal keeps them released."""
    a, _, _ = parts
    held = services.booking_place(
        user=UserFactory(), part=a, quantity=2, address="1 Road", phone="12345"
    )
    Booking.objects.filter(pk=held.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    fill(as_user, [(a, 2)])

    response = as_user.post("/api/checkout", {**WHERE, "expectedTotal": 1}, format="json")

    assert response.status_code == 409
    held.refresh_from_db()
    assert held.released_at is not None
    assert stock(a) == 10
    assert cart_of(as_user) == [(a.pk, 2)]
