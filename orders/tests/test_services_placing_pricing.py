"""An order is priced by pricing's one function when it is placed (API.md "Addresses, shipping
and tax"): the default method or the one asked for, SHOP_COUNTRY's tax for the spec's
free-text address, the breakdown stored on the order and its total the amount to pay; a method
that cannot deliver it is a 400 on `shippingMethod` with nothing held, on POST /api/booking
and POST /api/checkout alike."""

from decimal import Decimal

import pytest

from catalog.models import Part
from catalog.tests.factories import PartFactory
from orders.models import Booking, CartLine
from orders.payments import amount_in_cents
from pricing.tests.factories import method, tax_rate

WHERE = {"address": "12 Harbour Road, Leeds", "phone": "+441130000000"}


@pytest.fixture
def part(db):
    return PartFactory(
        price=Decimal("40.00"), minimum_order_quantity=1, available_quantity=10, weight=1500
    )


@pytest.fixture
def demo_methods(db):
    """The demo's: "Standard" free (the default), "Express" $14.99."""
    standard = method("Standard", eta="3–5 business days", is_default=True)
    express = method("Express", bands=[(30000, "14.99")], eta="1–2 business days")
    return standard, express


def book(client, part, quantity=2, **extra):
    body = {"partId": part.pk, "quantity": quantity, **WHERE, **extra}
    return client.post("/api/booking", body, format="json")


def stock(part) -> int:
    return Part.objects.values_list("available_quantity", flat=True).get(pk=part.pk)


class TestTheDemo:
    def test_the_default_free_method_keeps_the_specs_total(self, as_user, part, demo_methods):
        response = book(as_user, part)
        assert response.status_code == 201
        body = response.json()
        assert body["totalPrice"] == 80.0  # pricePerUnit × quantity
        assert body["subtotal"] == 80.0
        assert (body["discount"], body["voucher"], body["tax"]) == (0.0, None, 0.0)
        assert body["shipping"] == {"method": "Standard", "price": 0.0, "eta": "3–5 business days"}
        assert (body["taxIncluded"], body["shipTo"]) == (True, None)

    def test_a_shop_without_methods_ships_free(self, as_user, part):
        body = book(as_user, part).json()
        assert body["shipping"] == {"method": "", "price": 0.0, "eta": ""}
        assert body["totalPrice"] == body["subtotal"] == 80.0


class TestChosenMethod:
    def test_express_is_added_and_stored(self, as_user, part, demo_methods):
        _, express = demo_methods
        response = book(as_user, part, shippingMethod=express.pk)
        assert response.status_code == 201
        booking = Booking.objects.get(pk=response.json()["_id"])
        assert booking.total_price == Decimal("94.99")
        assert (booking.subtotal, booking.shipping_price) == (Decimal("80.00"), Decimal("14.99"))
        assert (booking.shipping_method, booking.shipping_eta) == ("Express", "1–2 business days")
        assert response.json()["shipping"]["price"] == 14.99

    def test_null_is_the_default(self, as_user, part, demo_methods):
        assert book(as_user, part, shippingMethod=None).json()["shipping"]["method"] == "Standard"

    @pytest.mark.parametrize("bad", [999999, 0, "fast"])
    def test_an_unknown_method_is_a_400_and_nothing_is_held(self, as_user, part, bad):
        response = book(as_user, part, shippingMethod=bad)
        assert response.status_code == 400
        assert response.json()["shippingMethod"] == ["There is no shipping method with this id"]
        assert stock(part) == 10
        assert not Booking.objects.exists()

    def test_a_method_that_does_not_deliver_to_the_shop_country(self, as_user, part, settings):
        settings.SHOP_COUNTRY = "US"
        elsewhere = method("Europe only", countries=["DE", "FR"])
        response = book(as_user, part, shippingMethod=elsewhere.pk)
        assert response.status_code == 400
        assert response.json() == {
            "shippingMethod": ["This shipping method does not deliver to United States of America."]
        }
        assert stock(part) == 10
        assert not Booking.objects.exists()

    def test_a_method_that_cannot_carry_the_weight(self, as_user, part):
        light = method("Letter", bands=[(2000, "2.00")])
        response = book(as_user, part, quantity=2, shippingMethod=light.pk)  # 3,000 g
        assert response.json() == {
            "shippingMethod": ["This shipping method cannot carry an order of 3,000 g."]
        }
        assert stock(part) == 10

    def test_a_method_switched_off(self, as_user, part, demo_methods):
        _, express = demo_methods
        express.active = False
        express.save()
        response = book(as_user, part, shippingMethod=express.pk)
        assert response.json() == {
            "shippingMethod": ["This shipping method is not offered any more."]
        }

    def test_the_default_that_cannot_deliver_refuses_the_order(self, as_user, part, settings):
        settings.SHOP_COUNTRY = "US"
        method("Europe only", countries=["DE"], is_default=True)
        response = book(as_user, part)
        assert response.status_code == 400
        assert "shippingMethod" in response.json()
        assert stock(part) == 10


