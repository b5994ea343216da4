"""pricing.services: one default method, bands, unique rates and codes, voucher rules, and a
voucher's uses counted and given back."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from pricing import services
from pricing.models import ShippingMethod, TaxRate, Voucher, VoucherUse
from pricing.tests import factories
from pricing.vouchers import VoucherRefused

pytestmark = pytest.mark.django_db

D = Decimal


def messages(error: ValidationError) -> dict:
    return error.value.message_dict if hasattr(error.value, "error_dict") else error.value.messages


def test_the_first_method_is_the_default():
    method = factories.method("Standard", is_default=False)

    assert method.is_default


def test_making_another_method_the_default_takes_it_over():
    standard = factories.method("Standard")
    express = factories.method("Express", is_default=True)

    standard.refresh_from_db()
    assert express.is_default and not standard.is_default
    assert ShippingMethod.objects.filter(is_default=True).count() == 1


def test_the_default_cannot_stop_being_it_but_by_another_taking_over():
    standard = factories.method("Standard")
    factories.method("Express")

    with pytest.raises(ValidationError) as error:
        services.shipping_method_update(method=standard, name="Standard", is_default=False)

    assert messages(error) == {"is_default": [services.ONE_DEFAULT]}


def test_the_default_cannot_be_switched_off():
    factories.method("Standard")

    with pytest.raises(ValidationError) as error:
        factories.method("Express", is_default=True, active=False)

    assert messages(error) == {"active": [services.DEFAULT_ACTIVE]}


def test_the_database_allows_one_default_at_most():
    factories.method("Standard")

    with pytest.raises(IntegrityError), transaction.atomic():
        ShippingMethod.objects.create(name="Express", is_default=True)


def test_an_update_sets_every_field_and_replaces_the_bands():
    method = factories.method("Standard", bands=[(1000, "3")])

    services.shipping_method_update(
        method=method,
        name="Ground",
        bands=[(5000, D("9")), (2000, D("6"))],
        countries=["US", "CA", "US"],
        free_over=D("75"),
        eta="5 days",
        is_default=True,
    )

    method = ShippingMethod.objects.get(pk=method.pk)
    assert method.name == "Ground"
    assert [c.code for c in method.countries] == ["CA", "US"]
    assert [(b.up_to_grams, b.price) for b in method.bands.all()] == [
        (2000, D("6")),
        (5000, D("9")),
    ]
    assert (method.free_over, method.eta) == (D("75"), "5 days")


def test_a_weight_twice_in_the_bands_is_refused():
    with pytest.raises(ValidationError) as error:
        factories.method(bands=[(2000, "3"), (2000, "4")])

    assert messages(error) == {"bands": [services.BANDS_REPEAT.format(grams=2000)]}
    assert not ShippingMethod.objects.exists()


def test_the_default_is_deleted_only_as_the_last_method():
    standard = factories.method("Standard")
    express = factories.method("Express")

    with pytest.raises(ValidationError):
        services.shipping_method_delete(method=standard)
    services.shipping_method_delete(method=express)
    services.shipping_method_delete(method=standard)

    assert not ShippingMethod.objects.exists()


def test_one_rate_per_country_and_region():
    factories.tax_rate("US", "7.25", region="CA")
    factories.tax_rate("US", "0")

    with pytest.raises(ValidationError) as error:
        factories.tax_rate("US", "8", region="ca")

    assert messages(error) == {"region": [services.RATE_TAKEN]}
    assert TaxRate.objects.count() == 2


def test_the_database_keeps_one_rate_per_country_and_region_whatever_its_case():
    factories.tax_rate("US", "7.25", region="CA")

    with pytest.raises(IntegrityError), transaction.atomic():
        TaxRate.objects.create(country="US", region="ca", name="Sales tax", rate=8)


def test_a_rate_is_updated_and_deleted():
    rate = factories.tax_rate("DE", "19")

    services.tax_rate_update(tax_rate=rate, country="AT", name="USt", rate=D("20"), region="")
    rate.refresh_from_db()
    assert (rate.country.code, rate.name, rate.rate) == ("AT", "USt", D("20"))
    services.tax_rate_delete(tax_rate=rate)
    assert not TaxRate.objects.exists()


def test_a_code_is_kept_in_capitals_and_unique_whatever_its_case():
    voucher = factories.voucher(" ride10 ")

    assert voucher.code == "RIDE10"
    with pytest.raises(ValidationError) as error:
        factories.voucher("Ride10")
    assert messages(error) == {"code": [services.CODE_TAKEN]}


def test_the_database_keeps_codes_unique_whatever_their_case():
    factories.voucher("RIDE10")

    with pytest.raises(IntegrityError), transaction.atomic():
        Voucher.objects.create(code="ride10", kind="percent", value=10)


@pytest.mark.parametrize(
    ("kind", "value", "message"),
    [
        ("percent", "0", services.PERCENT_RANGE),
        ("percent", "100.01", services.PERCENT_RANGE),
        ("fixed", "0", services.FIXED_POSITIVE),
    ],
)
def test_a_voucher_value_out_of_range_is_refused(kind, value, message):
    with pytest.raises(ValidationError) as error:
        factories.voucher("CODE", kind, value)

    assert messages(error) == {"value": [message]}


def test_a_shipping_voucher_keeps_no_value():
    assert factories.voucher("FREESHIP", "shipping", "12").value == 0


def test_a_voucher_ends_after_it_starts():
    now = timezone.now()

    with pytest.raises(ValidationError) as error:
        factories.voucher(starts_at=now, ends_at=now - timedelta(days=1))

    assert messages(error) == {"ends_at": [services.ENDS_BEFORE]}


def test_a_voucher_is_updated_and_deleted_with_its_uses():
    voucher = factories.voucher()
    services.voucher_use(voucher_id=voucher.pk, user=None, email="", order_id=9, subtotal=D("1"))

    services.voucher_update(voucher=voucher, code="ride15", kind="percent", value=D("15"))
    voucher.refresh_from_db()
    assert (voucher.code, voucher.value) == ("RIDE15", D("15"))
    services.voucher_delete(voucher=voucher)
    assert not VoucherUse.objects.exists()


def test_a_use_is_counted_for_its_order_and_customer(user):
    voucher = factories.voucher()

    use = services.voucher_use(
        voucher_id=voucher.pk, user=user, email=" Me@Example.com", order_id=7, subtotal=D("10")
    )

    assert (use.voucher, use.user, use.email, use.order_id) == (
        voucher,
        user,
        "me@example.com",
        7,
    )


def test_a_use_is_refused_with_the_reason_when_the_voucher_no_longer_applies():
    voucher = factories.voucher(usage_limit=1)
    services.voucher_use(voucher_id=voucher.pk, user=None, email="", order_id=1, subtotal=D("1"))

    with pytest.raises(VoucherRefused) as refused:
        services.voucher_use(
            voucher_id=voucher.pk, user=None, email="", order_id=2, subtotal=D("1")
        )

    assert refused.value.message == "This code has been used up."
    assert VoucherUse.objects.count() == 1


def test_a_deleted_voucher_is_not_valid_at_use():
    voucher = factories.voucher()
    services.voucher_delete(voucher=voucher)

    with pytest.raises(VoucherRefused) as refused:
        services.voucher_use(
            voucher_id=voucher.pk, user=None, email="", order_id=2, subtotal=D("1")
        )

    assert refused.value.message == "This code is not valid."


def test_a_use_given_back_makes_room_again():
    voucher = factories.voucher(usage_limit=1)
    services.voucher_use(voucher_id=voucher.pk, user=None, email="", order_id=1, subtotal=D("1"))

    assert services.voucher_give_back(order_ids=[1]) == 1
    assert services.voucher_give_back(order_ids=[1]) == 0
    services.voucher_use(voucher_id=voucher.pk, user=None, email="", order_id=2, subtotal=D("1"))
    assert list(VoucherUse.objects.values_list("order_id", flat=True)) == [2]
