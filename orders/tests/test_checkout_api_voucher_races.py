"""Several shoppers check out at once with a voucher's last use, on a real database with real
row locks: exactly one order gets it; the others are refused with the voucher's message and
hold nothing."""

from decimal import Decimal

import pytest

from accounts.tests.factories import UserFactory
from catalog.models import Part
from catalog.tests.factories import PartFactory
from conftest import bearer_client
from orders.models import Booking
from orders.tests.test_services_cart_races import at_once
from pricing.models import VoucherUse
from pricing.tests import factories as pricing_factories

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.slow,  # threads racing on real row locks
]
SHOPPERS = 6
WHERE = {"address": "12 Harbour Road, Leeds", "phone": "+441130000000"}


def a_part():
    return PartFactory(price=Decimal("20.00"), minimum_order_quantity=1, available_quantity=50)


def shopper_with(part, code):
    client = bearer_client(UserFactory())
    client.post("/api/cart", {"partId": part.pk, "quantity": 1}, format="json")
    assert client.post("/api/cart/voucher", {"code": code}, format="json").status_code == 200
    return client


def test_the_last_use_goes_to_exactly_one_shopper():
    """Each buys a part of their own: only the voucher's lock keeps them apart."""
    voucher = pricing_factories.voucher("LAST", usage_limit=2)
    first = shopper_with(a_part(), "LAST")
    assert first.post("/api/checkout", WHERE, format="json").status_code == 201
    parts = [a_part() for _ in range(SHOPPERS)]
    shoppers = [shopper_with(part, "LAST") for part in parts]

    answers = at_once([lambda c=c: c.post("/api/checkout", WHERE, format="json") for c in shoppers])

    codes = sorted(answer.status_code for answer in answers)
    assert codes == [201] + [409] * (SHOPPERS - 1)
    refused = [answer.json() for answer in answers if answer.status_code == 409]
    assert all(r == {"detail": "This code has been used up.", "voucher": "LAST"} for r in refused)
    assert VoucherUse.objects.filter(voucher=voucher).count() == 2
    assert Booking.objects.count() == 2
    left = Part.objects.filter(pk__in=[p.pk for p in parts]).values_list(
        "available_quantity", flat=True
    )
    assert sorted(left) == [49] + [50] * (SHOPPERS - 1)
