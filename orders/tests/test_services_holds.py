"""Fair holds: one account, and the accounts seen from one client address together, may hold
unpaid at most MAX_HELD_SHARE of a part's stock, and deleting an order and ordering again never
renews a hold."""

import os
import subprocess
import sys
import time
from datetime import datetime, timedelta
from decimal import Decimal
from io import StringIO
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.utils import timezone

from accounts.tests.factories import UserFactory
from catalog.models import Part
from catalog.stock import stock_adjust
from catalog.tests.factories import PartFactory
from conftest import bearer_client
from orders import services
from orders.models import Booking, HoldDeadline
from orders.services import QUANTITY_BELOW_MINIMUM

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


def order(part, quantity):
    return {"partId": part.pk, "quantity": quantity, "address": "1 Road", "phone": "12345"}


def place(user, part, quantity) -> Booking:
    fresh = Part.objects.get(pk=part.pk)  # the shopper's view: the stock as it is now
    return services.booking_place(
        user=user, part=fresh, quantity=quantity, address="1 Road", phone="12345"
    )


def refused_with(user, part, quantity) -> str:
    """The quantity message of an order that is refused."""
    with pytest.raises(ValidationError) as refused:
        place(user, part, quantity)
    return refused.value.message_dict["quantity"][0]


def stock(part) -> int:
    return Part.objects.get(pk=part.pk).available_quantity


def at_most(limit: int) -> str:
    """The refusal, word for word."""
    units = "unit" if limit == 1 else "units"
    return f"You can hold at most {limit} {units} of this part until you pay."


def expires_at(body: dict) -> datetime:
    return datetime.fromisoformat(body["expiresAt"])


class TestShare:
    def test_one_order_cannot_take_all_17_units(self, as_user, as_other, db):
        part = PartFactory(price=Decimal("10.00"), minimum_order_quantity=1, available_quantity=17)

        response = as_user.post("/api/booking", order(part, 17), format="json")

        assert response.status_code == 400
        assert response.json() == {
            "quantity": ["You can hold at most 8 units of this part until you pay."]
        }
        assert stock(part) == 17
        assert not Booking.objects.exists()
        assert as_user.post("/api/booking", order(part, 8), format="json").status_code == 201
        # The next shopper is not told "Only 0 units are available".
        assert as_other.post("/api/booking", order(part, 4), format="json").status_code == 201
        assert stock(part) == 5

    @pytest.mark.parametrize(
        ("available", "minimum", "limit"),
        [
            (17, 1, 8),  # half, rounded down
            (10, 1, 5),
            (3, 1, 1),
            (1, 1, 1),  # never below the minimum order quantity ...
            (10, 4, 5),
            (6, 4, 4),  # ... half would be 3
            (5, 5, 5),  # a part sold as one lot: one order may hold all of it
            (1000, 1, 500),
        ],
    )
    def test_one_account_holds_at_most_half_rounded_down_never_below_the_minimum(
        self, user, available, minimum, limit
    ):
        part = PartFactory(minimum_order_quantity=minimum, available_quantity=available)
        if limit < available:
            assert refused_with(user, part, limit + 1) == at_most(limit)
        place(user, part, limit)
        assert stock(part) == available - limit

    @pytest.mark.parametrize(
        ("share", "available", "limit"), [(0.3, 10, 3), (0.29, 100, 29), (1, 17, 17)]
    )
    def test_the_share_is_max_held_share(self, settings, user, share, available, limit):
        settings.MAX_HELD_SHARE = share
        part = PartFactory(minimum_order_quantity=1, available_quantity=available)
        if limit < available:
            assert refused_with(user, part, limit + 1) == at_most(limit)
        place(user, part, limit)

    def test_what_the_account_already_holds_counts(self, user):
        part = PartFactory(minimum_order_quantity=1, available_quantity=17)
        place(user, part, 5)  # 12 on the shelf + 5 held: at most 8
        assert refused_with(user, part, 4) == at_most(8)
        place(user, part, 3)
        assert refused_with(user, part, 1) == at_most(8)
        assert stock(part) == 9

    def test_each_account_has_its_own_share(self, user, other_user):
        part = PartFactory(minimum_order_quantity=1, available_quantity=16)
        place(user, part, 8)
        assert refused_with(other_user, part, 5) == at_most(4)  # half of the 8 left
        place(other_user, part, 4)

    def test_a_paid_order_holds_nothing(self, user):
        part = PartFactory(minimum_order_quantity=1, available_quantity=20)
        first = place(user, part, 10)
        assert refused_with(user, part, 1) == at_most(10)
        assert services.booking_mark_paid(booking_id=first.pk, transaction_id="pi_paid")
        place(user, part, 5)  # 10 on the shelf, nothing held: at most 5
        assert refused_with(user, part, 1) == at_most(5)

    def test_deleted_and_lapsed_orders_hold_nothing(self, user, as_user):
        part = PartFactory(minimum_order_quantity=1, available_quantity=10)
        deleted = place(user, part, 5)
        assert as_user.delete(f"/api/booking/{deleted.pk}").status_code == 200
        lapsed = place(user, part, 5)
        Booking.objects.filter(pk=lapsed.pk).update(
            expires_at=timezone.now() - timedelta(seconds=1)
        )
        place(user, part, 5)
        assert stock(part) == 5

    def test_restocking_raises_the_share(self, user, admin_user):
        part = PartFactory(minimum_order_quantity=1, available_quantity=10)
        place(user, part, 5)
        assert refused_with(user, part, 1) == at_most(5)
        stock_adjust(part=part, change=10, note="received", by=admin_user)
        place(user, part, 5)  # 15 on the shelf + 5 held: at most 10

    def test_the_bounds_keep_their_messages_first(self, as_user, db):
        part = PartFactory(minimum_order_quantity=2, available_quantity=17)
        too_few = as_user.post("/api/booking", order(part, 1), format="json")
        assert too_few.json() == {"quantity": [QUANTITY_BELOW_MINIMUM.format(minimum=2)]}
        too_many = as_user.post("/api/booking", order(part, 18), format="json")
        assert too_many.json() == {"quantity": ["Only 17 units are available"]}
        assert stock(part) == 17


