"""pricing.quotes: every rule of an order's money, and each rounding case."""

from decimal import Decimal

import pytest

from pricing import quotes
from pricing.quotes import Line, ShippingRefused, quote, quote_options
from pricing.tests import factories
from pricing.vouchers import SPEND_MORE, VoucherRefused

pytestmark = pytest.mark.django_db

D = Decimal


def lines(*prices_and_quantities, weight=0):
    return [Line(D(price), quantity, weight) for price, quantity in prices_and_quantities]


def test_without_methods_vouchers_or_rates_the_total_is_the_lines():
    got = quote(lines=lines(("25.50", 2), ("10.00", 1)), country="US")

    assert got.subtotal == D("61.00")
    assert got.discount == D("0.00")
    assert got.voucher is None
    assert (got.shipping.method, got.shipping.price, got.shipping.eta) == ("", D("0.00"), "")
    assert got.tax == D("0.00")
    assert got.total == D("61.00")
    assert got.tax_included is True
    assert all(isinstance(v, Decimal) for v in (got.subtotal, got.discount, got.tax, got.total))


def test_the_weight_is_each_unit_times_its_quantity():
    got = quote(lines=[Line(D("1"), 3, 400), Line(D("1"), 2, 50)], country="US")

    assert got.weight == 1300


def test_the_default_method_is_used_when_none_is_chosen():
    factories.method("Standard", bands=[(2000, "6.95")], eta="3–5 business days")
    factories.method("Express", bands=[(2000, "14.99")])

    got = quote(lines=lines(("10", 1)), country="US")

    assert got.shipping.method == "Standard"
    assert got.shipping.price == D("6.95")
    assert got.shipping.eta == "3–5 business days"
    assert got.total == D("16.95")


@pytest.mark.parametrize(
    ("grams", "price"), [(0, "6.95"), (2000, "6.95"), (2001, "12.95"), (10000, "12.95")]
)
def test_the_band_is_the_lightest_that_carries_the_weight(grams, price):
    method = factories.method(bands=[(10000, "12.95"), (2000, "6.95")])

    got = quote(lines=[Line(D("10"), 1, grams)], country="US", method=method)

    assert got.shipping.price == D(price)


def test_an_order_heavier_than_the_last_band_is_refused():
    method = factories.method(bands=[(2000, "6.95")])

    with pytest.raises(ShippingRefused) as refused:
        quote(lines=[Line(D("10"), 1, 2001)], country="US", method=method)

    assert refused.value.message == quotes.TOO_HEAVY.format(weight=2001)


def test_a_method_without_bands_is_free_at_any_weight():
    method = factories.method()

    got = quote(lines=[Line(D("10"), 1, 10**7)], country="US", method=method)

    assert got.shipping.price == D("0.00")


def test_a_method_does_not_deliver_to_a_country_it_does_not_list():
    method = factories.method(countries=["US", "CA"], bands=[(2000, "5")])

    with pytest.raises(ShippingRefused) as refused:
        quote(lines=lines(("10", 1)), country="DE", method=method)

    assert refused.value.message == "This shipping method does not deliver to Germany."
    assert quote(lines=lines(("10", 1)), country="CA", method=method).shipping.price == D("5")


def test_a_method_that_lists_no_country_delivers_everywhere():
    method = factories.method(bands=[(2000, "5")])

    assert quote(lines=lines(("10", 1)), country="JP", method=method).shipping.price == D("5")


def test_a_switched_off_method_is_refused():
    factories.method("Standard")
    method = factories.method("Express", active=False)

    with pytest.raises(ShippingRefused) as refused:
        quote(lines=lines(("10", 1)), country="US", method=method)

    assert refused.value.message == quotes.NOT_OFFERED


@pytest.mark.parametrize(("total", "price"), [("99.99", "6.95"), ("100.00", "0.00")])
def test_free_over_is_at_or_above_the_goods_total(total, price):
    method = factories.method(bands=[(2000, "6.95")], free_over=D("100"))

    got = quote(lines=lines((total, 1)), country="US", method=method)

    assert got.shipping.price == D(price)


