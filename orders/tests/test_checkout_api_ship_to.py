"""Where a checkout's order goes (API.md "Addresses, shipping and tax"): a saved address
(`addressId`), a new one (`shipTo`, saved with `saveAddress`), or the spec's free text; the
order keeps its own copy, is priced for that country and region, and bad input is a 400 on its
field with nothing held."""

from decimal import Decimal

import pytest

from accounts.addresses import MAX_ADDRESSES, address_create, address_delete
from accounts.models import Address
from catalog.models import Part
from catalog.tests.factories import PartFactory
from orders.models import Booking
from pricing.tests import factories as pricing_factories

pytestmark = pytest.mark.django_db

SHIP_TO = {
    "fullName": "Jane Rider",
    "line1": "1 Main St",
    "line2": "Apt 2",
    "city": "Springfield",
    "region": "IL",
    "postcode": "62701",
    "country": "US",
    "phone": "+1 217 555 0100",
}
SAVED = {
    "full_name": "Jo Biker",
    "line1": "Hauptstraße 5",
    "city": "Berlin",
    "postcode": "10115",
    "country": "DE",
    "phone": "+49301234567",
}


@pytest.fixture
def part(db):
    return PartFactory(price=Decimal("50.00"), minimum_order_quantity=1, available_quantity=10)


@pytest.fixture
def filled(as_user, part):
    response = as_user.post("/api/cart", {"partId": part.pk, "quantity": 2}, format="json")
    assert response.status_code == 200
    return as_user


def stock(part) -> int:
    return Part.objects.values_list("available_quantity", flat=True).get(pk=part.pk)


def test_a_saved_address_ships_the_order_there(filled, user, settings):
    settings.PRICES_INCLUDE_TAX = False
    pricing_factories.tax_rate("DE", "19")
    express = pricing_factories.method("Express", bands=[(5000, "10.00")])
    home = address_create(owner=user, **SAVED)

    response = filled.post(
        "/api/checkout",
        {"addressId": home.pk, "shippingMethod": express.pk, "expectedTotal": "130.90"},
        format="json",
    )

    assert response.status_code == 201, response.content
    body = response.json()
    assert body["shipTo"] == {
        "fullName": "Jo Biker",
        "line1": "Hauptstraße 5",
        "line2": "",
        "city": "Berlin",
        "region": "",
        "postcode": "10115",
        "country": "DE",
        "phone": "+49301234567",
    }
    assert body["address"] == "Jo Biker, Hauptstraße 5, Berlin, 10115, Germany"
    assert body["phone"] == "+49301234567"
    assert (body["tax"], body["taxIncluded"], body["totalPrice"]) == (20.9, False, 130.9)


def test_the_order_keeps_its_copy_when_the_address_is_deleted(filled, user):
    home = address_create(owner=user, **SAVED)
    order_id = filled.post("/api/checkout", {"addressId": home.pk}, format="json").json()["_id"]

    address_delete(address=home)

    assert Booking.objects.get(pk=order_id).ship_to["city"] == "Berlin"


def test_another_accounts_address_is_a_400_on_address_id(filled, other_user, part):
    theirs = address_create(owner=other_user, **SAVED)

    response = filled.post("/api/checkout", {"addressId": theirs.pk}, format="json")

    assert (response.status_code, response.json()) == (
        400,
        {"addressId": ["There is no saved address with this id"]},
    )
    assert stock(part) == 10


@pytest.mark.parametrize("address_id", ["abc", 0, -1, 2**63])
def test_an_address_id_that_is_not_an_id_is_a_400(filled, address_id):
    response = filled.post("/api/checkout", {"addressId": address_id}, format="json")

    assert (response.status_code, list(response.json())) == (400, ["addressId"])


def test_a_new_address_ships_the_order_and_is_not_saved_unless_asked(filled, user):
    response = filled.post("/api/checkout", {"shipTo": SHIP_TO}, format="json")

    assert response.status_code == 201, response.content
    body = response.json()
    assert body["shipTo"]["postcode"] == "62701"
    assert body["address"] == (
        "Jane Rider, 1 Main St, Apt 2, Springfield, IL 62701, United States of America"
    )
    assert body["phone"] == "+12175550100"
    assert not Address.objects.exists()


def test_save_this_address_saves_it_with_the_order(filled, user):
    response = filled.post("/api/checkout", {"shipTo": SHIP_TO, "saveAddress": True}, format="json")

    assert response.status_code == 201
    saved = Address.objects.get(owner=user)
    assert (saved.full_name, saved.postcode, saved.is_default) == ("Jane Rider", "62701", True)


def test_a_full_address_book_refuses_saving_with_nothing_held(filled, user, part):
    for _ in range(MAX_ADDRESSES):
        address_create(owner=user, **SAVED)

    response = filled.post("/api/checkout", {"shipTo": SHIP_TO, "saveAddress": True}, format="json")

    assert response.status_code == 400
    assert list(response.json()) == ["saveAddress"]
    assert not Booking.objects.exists()
    assert stock(part) == 10


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"postcode": "ABCDE"}, "postcode"),  # not a US ZIP code
        ({"country": "XX"}, "country"),
        ({"fullName": ""}, "fullName"),
        ({"phone": "call me"}, "phone"),
        ({"line1": "x" * 201}, "line1"),
    ],
)
def test_a_new_address_with_a_bad_field_is_a_400_under_ship_to(filled, part, change, field):
    response = filled.post("/api/checkout", {"shipTo": {**SHIP_TO, **change}}, format="json")

    assert response.status_code == 400
    assert list(response.json()) == ["shipTo"]
    assert list(response.json()["shipTo"]) == [field]
    assert stock(part) == 10


def test_a_method_that_does_not_deliver_there_is_a_400_on_shipping_method(filled, user, part):
    us_only = pricing_factories.method("US only", countries=["US"])
    home = address_create(owner=user, **SAVED)

    response = filled.post(
        "/api/checkout", {"addressId": home.pk, "shippingMethod": us_only.pk}, format="json"
    )

    assert (response.status_code, response.json()) == (
        400,
        {"shippingMethod": ["This shipping method does not deliver to Germany."]},
    )
    assert stock(part) == 10


def test_without_any_ship_to_the_specs_fields_are_required(filled):
    response = filled.post("/api/checkout", {}, format="json")

    assert (response.status_code, response.json()) == (
        400,
        {"address": ["Address is required"], "phone": ["Phone is required"]},
    )
