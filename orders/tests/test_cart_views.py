"""The cart's pages (/cart, /checkout), the navbar's Cart link, and "Add to cart" on cards and
part pages: what the server renders. The count is never in the HTML (the browser fills it in),
so a page kept for visitors can never show anyone's cart."""

import json
import re
from decimal import Decimal

import pytest
from django.contrib.sessions.models import Session
from django.test import Client

from accounts.addresses import address_create
from catalog.tests.factories import PartFactory
from orders.models import Cart
from orders.tests.factories import EMPTY_CART, BookingFactory, CartLineFactory
from pricing.tests import factories as pricing_factories

pytestmark = pytest.mark.django_db

CART_LINK = re.compile(r'<a href="/cart"[^>]*data-cart-link[^>]*>.*?</a>', re.S)


ADDRESS = {"full_name": "Jo Rider", "line1": "1 Main St", "city": "Town", "phone": "+15550100"}


def props(response, island: str) -> dict:
    html = response.content.decode()
    found = re.search(rf'data-island="{island}"><script[^>]*>(.*?)</script>', html, re.S)
    return json.loads(found.group(1))


def private(response) -> bool:
    return {"private", "no-store"} <= {
        item.strip() for item in response.get("Cache-Control", "").split(",")
    }


def add(client, part, quantity):
    payload = json.dumps({"partId": part.pk, "quantity": quantity})
    assert client.post("/api/cart", payload, content_type="application/json").status_code == 200


def test_a_visitors_empty_cart_page(client):
    response = client.get("/cart")
    assert response.status_code == 200
    assert "Your cart is empty." in response.content.decode()
    assert props(response, "cart")["cart"] == EMPTY_CART
    assert private(response)


def test_the_cart_page_gives_its_island_the_cart_as_the_api_does(client):
    part = PartFactory(minimum_order_quantity=1, available_quantity=5)
    add(client, part, 2)
    response = client.get("/cart/")
    assert props(response, "cart")["cart"] == json.loads(client.get("/api/cart").content)
    assert private(response)


def test_checkout_of_a_visitors_empty_cart_goes_back_to_the_cart(client):
    response = client.get("/checkout")
    assert (response.status_code, response["Location"]) == (302, "/cart")


def test_checkout_offers_a_visitor_sign_in_sign_up_or_a_guests_order(client):
    add(client, PartFactory(available_quantity=5, minimum_order_quantity=1), 1)
    response = client.get("/checkout")
    assert response.status_code == 200
    given = props(response, "checkout")
    assert given["guest"] is True
    assert given["addresses"] == []
    assert given["loginUrl"] == "/login?next=/checkout"
    assert given["signupUrl"] == "/signup?next=/checkout"
    assert private(response)


def test_checkout_of_an_empty_cart_goes_back_to_the_cart(client, user):
    client.force_login(user)
    response = client.get("/checkout")
    assert (response.status_code, response["Location"]) == (302, "/cart")


def test_checkout_starts_from_the_default_address_and_the_methods_that_deliver_there(client, user):
    part = PartFactory(minimum_order_quantity=1, available_quantity=5, price=Decimal("40.00"))
    address_create(owner=user, **ADDRESS, country="US", postcode="62701")
    home = address_create(owner=user, **ADDRESS, country="DE", postcode="10115", is_default=True)
    pricing_factories.method("Standard", bands=[(5000, "6.95")])
    pricing_factories.method("Express", countries=["US"], bands=[(5000, "14.99")])
    CartLineFactory(cart=Cart.objects.create(user=user), part=part, quantity=2)
    client.force_login(user)

    response = client.get("/checkout")

    given = props(response, "checkout")
    assert [address["_id"] for address in given["addresses"]][0] == home.pk
    assert [(m["name"], m["price"], m["quote"]["total"]) for m in given["methods"]] == [
        ("Standard", 6.95, 86.95)  # Express does not deliver to Germany
    ]
    assert {"code": "DE", "name": "Germany"} in given["countries"]
    assert given["shopCountry"] == "US"
    assert [line["partId"] for line in given["cart"]["lines"]] == [part.pk]
    assert private(response)


