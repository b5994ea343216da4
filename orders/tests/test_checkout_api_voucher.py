"""A checkout with the cart's voucher (API.md "Vouchers"): the order takes its discount and
counts its use; a voucher that no longer applies is a 409 naming it with nothing held or used;
the use comes back when the unpaid order is deleted or expires, not when it is refunded."""

from decimal import Decimal

import pytest

from catalog.models import Part
from catalog.tests.factories import PartFactory
from orders import services
from orders.models import Booking, Cart, CartLine
from orders.tests.test_holds import lapse
from pricing import services as pricing_services
from pricing.models import VoucherUse
from pricing.tests import factories as pricing_factories

pytestmark = pytest.mark.django_db
WHERE = {"address": "12 Harbour Road, Leeds", "phone": "+441130000000"}


@pytest.fixture
def part(db):
    return PartFactory(price=Decimal("30.00"), minimum_order_quantity=1, available_quantity=10)


def fill(client, part, quantity, code=None):
    client.post("/api/cart", {"partId": part.pk, "quantity": quantity}, format="json")
    if code:
        response = client.post("/api/cart/voucher", {"code": code}, format="json")
        assert response.status_code == 200, response.content


def stock(part) -> int:
    return Part.objects.values_list("available_quantity", flat=True).get(pk=part.pk)


def test_the_order_takes_the_discount_and_counts_the_use(as_user, user, part):
    voucher = pricing_factories.voucher("RIDE10", value="10")
    pricing_factories.method("Express", bands=[(5000, "14.99")])
    fill(as_user, part, 2, "RIDE10")

    response = as_user.post("/api/checkout", {**WHERE, "expectedTotal": "68.99"}, format="json")

    assert response.status_code == 201, response.content
    body = response.json()
    assert (body["subtotal"], body["discount"], body["voucher"]) == (60, 6, "RIDE10")
    assert (body["shipping"]["price"], body["totalPrice"]) == (14.99, 68.99)
    use = VoucherUse.objects.get()
    assert (use.voucher, use.user, use.order_id) == (voucher, user, body["_id"])
    assert Cart.objects.get(user=user).voucher is None  # the cart is empty and has none


def test_a_free_shipping_code_makes_the_orders_shipping_free(as_user, part):
    pricing_factories.voucher("FREESHIP", kind="shipping", value="0")
    express = pricing_factories.method("Express", bands=[(5000, "14.99")])
    fill(as_user, part, 1, "FREESHIP")

    response = as_user.post("/api/checkout", {**WHERE, "shippingMethod": express.pk}, format="json")

    body = response.json()
    assert (body["discount"], body["shipping"]["price"], body["totalPrice"]) == (0, 0, 30)


def test_a_code_used_up_meanwhile_is_a_409_naming_it_with_nothing_held(as_user, user, part):
    voucher = pricing_factories.voucher("LAST", usage_limit=1)
    fill(as_user, part, 2, "LAST")
    pricing_services.voucher_use(
        voucher_id=voucher.pk, user=None, email="x@example.com", order_id=999, subtotal=Decimal(1)
    )

    response = as_user.post("/api/checkout", WHERE, format="json")

    assert (response.status_code, response.json()) == (
        409,
        {"detail": "This code has been used up.", "voucher": "LAST"},
    )
    assert not Booking.objects.exists()
    assert stock(part) == 10
    assert VoucherUse.objects.count() == 1
    assert CartLine.objects.filter(cart__user=user).count() == 1  # the cart as it was
    assert Cart.objects.get(user=user).voucher == voucher


def test_a_code_switched_off_or_deleted_meanwhile_is_a_409(as_user, part):
    voucher = pricing_factories.voucher("RIDE10")
    fill(as_user, part, 1, "RIDE10")
    pricing_services.voucher_update(
        voucher=voucher, code="RIDE10", kind="percent", value=Decimal(10), active=False
    )
    switched_off = as_user.post("/api/checkout", WHERE, format="json")
    pricing_services.voucher_delete(voucher=voucher)
    deleted = as_user.post("/api/checkout", WHERE, format="json")

    assert (switched_off.status_code, switched_off.json()) == (
        409,
        {"detail": "This code is not valid.", "voucher": "RIDE10"},
    )
    # A deleted voucher leaves the cart: the order is placed without it.
    assert (deleted.status_code, deleted.json()["voucher"]) == (201, None)


def test_a_code_whose_minimum_the_cart_no_longer_reaches_is_a_409(as_user, part):
    pricing_factories.voucher("BIG", min_subtotal=Decimal("50"))
    fill(as_user, part, 2, "BIG")
    as_user.put(f"/api/cart/{part.pk}", {"quantity": 1}, format="json")

    response = as_user.post("/api/checkout", WHERE, format="json")

    assert response.status_code == 409
    assert response.json() == {"detail": "Spend $20.00 more to use this code.", "voucher": "BIG"}


def test_once_per_customer_counts_the_accounts_earlier_order(as_user, part):
    pricing_factories.voucher("ONCE", once_per_customer=True)
    fill(as_user, part, 1, "ONCE")
    assert as_user.post("/api/checkout", WHERE, format="json").status_code == 201

    fill(as_user, part, 1)
    refused = as_user.post("/api/cart/voucher", {"code": "ONCE"}, format="json")

    assert refused.json() == {"code": ["You have already used this code."]}


def placed_with(client, part, code) -> Booking:
    fill(client, part, 1, code)
    response = client.post("/api/checkout", WHERE, format="json")
    assert response.status_code == 201, response.content
    return Booking.objects.get(pk=response.json()["_id"])


def test_deleting_the_unpaid_order_gives_the_use_back(as_user, part):
    pricing_factories.voucher("LAST", usage_limit=1)
    order = placed_with(as_user, part, "LAST")

    assert as_user.delete(f"/api/booking/{order.pk}").status_code == 200

    assert not VoucherUse.objects.exists()
    assert placed_with(as_user, part, "LAST").voucher_code == "LAST"


def test_an_order_that_expires_gives_the_use_back(as_user, part):
    pricing_factories.voucher("LAST", usage_limit=1)
    order = placed_with(as_user, part, "LAST")
    lapse(order)

    assert services.booking_release_lapsed_holds() == 1

    assert not VoucherUse.objects.exists()


def test_a_refunded_order_keeps_its_use(as_user, part):
    pricing_factories.voucher("LAST", usage_limit=1)
    order = placed_with(as_user, part, "LAST")
    assert services.booking_mark_paid(booking_id=order.pk, transaction_id="pi_paid")

    assert services.booking_mark_refunded(transaction_id="pi_paid")

    assert VoucherUse.objects.filter(order_id=order.pk).exists()
