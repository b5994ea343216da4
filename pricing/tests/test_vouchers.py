"""pricing.vouchers: the one check of a voucher, and its six messages word for word."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from accounts.tests.factories import UserFactory
from pricing import services
from pricing.tests import factories
from pricing.vouchers import VoucherRefused, voucher_check, voucher_find

pytestmark = pytest.mark.django_db

D = Decimal


def refusal(voucher, subtotal="100", **customer) -> str | None:
    try:
        voucher_check(voucher=voucher, subtotal=D(subtotal), **customer)
    except VoucherRefused as refused:
        return refused.message
    return None


def test_a_voucher_that_applies_is_returned():
    voucher = factories.voucher()

    assert voucher_check(voucher=voucher, subtotal=D("10")) == voucher


def test_an_unknown_code_is_not_valid():
    assert refusal(voucher_find("NOPE")) == "This code is not valid."


def test_a_switched_off_code_is_not_valid():
    assert refusal(factories.voucher(active=False)) == "This code is not valid."


def test_a_code_before_its_start_is_not_active_yet():
    voucher = factories.voucher(starts_at=timezone.now() + timedelta(hours=1))

    assert refusal(voucher) == "This code is not active yet."


def test_a_code_from_its_start_applies():
    start = timezone.now()
    voucher = factories.voucher(starts_at=start)

    assert voucher_check(voucher=voucher, subtotal=D("1"), at=start) == voucher


def test_a_code_at_or_after_its_end_has_expired():
    end = timezone.now()
    voucher = factories.voucher(ends_at=end)

    assert refusal(voucher) == "This code has expired."
    with pytest.raises(VoucherRefused):
        voucher_check(voucher=voucher, subtotal=D("1"), at=end)
    assert voucher_check(voucher=voucher, subtotal=D("1"), at=end - timedelta(seconds=1))


@pytest.mark.parametrize(
    ("minimum", "subtotal", "message"),
    [
        ("50", "35", "Spend $15.00 more to use this code."),
        ("50", "49.99", "Spend $0.01 more to use this code."),
        ("1500", "484.50", "Spend $1,015.50 more to use this code."),
        ("50", "50", None),
    ],
)
def test_a_minimum_says_how_much_more_to_spend(minimum, subtotal, message):
    voucher = factories.voucher(min_subtotal=D(minimum))

    assert refusal(voucher, subtotal) == message


def test_a_code_whose_uses_are_taken_is_used_up():
    voucher = factories.voucher(usage_limit=2)
    services.voucher_use(
        voucher_id=voucher.pk, user=None, email="a@example.com", order_id=1, subtotal=D("10")
    )

    assert refusal(voucher) is None
    services.voucher_use(
        voucher_id=voucher.pk, user=None, email="b@example.com", order_id=2, subtotal=D("10")
    )
    assert refusal(voucher) == "This code has been used up."


def test_once_per_customer_refuses_the_account_that_used_it():
    voucher = factories.voucher(once_per_customer=True)
    rider, other = UserFactory(), UserFactory()
    services.voucher_use(
        voucher_id=voucher.pk, user=rider, email=rider.email, order_id=1, subtotal=D("10")
    )

    assert refusal(voucher, user=rider) == "You have already used this code."
    assert refusal(voucher, user=other) is None


def test_once_per_customer_knows_a_guest_by_the_email_whatever_its_case():
    voucher = factories.voucher(once_per_customer=True)
    services.voucher_use(
        voucher_id=voucher.pk, user=None, email="Rider@Example.com", order_id=1, subtotal=D("1")
    )

    assert refusal(voucher, email=" rider@example.COM ") == "You have already used this code."
    assert refusal(voucher, email="someone@example.com") is None
    # An account of that address used it as a guest: the same customer.
    assert refusal(voucher, user=UserFactory(email="rider@example.com")) == (
        "You have already used this code."
    )


def test_without_once_per_customer_a_customer_may_use_it_again():
    voucher = factories.voucher()
    rider = UserFactory()
    services.voucher_use(
        voucher_id=voucher.pk, user=rider, email=rider.email, order_id=1, subtotal=D("10")
    )

    assert refusal(voucher, user=rider) is None


def test_a_code_is_found_whatever_its_case():
    voucher = factories.voucher("RIDE10")

    assert voucher_find("ride10") == voucher
    assert voucher_find(" Ride10 ") == voucher
    assert voucher_find("") is None
    assert voucher_find("X" * 200) is None