def test_checkout_without_saved_addresses_prices_for_the_shops_country(client, user, settings):
    settings.SHOP_COUNTRY = "CA"
    part = PartFactory(minimum_order_quantity=1, available_quantity=5)
    pricing_factories.method("Canada only", countries=["CA"])
    CartLineFactory(cart=Cart.objects.create(user=user), part=part, quantity=1)
    client.force_login(user)

    given = props(client.get("/checkout"), "checkout")

    assert given["addresses"] == []
    assert [m["name"] for m in given["methods"]] == ["Canada only"]


@pytest.mark.parametrize("keys", ["", "sk_test_x"])
def test_checkout_tells_its_island_whether_place_order_goes_on_to_pay(client, user, settings, keys):
    """Place order goes on to the payment page when card payments are configured, else to
    the order's page (the island picks the address: lib/cart.js afterCheckout)."""
    settings.STRIPE_SECRET_KEY = settings.STRIPE_PUBLISHABLE_KEY = keys
    CartLineFactory(cart=Cart.objects.create(user=user))
    client.force_login(user)

    page = client.get("/checkout")

    assert props(page, "checkout")["cardPayments"] is bool(keys)
    # Said before the shopper orders, as the purchase form says it (BEYOND.md).
    said = "Card payments are not configured on this shop." in page.content.decode()
    assert said is not bool(keys)


def test_viewing_the_cart_page_makes_no_cart_and_no_session(client):
    response = client.get("/cart")

    assert response.status_code == 200
    assert not response.cookies
    assert not Cart.objects.exists()
    assert not Session.objects.exists()


def test_the_navbar_never_carries_a_count(client):
    """A visitor with a cart and one without get the same Cart link: the browser fills the
    count in (site.js), so no page is made per cart, and a kept page shows nobody's."""
    part = PartFactory(minimum_order_quantity=1, available_quantity=5)
    fresh = CART_LINK.search(Client().get("/").content.decode()).group(0)
    add(client, part, 3)
    with_cart = CART_LINK.search(client.get("/").content.decode()).group(0)
    assert with_cart == fresh
    assert 'aria-label="Cart, 0 items"' in fresh
    assert "data-cart-count hidden>0</span>" in fresh


def test_add_to_cart_on_cards_and_part_pages_only_for_parts_in_stock(client):
    in_stock = PartFactory(name="Chain kit", minimum_order_quantity=2, available_quantity=9)
    sold_out = PartFactory(name="Rare mirror", minimum_order_quantity=2, available_quantity=1)
    html = client.get("/allparts").content.decode()
    assert (
        f'data-add-to-cart="{in_stock.pk}" data-quantity="2" '
        f'aria-describedby="part-{in_stock.pk}-name">Add to cart</button>' in html
    )
    assert f'data-add-to-cart="{sold_out.pk}"' not in html
    page = client.get(f"/parts/{in_stock.pk}").content.decode()
    assert f'<form class="flex flex-wrap items-end gap-2" data-add-to-cart="{in_stock.pk}"' in page
    assert 'value="2" class="input w-28"' in page
    assert "data-add-to-cart" not in client.get(f"/parts/{sold_out.pk}").content.decode()


def test_a_new_address_starts_as_the_last_orders(client, user):
    """BEYOND.md: "address and phone (filled with the ones of the shopper's last order)"."""
    CartLineFactory(cart=Cart.objects.create(user=user))
    client.force_login(user)
    assert props(client.get("/checkout"), "checkout")["lastShipTo"] == {}  # no order yet

    BookingFactory(user=user, address="12 Demo Lane, Springfield", phone="5550100")
    given = props(client.get("/checkout"), "checkout")
    assert given["lastShipTo"] == {"line1": "12 Demo Lane, Springfield", "phone": "5550100"}

    where = {"fullName": "Ola", "line1": "1 Road", "line2": "", "city": "Leeds"}
    where |= {"region": "", "postcode": "LS1 1AA", "country": "GB", "phone": "+447700900123"}
    BookingFactory(user=user, ship_to=where)
    assert props(client.get("/checkout"), "checkout")["lastShipTo"] == where