def test_free_over_compares_the_goods_after_the_discount():
    method = factories.method(bands=[(2000, "6.95")], free_over=D("100"))
    voucher = factories.voucher("TEN", "percent", "10")

    got = quote(lines=lines(("100", 1)), country="US", method=method, voucher=voucher)

    assert got.discount == D("10.00")
    assert got.shipping.price == D("6.95")
    assert got.total == D("96.95")


@pytest.mark.parametrize(
    ("price", "percent", "discount"),
    [
        ("12.25", "10", "1.23"),  # 1.225: half up, not to even (1.22)
        ("33.33", "15", "5.00"),  # 4.9995
        ("0.05", "10", "0.01"),  # 0.005
        ("0.04", "10", "0.00"),  # 0.004
        ("80.00", "100", "80.00"),
    ],
)
def test_a_percentage_off_the_goods_is_rounded_half_up(price, percent, discount):
    voucher = factories.voucher("PCT", "percent", percent)

    got = quote(lines=lines((price, 1)), country="US", voucher=voucher)

    assert got.discount == D(discount)
    assert got.voucher == "PCT"
    assert got.total == D(price) - D(discount)


def test_a_percentage_is_rounded_once_per_order_not_per_line():
    voucher = factories.voucher("PCT", "percent", "10")

    got = quote(lines=lines(("0.05", 1), ("0.05", 1), ("0.05", 1)), country="US", voucher=voucher)

    assert got.discount == D("0.02")  # 10% of 0.15 is 0.015; per line it would be 0.03


@pytest.mark.parametrize(("value", "discount"), [("5.00", "5.00"), ("50.00", "30.00")])
def test_dollars_off_are_never_more_than_the_goods(value, discount):
    method = factories.method(bands=[(2000, "6.95")])
    voucher = factories.voucher("FIVE", "fixed", value)

    got = quote(lines=lines(("15.00", 2)), country="US", method=method, voucher=voucher)

    assert got.discount == D(discount)
    assert got.total == D("30.00") - D(discount) + D("6.95")


def test_a_shipping_voucher_makes_shipping_free_and_leaves_the_discount_at_zero():
    method = factories.method("Express", bands=[(2000, "14.99")], eta="1–2 business days")
    voucher = factories.voucher("FREESHIP", "shipping", "0")

    got = quote(lines=lines(("20", 1)), country="US", method=method, voucher=voucher)

    assert got.discount == D("0.00")
    assert got.shipping.price == D("0.00")
    assert got.shipping.method == "Express"
    assert got.voucher == "FREESHIP"
    assert got.total == D("20.00")


def test_a_voucher_that_does_not_apply_is_refused_with_its_reason():
    voucher = factories.voucher("BIG", "percent", "10", min_subtotal=D("50"))

    with pytest.raises(VoucherRefused) as refused:
        quote(lines=lines(("35", 1)), country="US", voucher=voucher)

    assert refused.value.message == SPEND_MORE.format(amount="$15.00")


def test_prices_including_tax_show_the_tax_they_contain(settings):
    settings.PRICES_INCLUDE_TAX = True
    factories.tax_rate("DE", "19")

    got = quote(lines=lines(("119.00", 1)), country="DE")

    assert got.tax == D("19.00")
    assert got.tax_included is True
    assert got.total == D("119.00")


def test_prices_without_tax_have_it_added(settings):
    settings.PRICES_INCLUDE_TAX = False
    factories.tax_rate("DE", "19")

    got = quote(lines=lines(("100.00", 1)), country="DE")

    assert got.tax == D("19.00")
    assert got.tax_included is False
    assert got.total == D("119.00")


@pytest.mark.parametrize(("included", "tax"), [(False, "0.53"), (True, "0.50")])
def test_the_tax_is_rounded_half_up(settings, included, tax):
    settings.PRICES_INCLUDE_TAX = included
    factories.tax_rate("US", "5")

    got = quote(lines=lines(("10.50", 1)), country="US")

    # 0.525 without; 10.50 × 5 / 105 = 0.5 with
    assert got.tax == D(tax)


def test_the_tax_is_rounded_once_per_order(settings):
    settings.PRICES_INCLUDE_TAX = True
    factories.tax_rate("DE", "19")

    got = quote(lines=lines(("10.00", 1), ("10.00", 1)), country="DE")

    assert got.tax == D("3.19")  # 20 × 19 / 119 = 3.193; per line 1.60 + 1.60 = 3.20


