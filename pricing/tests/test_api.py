"""pricing.api: the owner's shipping methods, tax rates and vouchers; shapes, 400 per field
(named as in the payload), and the services' rules through the API. Who may call what:
tests/test_authorization_matrix.py."""

from decimal import Decimal

import pytest

from pricing import serializers as rules
from pricing import services
from pricing.models import ShippingMethod, TaxRate, Voucher
from pricing.tests import factories

pytestmark = pytest.mark.django_db

D = Decimal
EXPRESS = {
    "name": "Express",
    "countries": ["us", "CA"],
    "bands": [{"upToGrams": 10000, "price": "12.95"}, {"upToGrams": 2000, "price": 6.95}],
    "freeOver": "150",
    "eta": "1–2 business days",
    "active": True,
    "isDefault": False,
}


# --- Shipping methods ---------------------------------------------------------------------


def test_a_method_is_added_with_its_bands_and_answered_in_the_payload_s_shape(as_admin):
    response = as_admin.post("/api/shipping-methods", EXPRESS, format="json")

    assert response.status_code == 201
    body = response.json()
    method = ShippingMethod.objects.get()
    assert body == {
        "_id": method.pk,
        "name": "Express",
        "countries": ["CA", "US"],
        "bands": [{"upToGrams": 2000, "price": 6.95}, {"upToGrams": 10000, "price": 12.95}],
        "freeOver": 150.0,
        "eta": "1–2 business days",
        "active": True,
        "isDefault": True,  # the first method is the default
    }


def test_a_method_needs_only_a_name(as_admin):
    body = as_admin.post("/api/shipping-methods", {"name": "Pickup"}, format="json").json()

    assert (body["countries"], body["bands"], body["freeOver"], body["eta"]) == ([], [], None, "")
    assert body["active"] is True


def test_a_put_replaces_the_method(as_admin):
    method = factories.method("Standard", bands=[(1000, "3")], eta="5 days")

    response = as_admin.put(
        f"/api/shipping-methods/{method.pk}", {**EXPRESS, "isDefault": True}, format="json"
    )

    assert response.status_code == 200
    assert response.json()["name"] == "Express"
    assert [b["upToGrams"] for b in response.json()["bands"]] == [2000, 10000]


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("name", "", rules.NAME_REQUIRED),
        ("countries", "US", rules.COUNTRIES_LIST),
        ("bands", {"upToGrams": 1}, rules.BANDS_LIST),
        ("freeOver", "-1", rules.MONEY_RULE),
        ("freeOver", "1.234", rules.MONEY_RULE),
        ("freeOver", "lots", rules.MONEY_RULE),
    ],
)
def test_a_bad_method_field_is_a_400_on_it(as_admin, field, value, message):
    response = as_admin.post("/api/shipping-methods", {**EXPRESS, field: value}, format="json")

    assert response.status_code == 400
    assert response.json() == {field: [message]}
    assert not ShippingMethod.objects.exists()


def test_a_bad_country_or_band_is_a_400_on_that_item(as_admin):
    countries = as_admin.post(
        "/api/shipping-methods", {**EXPRESS, "countries": ["US", "XX"]}, format="json"
    )
    bands = as_admin.post(
        "/api/shipping-methods",
        {**EXPRESS, "bands": [{"upToGrams": 0, "price": "1"}, {"upToGrams": 5, "price": "-2"}]},
        format="json",
    )

    assert countries.json() == {"countries": [f"Country 2: {rules.COUNTRY_UNKNOWN}"]}
    assert bands.json() == {"bands": [f"Band 1: {rules.GRAMS_RULE}", f"Band 2: {rules.MONEY_RULE}"]}


