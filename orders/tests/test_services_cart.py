"""The cart's writes (orders/services/cart.py): a visitor's cart joins the account's at every
kind of sign-in (the sign-in page, sign-up, Google, and the API's sign-in, tokens and sign-up,
from a browser that has a session); a line remembers its part's price when added (adding again
remembers the new one); a removal is a write of the cart like the others."""

import json
from datetime import timedelta
from decimal import Decimal

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import ValidationError
from django.utils import timezone

from accounts.models import User
from accounts.tests.factories import TEST_PASSWORD, UserFactory
from accounts.tests.test_views_google import (  # noqa: F401  (google_on: a fixture)
    google_answers_the_token_request,
    google_claims,
    google_on,
    google_round_trip,
)
from catalog.models import Part
from catalog.tests.factories import PartFactory
from orders import services
from orders.models import Cart, CartLine
from orders.tests.factories import CartLineFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def parts():
    return [PartFactory(minimum_order_quantity=1, available_quantity=10) for _ in range(3)]


def add(client, part, quantity):
    payload = json.dumps({"partId": part.pk, "quantity": quantity})
    response = client.post("/api/cart", payload, content_type="application/json")
    assert response.status_code == 200, response.content
    return response


def account_lines(user) -> list[tuple[int, int]]:
    return list(
        CartLine.objects.filter(cart__user=user)
        .order_by("added_at", "id")
        .values_list("part_id", "quantity")
    )


def account_with(parts_and_quantities):
    user = UserFactory()
    cart = Cart.objects.create(user=user)
    for part, quantity in parts_and_quantities:
        CartLineFactory(cart=cart, part=part, quantity=quantity)
    return user


def test_page_sign_in_adds_the_visitors_lines_to_the_accounts(client, parts):
    a, b, _ = parts
    user = account_with([(a, 2)])
    add(client, a, 3)
    add(client, b, 1)
    response = client.post("/login", {"login": user.email, "password": TEST_PASSWORD})
    assert response.status_code == 302
    assert account_lines(user) == [(a.pk, 5), (b.pk, 1)]
    assert Cart.objects.count() == 1  # the visitor's cart is gone
    assert json.loads(client.get("/api/cart").content)["count"] == 6


def test_merged_quantities_are_capped_at_the_stock_but_never_lowered(client, parts):
    a, b, _ = parts
    user = account_with([(a, 8), (b, 6)])
    add(client, a, 4)  # 12 > 10 in stock: 10
    add(client, b, 1)
    b.available_quantity = 3  # b had 6 already: the merge keeps 6 (its problem says why)
    b.save()
    client.post("/login", {"login": user.email, "password": TEST_PASSWORD})
    assert account_lines(user) == [(a.pk, 10), (b.pk, 6)]
    line = json.loads(client.get("/api/cart").content)["lines"][1]
    assert line["problem"] == "Only 3 left"


def test_lines_past_the_limit_stay_out(client, parts, settings):
    settings.CART_MAX_LINES = 2
    a, b, c = parts
    user = account_with([(a, 1)])
    add(client, b, 1)
    add(client, c, 1)
    client.post("/login", {"login": user.email, "password": TEST_PASSWORD})
    assert account_lines(user) == [(a.pk, 1), (b.pk, 1)]


def test_sign_up_keeps_the_visitors_cart(client, parts):
    add(client, parts[0], 2)
    payload = {"name": "Ada Rider", "email": "ada@example.com", "password1": "secret1"}
    assert client.post("/signup", payload).status_code == 302
    assert account_lines(User.objects.get()) == [(parts[0].pk, 2)]


def test_google_sign_in_keeps_the_visitors_cart(client, parts, google_on, monkeypatch):  # noqa: F811
    add(client, parts[0], 2)
    google_answers_the_token_request(monkeypatch, google_claims())
    assert google_round_trip(client, "/checkout")["Location"] == "/checkout"
    assert account_lines(User.objects.get(email="ada@gmail.com")) == [(parts[0].pk, 2)]


def test_api_sign_in_from_a_browser_with_a_session_merges(client, parts):
    user = account_with([(parts[0], 1)])
    add(client, parts[0], 2)
    payload = json.dumps({"email": user.email, "password": TEST_PASSWORD})
    response = client.post("/api/token", payload, content_type="application/json")
    assert response.status_code == 200
    assert account_lines(user) == [(parts[0].pk, 3)]
    # The browser's session stays a visitor's, now without a cart.
    assert json.loads(client.get("/api/cart").content)["count"] == 0


