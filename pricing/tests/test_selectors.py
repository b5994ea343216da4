"""pricing.selectors: the methods that can deliver an order, priced, and the rate that applies."""

from decimal import Decimal

import pytest

from pricing.selectors import method_default, method_price, tax_rate_for
from pricing.tests import factories

pytestmark = pytest.mark.django_db

D = Decimal


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