def test_the_tax_is_on_the_goods_after_the_discount_plus_shipping(settings):
    settings.PRICES_INCLUDE_TAX = False
    factories.tax_rate("DE", "10")
    method = factories.method(bands=[(2000, "10.00")])
    voucher = factories.voucher("FIVE", "fixed", "5")

    got = quote(lines=lines(("45.00", 1)), country="DE", method=method, voucher=voucher)

    assert got.tax == D("5.00")  # 10% of 40 + 10
    assert got.total == D("55.00")


def test_the_region_rate_beats_the_country_rate(settings):
    settings.PRICES_INCLUDE_TAX = False
    factories.tax_rate("US", "0", name="None")
    factories.tax_rate("US", "7.25", region="CA", name="Sales tax")

    def tax(region):
        return quote(lines=lines(("100", 1)), country="US", region=region).tax

    assert tax("CA") == D("7.25")
    assert tax("ca") == D("7.25")
    assert tax("NY") == D("0.00")
    assert tax("") == D("0.00")


def test_a_region_rate_alone_taxes_only_that_region(settings):
    settings.PRICES_INCLUDE_TAX = False
    factories.tax_rate("US", "8.875", region="NY")

    assert quote(lines=lines(("100", 1)), country="US", region="NY").tax == D("8.88")
    assert quote(lines=lines(("100", 1)), country="US", region="NJ").tax == D("0.00")


def test_no_rate_for_the_destination_is_no_tax(settings):
    settings.PRICES_INCLUDE_TAX = False
    factories.tax_rate("DE", "19")

    got = quote(lines=lines(("100", 1)), country="FR")

    assert got.tax == D("0.00")
    assert got.total == D("100.00")


# --- quote_options: every method that can deliver an order, priced for it ---------------


def test_the_methods_that_deliver_come_cheapest_first():
    factories.method("Standard", bands=[(5000, "6.95")])
    factories.method("Express", bands=[(5000, "14.99")])
    factories.method("Freight", bands=[(50000, "4.00")])
    factories.method("Canada post", countries=["CA"], bands=[(5000, "1.00")])
    factories.method("Closed", active=False)

    options = quote_options(lines=[Line(D("30"), 1, 1000)], country="US")

    assert [(o.method.name, o.quote.shipping.price, o.quote.total) for o in options] == [
        ("Freight", D("4.00"), D("34.00")),
        ("Standard", D("6.95"), D("36.95")),
        ("Express", D("14.99"), D("44.99")),
    ]


def test_a_method_that_cannot_carry_the_weight_is_left_out():
    factories.method("Light", bands=[(1000, "3")])
    factories.method("Heavy", bands=[(30000, "20")])

    options = quote_options(lines=[Line(D("30"), 1, 1001)], country="US")

    assert [o.method.name for o in options] == ["Heavy"]


def test_free_over_and_a_shipping_voucher_price_methods_at_zero():
    factories.method("Standard", bands=[(5000, "6.95")], free_over=D("50"))
    factories.method("Express", bands=[(5000, "14.99")])
    free = factories.voucher("FREESHIP", kind="shipping", value=D("0"))

    free_over = quote_options(lines=[Line(D("50"), 1)], country="US")
    voucher = quote_options(lines=[Line(D("1"), 1)], country="US", voucher=free)

    assert [(o.method.name, o.quote.shipping.price) for o in free_over] == [
        ("Standard", 0),
        ("Express", D("14.99")),
    ]
    assert [o.quote.shipping.price for o in voucher] == [0, 0]
    assert {o.quote.voucher for o in voucher} == {"FREESHIP"}


def test_the_options_are_taxed_for_the_destination(settings):
    settings.PRICES_INCLUDE_TAX = False
    factories.method("Express", bands=[(5000, "10.00")])
    factories.tax_rate("DE", "19")

    (express,) = quote_options(lines=[Line(D("90"), 1)], country="DE")

    assert (express.quote.tax, express.quote.total) == (D("19.00"), D("119.00"))


def test_options_with_a_voucher_that_does_not_apply_are_refused():
    factories.method("Standard")
    voucher = factories.voucher("BIG", min_subtotal=D("100"))

    with pytest.raises(VoucherRefused):
        quote_options(lines=[Line(D("30"), 1)], country="US", voucher=voucher)
