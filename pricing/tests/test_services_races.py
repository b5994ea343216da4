"""pricing.services under real concurrency: the last use of a voucher, raced by several
shoppers, goes to exactly one (the voucher's row lock on PostgreSQL; on SQLite, whose writes
take the database's one write lock at the start of each transaction, too)."""

import threading
from decimal import Decimal

import pytest
from django.db import connections

from accounts.tests.factories import UserFactory
from pricing import services
from pricing.models import VoucherUse
from pricing.tests import factories
from pricing.vouchers import USED_UP, VoucherRefused

pytestmark = pytest.mark.django_db(transaction=True)

SHOPPERS = 6


def race(*actions):
    """Run `actions` at once (a barrier releases them together); their results or errors."""
    start = threading.Barrier(len(actions))
    results = [None] * len(actions)

    def run(index, action):
        try:
            start.wait()
            results[index] = action()
        except Exception as exc:
            results[index] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i, a)) for i, a in enumerate(actions)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


@pytest.mark.parametrize("round_", range(3))
def test_the_last_use_goes_to_exactly_one_shopper(round_):
    voucher = factories.voucher(usage_limit=3)
    for order_id in (1, 2):
        services.voucher_use(
            voucher_id=voucher.pk, user=None, email="", order_id=order_id, subtotal=Decimal("9")
        )
    shoppers = [UserFactory() for _ in range(SHOPPERS)]

    def use(index):
        return lambda: services.voucher_use(
            voucher_id=voucher.pk,
            user=shoppers[index],
            email=shoppers[index].email,
            order_id=100 + index,
            subtotal=Decimal("9"),
        )

    results = race(*(use(i) for i in range(SHOPPERS)))

    won = [r for r in results if isinstance(r, VoucherUse)]
    refused = [r for r in results if isinstance(r, VoucherRefused)]
    assert len(won) == 1
    assert len(refused) == SHOPPERS - 1
    assert {r.message for r in refused} == {USED_UP}
    assert VoucherUse.objects.filter(voucher=voucher).count() == 3


def test_once_per_customer_holds_for_one_customer_racing_themself():
    voucher = factories.voucher(once_per_customer=True)
    rider = UserFactory()

    def use(order_id):
        return lambda: services.voucher_use(
            voucher_id=voucher.pk, user=rider, email=rider.email, order_id=order_id, subtotal=1
        )

    results = race(*(use(i) for i in range(1, SHOPPERS + 1)))

    assert sum(isinstance(r, VoucherUse) for r in results) == 1
    assert VoucherUse.objects.filter(voucher=voucher, user=rider).count() == 1