def test_the_services_rules_are_400s_on_the_payload_s_fields(as_admin):
    standard = factories.method("Standard")
    factories.method("Express")
    url = f"/api/shipping-methods/{standard.pk}"
    twice = [{"upToGrams": 5, "price": "1"}, {"upToGrams": 5, "price": "2"}]

    not_default = as_admin.put(url, {"name": "Standard", "isDefault": False}, format="json")
    off = as_admin.put(url, {"name": "Standard", "isDefault": True, "active": False}, format="json")
    repeated = as_admin.put(
        url, {"name": "Standard", "isDefault": True, "bands": twice}, format="json"
    )
    deleted = as_admin.delete(url)

    assert not_default.json() == {"isDefault": [services.ONE_DEFAULT]}
    assert off.json() == {"active": [services.DEFAULT_ACTIVE]}
    assert repeated.json() == {"bands": [services.BANDS_REPEAT.format(grams=5)]}
    assert (deleted.status_code, deleted.json()) == (
        400,
        {"non_field_errors": [services.DEFAULT_DELETE]},
    )


def test_a_method_is_deleted(as_admin):
    factories.method("Standard")
    express = factories.method("Express", bands=[(1000, "9")])

    response = as_admin.delete(f"/api/shipping-methods/{express.pk}/")

    assert response.json() == {"deletedCount": 1}
    assert list(ShippingMethod.objects.values_list("name", flat=True)) == ["Standard"]
    assert as_admin.delete(f"/api/shipping-methods/{express.pk}").status_code == 404


# --- Tax rates ----------------------------------------------------------------------------


def test_rates_are_added_listed_changed_and_deleted(as_admin):
    added = as_admin.post(
        "/api/tax-rates",
        {"country": "us", "region": "CA", "name": "Sales tax", "rate": "7.250"},
        format="json",
    )
    rate = TaxRate.objects.get()
    changed = as_admin.put(
        f"/api/tax-rates/{rate.pk}",
        {"country": "US", "name": "Sales tax", "rate": 8},
        format="json",
    )
    listed = as_admin.get("/api/tax-rates").json()
    deleted = as_admin.delete(f"/api/tax-rates/{rate.pk}")

    assert added.status_code == 201
    assert added.json() == {
        "_id": rate.pk,
        "country": "US",
        "region": "CA",
        "name": "Sales tax",
        "rate": 7.25,
    }
    assert changed.json()["region"] == ""
    assert listed == [
        {"_id": rate.pk, "country": "US", "region": "", "name": "Sales tax", "rate": 8}
    ]
    assert deleted.json() == {"deletedCount": 1}
    assert not TaxRate.objects.exists()


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("country", "XX", rules.COUNTRY_UNKNOWN),
        ("country", "USA", rules.COUNTRY_UNKNOWN),
        ("country", "", rules.COUNTRY_UNKNOWN),
        ("name", "", rules.NAME_REQUIRED),
        ("rate", "100.001", rules.RATE_RULE),
        ("rate", "-1", rules.RATE_RULE),
        ("rate", "7.2505", rules.RATE_RULE),
        ("rate", "seven", rules.RATE_RULE),
        ("rate", None, rules.RATE_RULE),
    ],
)
def test_a_bad_rate_field_is_a_400_on_it(as_admin, field, value, message):
    payload = {"country": "DE", "name": "VAT", "rate": "19", field: value}

    response = as_admin.post("/api/tax-rates", payload, format="json")

    assert response.status_code == 400
    assert response.json() == {field: [message]}


def test_a_second_rate_for_a_country_and_region_is_a_400_on_region(as_admin):
    factories.tax_rate("DE", "19")

    response = as_admin.post(
        "/api/tax-rates", {"country": "DE", "name": "VAT", "rate": "7"}, format="json"
    )

    assert response.json() == {"region": [services.RATE_TAKEN]}


# --- Vouchers -----------------------------------------------------------------------------


