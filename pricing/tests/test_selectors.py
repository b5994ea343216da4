"""pricing.selectors: the methods that can deliver an order, priced, and the rate that applies."""

from decimal import Decimal

import pytest

from pricing import selectors, services
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


def test_what_a_quote_reads_is_kept_until_a_method_a_band_or_a_rate_changes(
    django_assert_num_queries,
):
    method = factories.method("Standard", bands=[(1000, "3")])
    rate = factories.tax_rate("DE", "19")
    selectors.rules()
    with django_assert_num_queries(0):
        assert selectors.method_default() == method
        assert selectors.tax_rate_for(country="DE") == rate

    services.shipping_method_update(method=method, name="Standard", bands=[(1000, "4")])
    assert [b.price for b in selectors.method_default().bands.all()] == [D("4")]
    services.tax_rate_update(tax_rate=rate, country="DE", name="VAT", rate=D("7"))
    assert selectors.tax_rate_for(country="DE").rate == D("7")
    services.tax_rate_delete(tax_rate=rate)
    assert selectors.tax_rate_for(country="DE") is None
    express = services.shipping_method_create(name="Express", is_default=False)
    assert [m.name for m in selectors.rules().methods] == ["Express", "Standard"]
    services.shipping_method_delete(method=express)
    assert [m.name for m in selectors.rules().methods] == ["Standard"]
