"""Holds that lapse, the cap on unpaid orders and totals that fit."""

import re
from datetime import timedelta
from decimal import Decimal
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.tests.factories import UserFactory
from catalog.models import Part, StockMovement
from catalog.tests.factories import PartFactory
from core.errors import Conflict
from orders import services
from orders.models import Booking, BookingLine
from orders.selectors import lapsed_holds_of_parts_exist
from orders.services import ORDER_EXPIRED, TOO_MANY_UNPAID, TOTAL_TOO_LARGE
from orders.tests.factories import BookingFactory

pytestmark = pytest.mark.django_db


def order(part, quantity=1):
    return {"partId": part.pk, "quantity": quantity, "address": "1 Road", "phone": "12345"}


def place(user, part, quantity=1) -> Booking:
    return services.booking_place(
        user=user, part=part, quantity=quantity, address="1 Road", phone="12345"
    )


def lapse(booking: Booking) -> None:
    Booking.objects.filter(pk=booking.pk).update(expires_at=timezone.now() - timedelta(seconds=1))


def stock(part) -> int:
    return Part.objects.get(pk=part.pk).available_quantity


def reconciles(part, initial: int) -> bool:
    """Stock on the shelf + units still held or sold == what the shop started with."""
    held = sum(
        b.quantity
        for b in Booking.objects.of_parts([part.pk])
        if b.released_at is None and b.refunded_at is None
    )
    return stock(part) + held == initial


@pytest.fixture
def part(db):
    return PartFactory(price=Decimal("10.00"), minimum_order_quantity=1, available_quantity=5)


@pytest.fixture
def lot(db):
    """A part sold only as one lot of 5: one order may hold all of it (the fair-hold share is
    never below the minimum order quantity)."""
    return PartFactory(price=Decimal("10.00"), minimum_order_quantity=5, available_quantity=5)