def test_vouchers_are_listed_with_their_uses(as_admin):
    ride10 = factories.voucher("RIDE10", usage_limit=100)
    factories.voucher("FREESHIP", "shipping", "0")
    for order_id in (1, 2):
        services.voucher_use(
            voucher_id=ride10.pk, user=None, email="", order_id=order_id, subtotal=D("10")
        )

    body = as_admin.get("/api/vouchers").json()

    assert [(v["code"], v["uses"]) for v in body] == [("FREESHIP", 0), ("RIDE10", 2)]
    assert set(body[1]) == {
        "_id",
        "code",
        "kind",
        "value",
        "minSubtotal",
        "startsAt",
        "endsAt",
        "usageLimit",
        "oncePerCustomer",
        "active",
        "uses",
    }


def test_a_voucher_is_added_changed_and_deleted(as_admin):
    added = as_admin.post(
        "/api/vouchers",
        {
            "code": "summer-25",
            "kind": "fixed",
            "value": "25",
            "minSubtotal": "100",
            "startsAt": "2026-06-01T00:00:00Z",
            "endsAt": "2026-09-01T00:00:00Z",
            "usageLimit": "500",
            "oncePerCustomer": True,
        },
        format="json",
    )
    voucher = Voucher.objects.get()
    changed = as_admin.put(
        f"/api/vouchers/{voucher.pk}",
        {"code": "SUMMER-25", "kind": "percent", "value": 15},
        format="json",
    )
    deleted = as_admin.delete(f"/api/vouchers/{voucher.pk}")

    assert added.status_code == 201
    assert added.json() == {
        "_id": voucher.pk,
        "code": "SUMMER-25",
        "kind": "fixed",
        "value": 25.0,
        "minSubtotal": 100.0,
        "startsAt": "2026-06-01T00:00:00Z",
        "endsAt": "2026-09-01T00:00:00Z",
        "usageLimit": 500,
        "oncePerCustomer": True,
        "active": True,
        "uses": 0,
    }
    assert changed.status_code == 200
    assert (changed.json()["kind"], changed.json()["endsAt"]) == ("percent", None)
    assert deleted.json() == {"deletedCount": 1}
    assert not Voucher.objects.exists()


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("code", "AB", rules.CODE_RULE),
        ("code", "RIDE 10", rules.CODE_RULE),
        ("code", "X" * 33, rules.CODE_RULE),
        ("code", "", rules.CODE_RULE),
        ("kind", "gift", rules.KIND_RULE),
        ("value", "-5", rules.MONEY_RULE),
        ("minSubtotal", "1.001", rules.MONEY_RULE),
        ("startsAt", "tomorrow", rules.DATE_RULE),
        ("usageLimit", 0, rules.USES_RULE),
        ("usageLimit", "many", rules.USES_RULE),
        ("value", "150", services.PERCENT_RANGE),
    ],
)
def test_a_bad_voucher_field_is_a_400_on_it(as_admin, field, value, message):
    payload = {"code": "RIDE10", "kind": "percent", "value": "10", field: value}

    response = as_admin.post("/api/vouchers", payload, format="json")

    assert response.status_code == 400
    assert response.json() == {field: [message]}
    assert not Voucher.objects.exists()


def test_voucher_rules_across_fields_and_rows_are_400s_on_the_payload_s_fields(as_admin):
    factories.voucher("RIDE10")

    taken = as_admin.post("/api/vouchers", {"code": "ride10", "kind": "shipping"}, format="json")
    backwards = as_admin.post(
        "/api/vouchers",
        {
            "code": "LATE",
            "kind": "shipping",
            "startsAt": "2026-06-01T00:00:00Z",
            "endsAt": "2026-05-01T00:00:00Z",
        },
        format="json",
    )

    assert taken.json() == {"code": [services.CODE_TAKEN]}
    assert backwards.json() == {"endsAt": [services.ENDS_BEFORE]}


def test_unknown_ids_are_404(as_admin):
    for path in ("shipping-methods", "tax-rates", "vouchers"):
        assert as_admin.put(f"/api/{path}/999999", {}, format="json").status_code == 404
        assert as_admin.delete(f"/api/{path}/999999").status_code == 404
