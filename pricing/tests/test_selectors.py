"""pricing.selectors: the methods that can deliver an order, priced, and the rate that applies."""

from decimal import Decimal

import pytest

from pricing.selectors import method_default, method_price, shipping_options, tax_rate_for
from pricing.tests import factories

pytestmark = pytest.mark.django_db

D = Decimal


def test_the_methods_that_deliver_come_cheapest_first():
    factories.method("Standard", bands=[(5000, "6.95")])
    factories.method("Express", bands=[(5000, "14.99")])
    factories.method("Freight", bands=[(50000, "4.00")])
    factories.method("Canada post", countries=["CA"], bands=[(5000, "1.00")])
    factories.method("Closed", active=False)

    options = shipping_options(country="US", weight=1000, goods=D("30"))

    assert [(o.name, o.price) for o in options] == [
        ("Freight", D("4.00")),
        ("Standard", D("6.95")),
        ("Express", D("14.99")),
    ]


def test_a_method_that_cannot_carry_the_weight_is_left_out():
    factories.method("Light", bands=[(1000, "3")])
    factories.method("Heavy", bands=[(30000, "20")])

    options = shipping_options(country="US", weight=1001, goods=D("30"))

    assert [o.name for o in options] == ["Heavy"]


def test_free_over_and_a_shipping_voucher_price_methods_at_zero():
    factories.method("Standard", bands=[(5000, "6.95")], free_over=D("50"))
    factories.method("Express", bands=[(5000, "14.99")])

    free_over = shipping_options(country="US", weight=0, goods=D("50"))
    voucher = shipping_options(country="US", weight=0, goods=D("1"), free_shipping=True)

    assert [(o.name, o.price) for o in free_over] == [("Standard", 0), ("Express", D("14.99"))]
    assert [o.price for o in voucher] == [0, 0]


def test_the_default_method_is_the_one_marked():
    factories.method("Standard")
    express = factories.method("Express", is_default=True)

    assert method_default() == express


def test_the_price_of_a_method_by_weight():
    method = factories.method(bands=[(1000, "3"), (5000, "7")])

    assert method_price(method, weight=1000, goods=D("1")) == D("3")
    assert method_price(method, weight=1001, goods=D("1")) == D("7")
    assert method_price(method, weight=5001, goods=D("1")) is None


def test_the_rate_of_a_region_then_its_country_then_none():
    country = factories.tax_rate("US", "1")
    region = factories.tax_rate("US", "7.25", region="CA")

    assert tax_rate_for(country="US", region="CA") == region
    assert tax_rate_for(country="US", region="OR") == country
    assert tax_rate_for(country="US") == country
    assert tax_rate_for(country="CA", region="CA") is None