class TestHold:
    def test_an_order_holds_its_stock_for_the_configured_time(self, settings, as_user, part):
        settings.ORDER_HOLD_SECONDS = 600
        before = timezone.now()
        response = as_user.post("/api/booking", order(part), format="json")
        assert response.status_code == 201
        body = response.json()
        booking = Booking.objects.get(pk=body["_id"])
        assert timedelta(seconds=599) < booking.expires_at - before < timedelta(seconds=602)
        assert body["state"] == "unpaid"
        assert body["expiresAt"] is not None
        assert body["url"] == f"/dashboard/orders/{booking.pk}"

    def test_expires_at_is_null_once_paid(self, as_user, user):
        paid = BookingFactory(user=user, paid_order=True)
        assert as_user.get(f"/api/booking/{paid.pk}").json()["expiresAt"] is None

    def test_a_lapsed_hold_never_blocks_the_next_shopper(self, user, other_user, lot):
        first = place(user, lot, quantity=5)
        assert stock(lot) == 0
        lapse(first)
        second = place(other_user, Part.objects.get(pk=lot.pk), quantity=5)
        assert second.state == Booking.State.UNPAID
        first.refresh_from_db()
        assert first.state == Booking.State.EXPIRED
        assert first.released_at is not None
        assert stock(lot) == 0
        assert reconciles(lot, 5)

    def test_a_stale_view_of_the_part_still_gets_the_released_units(self, as_other, user, lot):
        lapse(place(user, lot, quantity=5))
        # The shopper's view says 0 left; the lapsed hold is released before the check.
        response = as_other.post("/api/booking", order(lot, quantity=5), format="json")
        assert response.status_code == 201, response.content

    def test_an_order_finds_its_parts_lapsed_holds_among_any_others(self, settings, user):
        """Orders of a part that lapsed first, among and last of the shop's lapsed holds (the
        window of ids BookingQuerySet.lapsed_of_parts reads) are all released by the next
        order of the part; the other part's stay lapsed and unreleased."""
        settings.MAX_UNPAID_ORDERS = 100
        ours, theirs = (PartFactory(available_quantity=20, minimum_order_quantity=1) for _ in "ab")
        placed = [place(user, p) for p in (ours, theirs, theirs, ours, theirs, theirs, ours)]
        for booking in placed:
            lapse(booking)
        assert Booking.objects.lapsed_of_parts([ours.pk]).count() == 3

        place(UserFactory(), Part.objects.get(pk=ours.pk))

        released = Booking.objects.filter(released_at__isnull=False).values_list("pk", flat=True)
        assert set(released) == {placed[0].pk, placed[3].pk, placed[6].pk}
        assert Booking.objects.lapsed_of_parts([theirs.pk]).count() == 4
        assert not Booking.objects.lapsed_of_parts([ours.pk]).exists()
        assert stock(ours) == 19

    @pytest.mark.postgres(reason="PostgreSQL's planner and its EXPLAIN")
    def test_an_order_looks_for_lapsed_holds_from_its_parts_lines_whatever_the_statistics(
        self, user
    ):
        """A burst of lapsed holds on other parts, not yet counted by ANALYZE, makes the
        planner believe there are next to none: the look must still start from the part's
        lines (and each line's order by itself), never walk every lapsed hold per line."""
        ours, theirs = (PartFactory(available_quantity=20, minimum_order_quantity=1) for _ in "ab")
        lapse(place(user, ours))
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE orders_booking, orders_bookingline")
        burst = Booking.objects.bulk_create(
            Booking(
                user=user,
                email=user.email,
                total_price=1,
                subtotal=1,
                address="1 Road",
                phone="12345",
                expires_at=timezone.now() - timedelta(seconds=1),
            )
            for _ in range(2000)
        )
        BookingLine.objects.bulk_create(
            BookingLine(
                booking=b, part=theirs, parts_name="x", price_per_unit=1, quantity=1, line_total=1
            )
            for b in burst
        )
        with CaptureQueriesContext(connection) as asked:
            assert lapsed_holds_of_parts_exist(part_ids=[ours.pk])
        with connection.cursor() as cursor:
            cursor.execute("EXPLAIN " + asked.captured_queries[0]["sql"])
            plan = "\n".join(row[0] for row in cursor.fetchall())

        # The lines are read through an index, by part or by the window of lapsed ids (the
        # planner takes either, by statistics the test does not fix: both cost the lapsed
        # holds at most), and each line's order looked up by itself, never joined.
        assert re.search(r"Index (Only )?Scan using \w+ on orders_bookingline ", plan), plan
        assert "SubPlan" in plan and "Join" not in plan and "Nested Loop" not in plan

    def test_release_lapsed_holds_releases_each_once(self, user, other_user, part):
        held = place(user, part, quantity=2)
        kept = place(other_user, part, quantity=1)
        lapse(held)
        assert services.booking_release_lapsed_holds() == 1
        assert services.booking_release_lapsed_holds() == 0
        assert services.booking_expire(booking_id=held.pk) is False
        assert stock(part) == 4
        kept.refresh_from_db()
        assert kept.state == Booking.State.UNPAID
        movement = StockMovement.objects.filter(order_id=held.pk, change=2).get()
        assert "lapsed" in movement.note
        assert reconciles(part, 5)

    @pytest.mark.slow  # 300 orders
    def test_many_lapsed_holds_go_back_in_a_few_queries_each_named(
        self, settings, user, django_assert_max_num_queries
    ):
        settings.MAX_UNPAID_ORDERS = 1000
        part = PartFactory(available_quantity=1000, minimum_order_quantity=1)
        other = PartFactory(available_quantity=1000, minimum_order_quantity=1)
        held = [place(user, p, quantity=2) for p in [part, other] * 150]
        Booking.objects.update(expires_at=timezone.now() - timedelta(seconds=1))

        # Two batches of RELEASE_BATCH and an empty one: queries per batch and part, not per
        # order (and one to forget the hold deadlines that passed). Each batch holds lines of
        # both parts (20 queries: 5 per part; the orders' lines, their Timeline's "expired"
        # step, one UPDATE for the batch, and the outbox's rows for their shoppers' mails,
        # written in the batch's transaction), the empty one 3.
        with django_assert_max_num_queries(44):
            assert services.booking_release_lapsed_holds() == 300

        assert (stock(part), stock(other)) == (1000, 1000)
        assert not Booking.objects.filter(released_at__isnull=True).exists()
        released = StockMovement.objects.filter(note__contains="lapsed")
        assert sorted(released.values_list("order_id", flat=True)) == sorted(b.pk for b in held)
        assert set(released.values_list("change", flat=True)) == {2}
        # Each movement's "stock after" counts the ones before it, as one at a time would.
        afters = sorted(released.filter(part=part).values_list("stock_after", flat=True))
        assert afters == list(range(1000 - 300 + 2, 1001, 2))

    @pytest.mark.slow  # 250 orders
    def test_an_order_placed_after_many_lapsed_holds_releases_them_all(
        self, settings, user, other_user
    ):
        settings.MAX_UNPAID_ORDERS = 1000
        part = PartFactory(available_quantity=1000, minimum_order_quantity=1)
        for _ in range(250):
            place(user, part, quantity=2)  # half the stock: as much as one account may hold
        Booking.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
        assert stock(part) == 500

        place(other_user, Part.objects.get(pk=part.pk), quantity=500)

        assert stock(part) == 500
        assert Booking.objects.filter(released_at__isnull=False).count() == 250
        assert reconciles(part, 1000)

    def test_a_paid_order_is_never_released(self, user, part):
        paid = place(user, part, quantity=2)
        services.booking_mark_paid(booking_id=paid.pk, transaction_id="pi_x")
        lapse(paid)
        assert services.booking_release_lapsed_holds() == 0
        assert stock(part) == 3

    def test_the_command_releases_lapsed_holds(self, user, part):
        lapse(place(user, part, quantity=2))
        out = StringIO()
        call_command("release_holds", stdout=out)
        assert "1 lapsed hold(s) released." in out.getvalue()
        assert stock(part) == 5

    def test_an_expired_order_can_be_deleted_and_gives_nothing_back_twice(
        self, as_user, user, part
    ):
        booking = place(user, part, quantity=2)
        lapse(booking)
        services.booking_release_lapsed_holds()
        assert as_user.get(f"/api/booking/{booking.pk}").json()["state"] == "expired"
        response = as_user.delete(f"/api/booking/{booking.pk}")
        assert response.status_code == 200
        assert stock(part) == 5

    def test_a_lapsed_but_unreleased_order_deleted_gives_its_stock_back_once(
        self, as_user, user, part
    ):
        booking = place(user, part, quantity=2)
        lapse(booking)
        assert as_user.get(f"/api/booking/{booking.pk}").json()["state"] == "expired"
        assert as_user.delete(f"/api/booking/{booking.pk}").status_code == 200
        assert services.booking_release_lapsed_holds() == 0
        assert stock(part) == 5

    def test_an_expired_order_cannot_be_paid(self, stripe_on, as_user, user, part):
        booking = place(user, part)
        lapse(booking)
        response = as_user.post(
            "/api/create-payment-intent", {"booking": booking.pk}, format="json"
        )
        assert response.status_code == 409
        assert response.json() == {"detail": ORDER_EXPIRED}


