"""pricing.admin: methods with their bands, rates and vouchers written through the services,
their rules said next to the field, and a voucher's uses shown, never typed in."""

from decimal import Decimal

import pytest

from accounts.services import user_make_admin
from accounts.tests.factories import UserFactory
from pricing import services
from pricing.models import ShippingMethod, TaxRate, Voucher, VoucherUse
from pricing.tests import factories

pytestmark = pytest.mark.django_db

D = Decimal
METHODS = "/admin/pricing/shippingmethod/"
RATES = "/admin/pricing/taxrate/"
VOUCHERS = "/admin/pricing/voucher/"


def method_form(bands=(), **changes) -> dict:
    data = {
        "name": "Express",
        "countries": ["US", "CA"],
        "free_over": "",
        "eta": "1–2 business days",
        "active": "on",
        "bands-TOTAL_FORMS": str(len(bands)),
        "bands-INITIAL_FORMS": "0",
        "bands-MIN_NUM_FORMS": "0",
        "bands-MAX_NUM_FORMS": "1000",
    }
    for index, (grams, price) in enumerate(bands):
        data[f"bands-{index}-up_to_grams"] = str(grams)
        data[f"bands-{index}-price"] = str(price)
    data.update(changes)
    return {key: value for key, value in data.items() if value is not None}


def voucher_form(**changes) -> dict:
    data = {
        "code": "ride10",
        "kind": "percent",
        "value": "10",
        "min_subtotal": "0",
        "usage_limit": "",
        "active": "on",
        "uses-TOTAL_FORMS": "0",
        "uses-INITIAL_FORMS": "0",
        "uses-MIN_NUM_FORMS": "0",
        "uses-MAX_NUM_FORMS": "0",
    }
    data.update(changes)
    return data


def test_a_method_is_added_with_its_bands(staff_client):
    response = staff_client.post(
        f"{METHODS}add/", method_form(bands=[(2000, "6.95"), (10000, "12.95")])
    )

    assert response.status_code == 302
    method = ShippingMethod.objects.get()
    assert method.is_default  # the first method
    assert [c.code for c in method.countries] == ["CA", "US"]
    assert [(b.up_to_grams, b.price) for b in method.bands.all()] == [
        (2000, D("6.95")),
        (10000, D("12.95")),
    ]


def test_a_method_s_bands_are_changed(staff_client):
    method = factories.method("Express", bands=[(2000, "6.95")])
    band = method.bands.get()
    data = method_form(
        **{
            "bands-TOTAL_FORMS": "2",
            "bands-INITIAL_FORMS": "1",
            "bands-0-id": str(band.pk),
            "bands-0-method": str(method.pk),
            "bands-0-up_to_grams": "2000",
            "bands-0-price": "6.95",
            "bands-0-DELETE": "on",
            "bands-1-up_to_grams": "5000",
            "bands-1-price": "9.00",
            "is_default": "on",
        }
    )

    response = staff_client.post(f"{METHODS}{method.pk}/change/", data)

    assert response.status_code == 302
    assert [(b.up_to_grams, b.price) for b in method.bands.all()] == [(5000, D("9.00"))]


def test_the_rules_of_the_default_are_said_on_the_form(staff_client):
    standard = factories.method("Standard")
    factories.method("Express")

    response = staff_client.post(f"{METHODS}{standard.pk}/change/", method_form(name="Standard"))

    assert response.status_code == 200
    assert response.context["adminform"].form.errors["is_default"] == [services.ONE_DEFAULT]
    standard.refresh_from_db()
    assert standard.is_default


def test_a_weight_twice_is_said_on_the_bands(staff_client):
    response = staff_client.post(f"{METHODS}add/", method_form(bands=[(2000, "1"), (2000, "2")]))

    assert response.status_code == 200
    assert not ShippingMethod.objects.exists()


def test_the_default_is_not_deleted_while_other_methods_exist(staff_client):
    standard = factories.method("Standard")
    factories.method("Express")

    staff_client.post(f"{METHODS}{standard.pk}/delete/", {"post": "yes"})

    assert ShippingMethod.objects.filter(pk=standard.pk).exists()


def test_rates_are_added_and_kept_one_per_country_and_region(staff_client):
    data = {"country": "US", "region": " CA ", "name": "Sales tax", "rate": "7.25"}

    added = staff_client.post(f"{RATES}add/", data)
    again = staff_client.post(f"{RATES}add/", {**data, "region": "ca"})

    assert added.status_code == 302
    assert again.status_code == 200
    assert services.RATE_TAKEN in again.content.decode()
    assert list(TaxRate.objects.values_list("region", "rate")) == [("CA", D("7.25"))]


def test_a_voucher_is_added_in_capitals_and_its_rules_are_said(staff_client):
    added = staff_client.post(f"{VOUCHERS}add/", voucher_form())
    taken = staff_client.post(f"{VOUCHERS}add/", voucher_form(code="Ride10"))
    too_much = staff_client.post(f"{VOUCHERS}add/", voucher_form(code="HALF", value="150"))

    assert added.status_code == 302
    assert list(Voucher.objects.values_list("code", flat=True)) == ["RIDE10"]
    assert taken.context["adminform"].form.errors["code"] == [services.CODE_TAKEN]
    assert too_much.context["adminform"].form.errors["value"] == [services.PERCENT_RANGE]


def test_a_voucher_shows_its_uses_and_can_be_switched_off(staff_client):
    voucher = factories.voucher("RIDE10")
    services.voucher_use(
        voucher_id=voucher.pk, user=None, email="rider@example.com", order_id=42, subtotal=D("1")
    )

    page = staff_client.get(f"{VOUCHERS}{voucher.pk}/change/").content.decode()
    listed = staff_client.get(VOUCHERS).content.decode()
    staff_client.post(VOUCHERS, {"action": "switch_off", "_selected_action": [voucher.pk]})

    assert "rider@example.com" in page and "42" in page
    assert 'class="field-uses">1<' in listed
    voucher.refresh_from_db()
    assert voucher.active is False
    assert VoucherUse.objects.count() == 1


def test_shop_admins_keep_the_shipping_tax_and_vouchers(client):
    owner = UserFactory()
    user_make_admin(user=owner)
    owner.is_staff = True
    owner.save()
    client.force_login(owner)

    for page in (METHODS, RATES, VOUCHERS, f"{VOUCHERS}add/"):
        assert client.get(page).status_code == 200, page