class TestTax:
    def test_included_tax_is_shown_and_the_total_unchanged(self, as_user, part, settings):
        settings.SHOP_COUNTRY, settings.PRICES_INCLUDE_TAX = "DE", True
        tax_rate("DE", "19")
        body = book(as_user, part).json()
        assert (body["totalPrice"], body["tax"], body["taxIncluded"]) == (80.0, 12.77, True)

    def test_tax_added_when_prices_exclude_it(self, as_user, part, settings):
        settings.SHOP_COUNTRY, settings.PRICES_INCLUDE_TAX = "DE", False
        tax_rate("DE", "19")
        body = book(as_user, part).json()
        assert (body["totalPrice"], body["tax"], body["taxIncluded"]) == (95.2, 15.2, False)


class TestTheTotalIsTheQuotes:
    def test_max_total_counts_shipping(self, as_user, demo_methods):
        _, express = demo_methods
        dear = PartFactory(price=Decimal("99999999.99"), minimum_order_quantity=1)
        response = book(as_user, dear, quantity=1, shippingMethod=express.pk)
        assert response.status_code == 400
        assert response.json()["quantity"] == [
            "The total can't pass $99,999,999.99: order fewer units"
        ]
        assert not Booking.objects.exists()

    def test_the_payment_is_for_the_total_with_shipping(self, as_user, part, demo_methods):
        _, express = demo_methods
        placed = book(as_user, part, shippingMethod=express.pk).json()
        booking = Booking.objects.get(pk=placed["_id"])
        assert amount_in_cents(booking.total_price) == 9499


@pytest.fixture
def cart(as_user, part, settings):
    settings.SHOP_COUNTRY = "US"
    response = as_user.post("/api/cart", {"partId": part.pk, "quantity": 2}, format="json")
    assert response.status_code == 200
    return as_user


class TestCheckout:
    def test_express_and_the_expected_total(self, cart, part, demo_methods):
        _, express = demo_methods
        body = {**WHERE, "shippingMethod": express.pk, "expectedTotal": "94.99"}
        response = cart.post("/api/checkout", body, format="json")
        assert response.status_code == 201
        assert response.json()["totalPrice"] == 94.99
        assert response.json()["shipping"]["method"] == "Express"

    def test_the_goods_alone_are_not_the_expected_total(self, cart, part, demo_methods):
        _, express = demo_methods
        body = {**WHERE, "shippingMethod": express.pk, "expectedTotal": "80.00"}
        response = cart.post("/api/checkout", body, format="json")
        assert response.status_code == 409
        assert stock(part) == 10
        assert CartLine.objects.count() == 1

    def test_a_method_that_cannot_deliver_is_a_400_and_the_cart_stays(self, cart, part):
        elsewhere = method("Europe only", countries=["DE"])
        body = {**WHERE, "shippingMethod": elsewhere.pk}
        response = cart.post("/api/checkout", body, format="json")
        assert response.status_code == 400
        assert response.json() == {
            "shippingMethod": ["This shipping method does not deliver to United States of America."]
        }
        assert stock(part) == 10
        assert CartLine.objects.count() == 1
        assert not Booking.objects.exists()