class TestCap:
    def test_the_next_order_past_the_cap_is_a_409(self, settings, as_user, part):
        settings.MAX_UNPAID_ORDERS = 2
        for _ in range(2):
            assert as_user.post("/api/booking", order(part), format="json").status_code == 201
        response = as_user.post("/api/booking", order(part), format="json")
        assert response.status_code == 409
        assert response.json() == {"detail": TOO_MANY_UNPAID.format(count=2)}
        assert "pay or delete one" in response.json()["detail"]
        assert stock(part) == 3

    def test_the_default_cap_is_five(self, as_user, part):
        part.available_quantity = 10
        Part.objects.filter(pk=part.pk).update(available_quantity=10)
        codes = [as_user.post("/api/booking", order(part), format="json").status_code]
        codes += [as_user.post("/api/booking", order(part), format="json").status_code]
        codes += [as_user.post("/api/booking", order(part), format="json").status_code]
        codes += [as_user.post("/api/booking", order(part), format="json").status_code]
        codes += [as_user.post("/api/booking", order(part), format="json").status_code]
        codes += [as_user.post("/api/booking", order(part), format="json").status_code]
        assert codes == [201] * 5 + [409]

    @pytest.mark.parametrize("kind", ["paid", "expired", "deleted"])
    def test_paid_expired_and_deleted_orders_do_not_count(
        self, settings, as_user, user, part, kind
    ):
        settings.MAX_UNPAID_ORDERS = 1
        first = place(user, part)
        if kind == "paid":
            services.booking_mark_paid(booking_id=first.pk, transaction_id="pi_x")
        elif kind == "expired":
            lapse(first)
        else:
            as_user.delete(f"/api/booking/{first.pk}")
        assert as_user.post("/api/booking", order(part), format="json").status_code == 201

    def test_the_cap_is_per_account(self, settings, as_other, user, part):
        settings.MAX_UNPAID_ORDERS = 1
        place(user, part)
        assert as_other.post("/api/booking", order(part), format="json").status_code == 201


class TestTotal:
    def test_a_total_past_the_money_column_is_a_400_on_quantity(self, as_user, db):
        part = PartFactory(
            price=Decimal("99999999.99"), minimum_order_quantity=1, available_quantity=10**9
        )
        response = as_user.post("/api/booking", order(part, quantity=2), format="json")
        assert response.status_code == 400
        assert response.json() == {"quantity": [TOTAL_TOO_LARGE]}
        assert stock(part) == 10**9

    def test_the_largest_total_is_accepted(self, as_user, db):
        part = PartFactory(price=Decimal("99999999.99"), minimum_order_quantity=1)
        assert as_user.post("/api/booking", order(part), format="json").status_code == 201


def test_one_account_can_no_longer_freeze_the_catalogue(settings, db):
    """15 orders could take every unit of every part: the cap stops the sixth."""
    settings.MAX_UNPAID_ORDERS = 5
    parts = [PartFactory(minimum_order_quantity=1, available_quantity=4) for _ in range(15)]
    hoarder = UserFactory()
    placed = 0
    for each in parts:
        try:
            place(hoarder, each, quantity=2)  # half of each: as much as one account may hold
            placed += 1
        except Conflict:
            pass
    assert placed == 5
    assert sum(stock(p) for p in parts) == 50