ONE_ADDRESS = "203.0.113.7"
WHERE = {"address": "1 Road", "phone": "12345"}


class TestShareOfOneAddress:
    """The accounts seen from one client address share one share of a part (API.md, "Fair
    holds"): an audit found three free accounts holding 10 of a part's 12 units for 30 minutes."""

    @pytest.fixture
    def part(self, db):
        return PartFactory(price=Decimal("10.00"), minimum_order_quantity=1, available_quantity=12)

    @pytest.fixture
    def accounts(self, db):
        return [UserFactory() for _ in range(3)]

    def test_three_accounts_from_one_address_hold_at_most_one_share_of_12_units(
        self, part, accounts
    ):
        clients = [bearer_client(user, ONE_ADDRESS) for user in accounts]

        answers = [
            client.post("/api/booking", order(part, quantity), format="json")
            for client, quantity in zip(clients, (6, 3, 1), strict=True)
        ]

        assert [answer.status_code for answer in answers] == [201, 400, 400]
        assert answers[1].json() == {"quantity": [at_most(6)]}
        assert answers[2].json() == {"quantity": [at_most(6)]}
        assert stock(part) == 6  # 6 of 12 held, not 10

    def test_accounts_from_addresses_of_their_own_keep_shares_of_their_own(self, part, accounts):
        clients = [bearer_client(user) for user in accounts]  # each from its own address

        answers = [
            client.post("/api/booking", order(part, quantity), format="json")
            for client, quantity in zip(clients, (6, 3, 1), strict=True)
        ]

        assert [answer.status_code for answer in answers] == [201, 201, 201]
        assert stock(part) == 2

    def test_the_order_keeps_the_address_it_was_placed_from(self, part, accounts):
        response = bearer_client(accounts[0], ONE_ADDRESS).post(
            "/api/booking", order(part, 2), format="json"
        )
        assert Booking.objects.get(pk=response.json()["_id"]).client_address == ONE_ADDRESS

    def test_a_checkout_counts_and_keeps_the_address_too(self, part, accounts):
        first, second = (bearer_client(user, ONE_ADDRESS) for user in accounts[:2])
        assert first.post("/api/booking", order(part, 5), format="json").status_code == 201
        second.post("/api/cart", {"partId": part.pk, "quantity": 2}, format="json")

        refused = second.post("/api/checkout", WHERE, format="json")

        assert refused.status_code == 409
        assert refused.json() == {"detail": f"{part.name}: {at_most(6)}", "partId": part.pk}
        second.put(f"/api/cart/{part.pk}", {"quantity": 1}, format="json")
        placed = second.post("/api/checkout", WHERE, format="json")
        assert placed.status_code == 201
        assert Booking.objects.get(pk=placed.json()["_id"]).client_address == ONE_ADDRESS

    def test_what_the_address_paid_for_holds_nothing(self, part, accounts):
        first, second = (bearer_client(user, ONE_ADDRESS) for user in accounts[:2])
        paid = first.post("/api/booking", order(part, 6), format="json").json()
        assert services.booking_mark_paid(booking_id=paid["_id"], transaction_id="pi_paid")

        # 6 on the shelf, nothing held: at most 3.
        assert second.post("/api/booking", order(part, 3), format="json").status_code == 201

    def test_an_account_counts_its_own_holds_from_any_address(self, part, accounts):
        user = accounts[0]
        assert (
            bearer_client(user, ONE_ADDRESS)
            .post("/api/booking", order(part, 6), format="json")
            .status_code
            == 201
        )
        elsewhere = bearer_client(user, "198.51.100.9")
        refused = elsewhere.post("/api/booking", order(part, 1), format="json")
        assert refused.json() == {"quantity": [at_most(6)]}

    def test_a_share_of_one_lets_one_address_hold_everything(self, settings, part, accounts):
        settings.MAX_HELD_SHARE = 1
        clients = [bearer_client(user, ONE_ADDRESS) for user in accounts]
        for client, quantity in zip(clients, (6, 3, 3), strict=True):
            assert (
                client.post("/api/booking", order(part, quantity), format="json").status_code == 201
            )
        assert stock(part) == 0


