"""POST and DELETE /api/cart/voucher (API.md "Vouchers"): one code per cart, checked against
the cart's goods; its six refusals word for word; `<cart>`'s subtotal, discount and voucher."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.core.cache import cache
from django.utils import timezone

from catalog.tests.factories import PartFactory
from conftest import bearer_client
from orders.models import Cart
from pricing import services as pricing_services
from pricing.tests import factories as pricing_factories

pytestmark = pytest.mark.django_db


@pytest.fixture
def part(db):
    return PartFactory(price=Decimal("12.25"), minimum_order_quantity=1, available_quantity=20)


def add(client, part, quantity):
    response = client.post("/api/cart", {"partId": part.pk, "quantity": quantity}, format="json")
    assert response.status_code == 200, response.content
    return response.json()


def apply(client, code):
    return client.post("/api/cart/voucher", {"code": code}, format="json")


def test_a_code_in_any_case_takes_its_discount_off_the_goods(as_user, part):
    pricing_factories.voucher("RIDE10", kind="percent", value="10")
    add(as_user, part, 2)

    response = apply(as_user, "ride10")

    assert response.status_code == 200, response.content
    cart = response.json()
    assert cart["voucher"] == {"code": "RIDE10", "kind": "percent", "value": 10.0}
    assert (cart["subtotal"], cart["discount"], cart["total"]) == (24.5, 2.45, 22.05)
    assert cart["voucherProblem"] is None
    assert as_user.get("/api/cart").json()["discount"] == 2.45  # kept on the cart


def test_a_percentage_is_rounded_half_up_to_the_cent(as_user):
    part = PartFactory(price=Decimal("0.25"), minimum_order_quantity=1, available_quantity=9)
    pricing_factories.voucher("HALF", kind="percent", value="10")
    add(as_user, part, 1)

    assert apply(as_user, "HALF").json()["discount"] == 0.03  # 0.025 rounds up


def test_a_free_shipping_code_takes_nothing_off_the_goods(as_user, part):
    pricing_factories.voucher("FREESHIP", kind="shipping", value="0")
    add(as_user, part, 1)

    cart = apply(as_user, "FREESHIP").json()

    assert (cart["discount"], cart["total"], cart["voucher"]["kind"]) == (0, 12.25, "shipping")


def test_dollars_off_are_never_more_than_the_goods(as_user, part):
    pricing_factories.voucher("TWENTY", kind="fixed", value="20")
    add(as_user, part, 1)

    cart = apply(as_user, "TWENTY").json()

    assert (cart["discount"], cart["total"]) == (12.25, 0)


def later(**delta):
    return timezone.now() + timedelta(**delta)


@pytest.mark.parametrize(
    ("voucher", "message"),
    [
        ({}, "This code is not valid."),  # no such code
        ({"code": "OFF", "active": False}, "This code is not valid."),
        ({"code": "SOON", "starts_at": later(days=1)}, "This code is not active yet."),
        ({"code": "OLD", "ends_at": later(days=-1)}, "This code has expired."),
        ({"code": "BIG", "min_subtotal": Decimal("40")}, "Spend $15.50 more to use this code."),
    ],
)
def test_a_code_that_does_not_apply_says_why(as_user, part, voucher, message):
    if voucher:
        pricing_factories.voucher(**voucher)
    add(as_user, part, 2)  # $24.50

    response = apply(as_user, voucher.get("code", "NOPE"))

    assert (response.status_code, response.json()) == (400, {"code": [message]})


def test_a_code_used_up_or_already_used_says_so(as_user, user, part):
    used_up = pricing_factories.voucher("LAST", usage_limit=1)
    once = pricing_factories.voucher("ONCE", once_per_customer=True)
    pricing_services.voucher_use(
        voucher_id=used_up.pk, user=None, email="x@example.com", order_id=1, subtotal=Decimal(1)
    )
    pricing_services.voucher_use(
        voucher_id=once.pk, user=user, email=user.email, order_id=2, subtotal=Decimal(1)
    )
    add(as_user, part, 1)

    assert apply(as_user, "LAST").json() == {"code": ["This code has been used up."]}
    assert apply(as_user, "ONCE").json() == {"code": ["You have already used this code."]}


@pytest.mark.parametrize("code", ["", "   ", None])
def test_no_code_is_a_400_on_code(as_user, part, code):
    add(as_user, part, 1)

    response = as_user.post("/api/cart/voucher", {"code": code}, format="json")

    assert (response.status_code, response.json()) == (400, {"code": ["Enter a voucher code."]})


def test_a_very_long_or_strange_code_is_simply_not_valid(as_user, part):
    add(as_user, part, 1)

    for code in ["X" * 5000, "💥'; DROP TABLE", "\u0000"]:
        response = apply(as_user, code)
        assert response.status_code == 400, code
        assert set(response.json()) == {"code"}


def test_another_code_replaces_the_one_applied_and_a_refused_one_leaves_it(as_user, part):
    pricing_factories.voucher("RIDE10", value="10")
    pricing_factories.voucher("RIDE20", value="20")
    add(as_user, part, 2)
    apply(as_user, "RIDE10")

    assert apply(as_user, "RIDE20").json()["voucher"]["code"] == "RIDE20"
    assert apply(as_user, "NOPE").status_code == 400
    assert as_user.get("/api/cart").json()["voucher"]["code"] == "RIDE20"


def test_removing_the_voucher(as_user, part):
    pricing_factories.voucher("RIDE10")
    add(as_user, part, 2)
    apply(as_user, "RIDE10")

    response = as_user.delete("/api/cart/voucher")

    assert response.status_code == 200
    body = response.json()
    assert (body["voucher"], body["discount"], body["total"]) == (None, 0, 24.5)
    assert as_user.delete("/api/cart/voucher").status_code == 200  # nothing to remove: fine


def test_a_voucher_that_stops_applying_shows_why_and_takes_nothing(as_user, part):
    pricing_factories.voucher("BIG", min_subtotal=Decimal("20"))
    add(as_user, part, 2)
    apply(as_user, "BIG")

    cart = as_user.put(f"/api/cart/{part.pk}", {"quantity": 1}, format="json").json()

    assert cart["voucher"]["code"] == "BIG"
    assert cart["voucherProblem"] == "Spend $7.75 more to use this code."
    assert (cart["discount"], cart["total"]) == (0, 12.25)


def test_a_visitor_applies_a_code_and_keeps_it_at_sign_in(client, user, part):
    pricing_factories.voucher("RIDE10")
    client.post("/api/cart", {"partId": part.pk, "quantity": 2}, content_type="application/json")
    response = client.post("/api/cart/voucher", {"code": "RIDE10"}, content_type="application/json")
    assert response.json()["discount"] == 2.45

    client.force_login(user)  # the visitor's cart joins the account's at sign-in
    cart = Cart.objects.get(user=user)

    assert cart.voucher.code == "RIDE10"


def test_a_refused_code_makes_no_cart_for_a_visitor(anon):
    assert apply(anon, "NOPE").status_code == 400
    assert not Cart.objects.exists()


def test_codes_tried_by_an_account_are_limited(as_user, part, settings):
    cache.clear()
    rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {**rates, "voucher_tries": "3/minute"},
    }
    add(as_user, part, 1)

    answers = [apply(as_user, f"GUESS{n}").status_code for n in range(4)]

    assert answers == [400, 400, 400, 429]


def test_codes_tried_from_one_address_are_limited_whichever_account(
    user, other_user, part, settings
):
    """New accounts from one address do not each get the whole rate of guesses."""
    as_user, as_other = (bearer_client(u, address="10.9.9.9") for u in (user, other_user))
    cache.clear()
    rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {**rates, "voucher_tries": "3/minute"},
    }
    add(as_user, part, 1)
    add(as_other, part, 1)

    answers = [
        apply(client, f"GUESS{n}").status_code
        for n, client in enumerate([as_user] * 3 + [as_other])
    ]

    assert answers == [400, 400, 400, 429]


def test_a_deleted_voucher_leaves_the_cart(as_user, part):
    voucher = pricing_factories.voucher("RIDE10")
    add(as_user, part, 1)
    apply(as_user, "RIDE10")

    pricing_services.voucher_delete(voucher=voucher)

    assert as_user.get("/api/cart").json()["voucher"] is None
