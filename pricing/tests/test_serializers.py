"""pricing.serializers' answers: a quote's breakdown and a priced shipping method in the API's
names, money as JSON numbers."""

from decimal import Decimal

import pytest
from rest_framework.renderers import JSONRenderer

from pricing.quotes import Line, quote, quote_options
from pricing.serializers import QuoteOutputSerializer, ShippingChoiceSerializer
from pricing.tests import factories

pytestmark = pytest.mark.django_db


def as_json(data) -> bytes:
    return JSONRenderer().render(data)


def test_a_quote_in_the_api_s_names(settings):
    settings.PRICES_INCLUDE_TAX = True
    factories.method("Express", bands=[(5000, "14.99")], eta="1–2 business days")
    factories.tax_rate("US", "10")
    voucher = factories.voucher("RIDE10")

    got = quote(lines=[Line(Decimal("12.25"), 2, 300)], country="US", voucher=voucher)

    assert as_json(QuoteOutputSerializer(got).data) == as_json(
        {
            "subtotal": 24.5,
            "discount": 2.45,
            "voucher": "RIDE10",
            "shipping": {"method": "Express", "price": 14.99, "eta": "1–2 business days"},
            "tax": 3.37,  # (22.05 + 14.99) × 10 / 110 = 3.367
            "taxIncluded": True,
            "total": 37.04,
        }
    )


def test_a_priced_method_in_the_api_s_names():
    standard = factories.method("Standard", bands=[(5000, "6.95")], free_over=Decimal("50"))

    options = quote_options(lines=[Line(Decimal("60"), 1, 100)], country="US")

    assert as_json(ShippingChoiceSerializer(options, many=True).data) == as_json(
        [
            {
                "_id": standard.pk,
                "name": "Standard",
                "price": 0.0,
                "eta": "",
                "freeOver": 50.0,
                "isDefault": True,
                "quote": {
                    "subtotal": 60.0,
                    "discount": 0.0,
                    "voucher": None,
                    "shipping": {"method": "Standard", "price": 0.0, "eta": ""},
                    "tax": 0.0,
                    "taxIncluded": True,
                    "total": 60.0,
                },
            }
        ]
    )