class TestDeadline:
    def test_delete_and_order_again_keeps_the_expiry(self, settings, as_user, db):
        settings.ORDER_HOLD_SECONDS = 600
        part = PartFactory(minimum_order_quantity=1, available_quantity=10)
        first = as_user.post("/api/booking", order(part, 5), format="json").json()
        assert as_user.delete(f"/api/booking/{first['_id']}").status_code == 200
        time.sleep(0.01)  # a fresh hold would now end later than the first

        again = as_user.post("/api/booking", order(part, 5), format="json")

        assert again.status_code == 201
        assert expires_at(again.json()) == expires_at(first)
        stored = Booking.objects.get(pk=again.json()["_id"])
        assert stored.expires_at == expires_at(first)
        page = as_user.get(f"/api/booking/{stored.pk}").json()
        assert expires_at(page) == expires_at(first)

    def test_deleting_and_ordering_again_and_again_never_renews(self, user):
        part = PartFactory(minimum_order_quantity=1, available_quantity=10)
        first = place(user, part, 2)
        deadline = first.expires_at
        booking = first
        for _ in range(3):
            services.booking_cancel(booking=booking)
            booking = place(user, part, 2)
            assert booking.expires_at == deadline

    def test_another_unpaid_order_of_the_part_gives_its_expiry(self, user):
        part = PartFactory(minimum_order_quantity=1, available_quantity=10)
        first = place(user, part, 2)
        second = place(user, part, 2)
        assert second.expires_at == first.expires_at

    def test_other_parts_and_other_accounts_get_a_hold_of_their_own(self, user, other_user):
        part, other_part = PartFactory(available_quantity=10), PartFactory(available_quantity=10)
        first = place(user, part, 2)
        services.booking_cancel(booking=first)
        assert place(user, other_part, 2).expires_at > first.expires_at
        assert place(other_user, part, 2).expires_at > first.expires_at

    def test_a_paid_order_carries_no_expiry(self, user):
        part = PartFactory(minimum_order_quantity=1, available_quantity=10)
        first = place(user, part, 2)
        services.booking_mark_paid(booking_id=first.pk, transaction_id="pi_paid")
        assert place(user, part, 2).expires_at > first.expires_at

    def test_once_the_earlier_hold_has_lapsed_the_next_order_gets_a_fresh_hold(
        self, settings, as_user, user
    ):
        settings.ORDER_HOLD_SECONDS = 1
        part = PartFactory(minimum_order_quantity=1, available_quantity=10)
        first = as_user.post("/api/booking", order(part, 2), format="json").json()
        as_user.delete(f"/api/booking/{first['_id']}")
        time.sleep(max(0.0, (expires_at(first) - timezone.now()).total_seconds()) + 0.05)

        before = timezone.now()
        again = as_user.post("/api/booking", order(part, 2), format="json").json()

        assert expires_at(again) >= before + timedelta(seconds=1)

    def test_deleting_a_lapsed_order_leaves_no_deadline(self, user, as_user):
        part = PartFactory(minimum_order_quantity=1, available_quantity=10)
        lapsed = place(user, part, 2)
        Booking.objects.filter(pk=lapsed.pk).update(
            expires_at=timezone.now() - timedelta(seconds=1)
        )
        assert as_user.delete(f"/api/booking/{lapsed.pk}").status_code == 200
        assert not HoldDeadline.objects.exists()
        assert place(user, part, 2).expires_at > timezone.now() + timedelta(minutes=29)

    def test_an_admin_deleting_the_order_does_not_renew_it_either(self, as_admin, user):
        part = PartFactory(minimum_order_quantity=1, available_quantity=10)
        first = place(user, part, 2)
        assert as_admin.delete(f"/api/booking/{first.pk}").status_code == 200
        assert place(user, part, 2).expires_at == first.expires_at

    def test_the_sweep_forgets_deadlines_that_passed(self, user, other_user):
        part = PartFactory(minimum_order_quantity=1, available_quantity=10)
        for shopper in (user, other_user):
            services.booking_cancel(booking=place(shopper, part, 2))
        assert HoldDeadline.objects.count() == 2
        HoldDeadline.objects.filter(user=user).update(
            expires_at=timezone.now() - timedelta(seconds=1)
        )
        call_command("release_holds", stdout=StringIO())
        assert list(HoldDeadline.objects.values_list("user", flat=True)) == [other_user.pk]

    def test_deleting_the_part_or_the_account_takes_its_deadlines(self, user, other_user):
        part = PartFactory(minimum_order_quantity=1, available_quantity=10)
        for shopper in (user, other_user):
            services.booking_cancel(booking=place(shopper, part, 2))
        user.delete()
        assert HoldDeadline.objects.count() == 1
        Part.objects.filter(pk=part.pk).delete()
        assert not HoldDeadline.objects.exists()


@pytest.mark.parametrize("value", ["0", "1.5", "-0.5", "half", "nan"])
def test_a_share_outside_0_to_1_stops_the_start_with_a_clear_error(value):
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    result = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT,
        env={**env, "DEBUG": "1", "MAX_HELD_SHARE": value},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode != 0
    assert "MAX_HELD_SHARE must be a number above 0 and at most 1" in result.stderr
    assert repr(value) in result.stderr


@pytest.mark.slow  # Django started again in a process of its own
def test_one_is_a_valid_share():
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    result = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT,
        env={**env, "DEBUG": "1", "MAX_HELD_SHARE": "1"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
