"""GET /api/shipping-methods for shoppers (API.md "Addresses, shipping and tax"): the methods
that deliver the caller's cart (or one line of a part) to a country, cheapest first, each priced
for it with the order's breakdown; the owner's POST stays admin only."""

from decimal import Decimal

import pytest

from catalog.tests.factories import PartFactory
from pricing.tests import factories as pricing_factories

pytestmark = pytest.mark.django_db


@pytest.fixture
def methods(db):
    return (
        pricing_factories.method(
            "Standard", bands=[(5000, "6.95")], free_over=Decimal("50"), eta="3–5 business days"
        ),
        pricing_factories.method("Express", bands=[(5000, "14.99")], eta="1–2 business days"),
        pricing_factories.method("Canada post", countries=["CA"], bands=[(5000, "2.00")]),
    )


@pytest.fixture
def part(db):
    return PartFactory(
        price=Decimal("20.00"), weight=400, minimum_order_quantity=1, available_quantity=50
    )


def names(response) -> list[tuple[str, float]]:
    assert response.status_code == 200, response.content
    return [(method["name"], method["price"]) for method in response.json()]


def test_the_methods_that_deliver_the_cart_cheapest_first(as_user, methods, part):
    as_user.post("/api/cart", {"partId": part.pk, "quantity": 2}, format="json")

    response = as_user.get("/api/shipping-methods?country=us")

    assert names(response) == [("Standard", 6.95), ("Express", 14.99)]
    standard = response.json()[0]
    assert standard["_id"] == methods[0].pk
    assert (standard["eta"], standard["freeOver"], standard["isDefault"]) == (
        "3–5 business days",
        50.0,
        True,
    )
    assert standard["quote"]["total"] == 46.95
    assert response["Cache-Control"] == "private, no-store"


def test_free_over_prices_a_full_cart_at_zero(as_user, methods, part):
    as_user.post("/api/cart", {"partId": part.pk, "quantity": 3}, format="json")

    assert names(as_user.get("/api/shipping-methods?country=US")) == [
        ("Standard", 0),
        ("Express", 14.99),
    ]


def test_the_carts_free_shipping_code_prices_every_method_at_zero(as_user, methods, part):
    pricing_factories.voucher("FREESHIP", kind="shipping", value="0")
    as_user.post("/api/cart", {"partId": part.pk, "quantity": 1}, format="json")
    as_user.post("/api/cart/voucher", {"code": "FREESHIP"}, format="json")

    assert [price for _, price in names(as_user.get("/api/shipping-methods?country=US"))] == [
        0,
        0,
    ]


def test_a_country_with_its_own_method_and_tax(as_user, methods, part, settings):
    settings.PRICES_INCLUDE_TAX = False
    pricing_factories.tax_rate("CA", "5", name="GST")
    as_user.post("/api/cart", {"partId": part.pk, "quantity": 1}, format="json")

    response = as_user.get("/api/shipping-methods?country=CA&region=ON")

    assert names(response)[0] == ("Canada post", 2.0)
    assert response.json()[0]["quote"]["tax"] == 1.10  # (20 + 2) × 5%


def test_too_heavy_for_a_method_leaves_it_out(as_user, methods):
    heavy = PartFactory(
        price=Decimal("5"), weight=6000, minimum_order_quantity=1, available_quantity=5
    )
    as_user.post("/api/cart", {"partId": heavy.pk, "quantity": 1}, format="json")

    assert names(as_user.get("/api/shipping-methods?country=US")) == []


def test_a_visitor_without_a_cart_gets_an_empty_order_priced(anon, methods):
    assert names(anon.get("/api/shipping-methods?country=US")) == [
        ("Standard", 6.95),
        ("Express", 14.99),
    ]


def test_one_line_of_a_part_for_the_purchase_form(anon, methods, part, settings):
    settings.SHOP_COUNTRY = "US"

    response = anon.get(f"/api/shipping-methods?partId={part.pk}&quantity=3")

    assert names(response) == [("Standard", 0), ("Express", 14.99)]
    assert response.json()[1]["quote"]["subtotal"] == 60


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("country=XX", "country"),
        ("country=USA", "country"),
        ("partId=abc", "partId"),
        ("partId=1&quantity=0", "quantity"),
        ("partId=1&quantity=x", "quantity"),
        ("region=" + "r" * 101, "region"),
    ],
)
def test_bad_queries_are_a_400_on_their_field(anon, methods, query, field):
    response = anon.get(f"/api/shipping-methods?{query}")

    assert response.status_code == 400
    assert list(response.json()) == [field]


def test_an_unknown_part_is_a_404(anon, methods):
    assert anon.get("/api/shipping-methods?partId=999999").status_code == 404


def test_only_an_admin_adds_a_method(as_user, anon):
    payload = {"name": "Freight", "countries": [], "bands": [], "eta": "", "active": True}

    assert anon.post("/api/shipping-methods", payload, format="json").status_code == 401
    assert as_user.post("/api/shipping-methods", payload, format="json").status_code == 403