def test_api_sign_up_from_a_browser_with_a_session_merges(client, parts):
    add(client, parts[1], 4)
    payload = json.dumps({"name": "Bo", "email": "bo@example.com", "password": "secret1"})
    response = client.post("/api/signup", payload, content_type="application/json")
    assert response.status_code == 201
    assert account_lines(User.objects.get(email="bo@example.com")) == [(parts[1].pk, 4)]


def test_api_sign_in_without_a_session_changes_no_cart(anon, parts):
    user = account_with([(parts[0], 1)])
    payload = {"email": user.email, "password": TEST_PASSWORD}
    response = anon.post("/api/token", payload, format="json")
    assert response.status_code == 200
    assert not response.cookies.get("sessionid")
    assert account_lines(user) == [(parts[0].pk, 1)]


def test_the_account_keeps_its_cart_after_signing_out_and_in(client, parts):
    user = UserFactory()
    client.force_login(user)
    add(client, parts[0], 2)
    client.logout()
    assert json.loads(client.get("/api/cart").content)["count"] == 0
    client.post("/login", {"login": user.email, "password": TEST_PASSWORD})
    assert account_lines(user) == [(parts[0].pk, 2)]


def raise_price(part, price: str) -> Part:
    Part.objects.filter(pk=part.pk).update(price=Decimal(price))
    return Part.objects.get(pk=part.pk)  # the part as the next page shows it


class TestPriceWhenAdded:
    def test_a_new_line_remembers_the_price_the_part_had(self, user, parts):
        cart = services.cart_add(cart=None, user=user, part=parts[0], quantity=1)

        assert CartLine.objects.get(cart=cart).price_when_added == parts[0].price

    def test_adding_again_remembers_the_price_seen_then(self, user, parts):
        cart = services.cart_add(cart=None, user=user, part=parts[0], quantity=1)
        dearer = raise_price(parts[0], "99.00")

        services.cart_add(cart=cart, user=user, part=dearer, quantity=2)

        line = CartLine.objects.get(cart=cart)
        assert (line.quantity, line.price_when_added) == (3, Decimal("99.00"))

    def test_setting_a_quantity_keeps_the_price_remembered(self, user, parts):
        cart = services.cart_add(cart=None, user=user, part=parts[0], quantity=1)
        old = parts[0].price
        raise_price(parts[0], "99.00")

        services.cart_set(cart=cart, part_id=parts[0].pk, quantity=4)

        line = CartLine.objects.get(cart=cart)
        assert (line.quantity, line.price_when_added) == (4, old)

    def test_the_merge_keeps_the_visitors_look_at_the_price(self, client, parts):
        a, b, _ = parts
        user = account_with([(a, 1)])  # at a's price then
        a = raise_price(a, "99.00")
        add(client, a, 1)  # the visitor saw the new price
        add(client, b, 1)

        client.post("/login", {"login": user.email, "password": TEST_PASSWORD})

        lines = CartLine.objects.filter(cart__user=user).order_by("added_at", "id")
        assert [(ln.part_id, ln.price_when_added) for ln in lines] == [
            (a.pk, Decimal("99.00")),
            (b.pk, b.price),
        ]


class TestAdding:
    def test_a_visitors_first_addition_makes_the_cart(self, parts):
        cart = services.cart_add(cart=None, user=AnonymousUser(), part=parts[0], quantity=1)

        assert cart.user is None
        assert list(cart.lines.values_list("part_id", "quantity")) == [(parts[0].pk, 1)]

    def test_an_addition_refused_makes_no_cart(self, user, parts):
        for shopper in (AnonymousUser(), user):
            with pytest.raises(ValidationError):
                services.cart_add(cart=None, user=shopper, part=parts[0], quantity=11)

        assert not Cart.objects.exists()


class TestRemoving:
    def test_a_removal_keeps_a_visitors_cart_in_use(self, parts):
        line = CartLineFactory(cart=Cart.objects.create(), part=parts[0])
        old = timezone.now() - timedelta(days=30)
        Cart.objects.filter(pk=line.cart_id).update(updated_at=old)

        services.cart_remove(cart=line.cart, part_id=parts[0].pk)

        assert not CartLine.objects.exists()
        assert Cart.objects.get(pk=line.cart_id).updated_at > old

    def test_removing_from_no_cart_does_nothing(self, parts):
        services.cart_remove(cart=None, part_id=parts[0].pk)

        assert not Cart.objects.exists()
