"""Orders of several lines under concurrency, on PostgreSQL's real row locks: parts are locked
in id order (two orders naming the same parts in opposite orders never deadlock), and the
last units go to one order whole, never half to each."""

import threading
import time
from decimal import Decimal

import pytest
from django.db import connection, connections, transaction

from accounts.tests.factories import UserFactory
from catalog.models import Part
from catalog.services import part_delete
from catalog.tests.factories import PartFactory
from orders import services
from orders.models import Booking, BookingLine

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.slow,  # threads racing on real row locks
]


def race(calls) -> list:
    """Run each call in its own thread, all released at once; what each returned or raised."""
    start = threading.Barrier(len(calls))
    outcomes: list = [None] * len(calls)

    def run(n, call):
        try:
            start.wait()
            outcomes[n] = call()
        except Exception as exc:  # the outcome under test, whatever it is
            outcomes[n] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(n, c)) for n, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return outcomes


def order_of(user, lines):
    return lambda: services.booking_place_lines(
        user=user, lines=lines, address="1 Road", phone="12345"
    )


def stock(part) -> int:
    return Part.objects.get(pk=part.pk).available_quantity


def test_orders_naming_the_same_parts_in_opposite_orders_never_deadlock(settings):
    settings.MAX_HELD_SHARE = 1
    a = PartFactory(price=Decimal("2.00"), minimum_order_quantity=1, available_quantity=100)
    b = PartFactory(price=Decimal("3.00"), minimum_order_quantity=1, available_quantity=100)
    shoppers = [UserFactory() for _ in range(8)]
    calls = [
        order_of(user, [(a.pk, 1), (b.pk, 2)] if n % 2 else [(b.pk, 2), (a.pk, 1)])
        for n, user in enumerate(shoppers)
    ]

    for _ in range(3):  # three rounds of eight at once
        outcomes = race(calls)
        assert all(isinstance(o, Booking) for o in outcomes), outcomes

    assert (stock(a), stock(b)) == (100 - 24, 100 - 48)
    assert Booking.objects.count() == 24
    assert BookingLine.objects.count() == 48


def test_the_last_units_go_to_one_order_whole():
    """Two shoppers want the last rotor with pads: one order gets both, the other nothing
    (409 naming the rotor), and the pads are taken once."""
    pads = PartFactory(
        name="Pads", price=Decimal("9.00"), minimum_order_quantity=1, available_quantity=10
    )
    rotor = PartFactory(
        name="Rotor", price=Decimal("50.00"), minimum_order_quantity=1, available_quantity=1
    )
    first, second = UserFactory(), UserFactory()

    outcomes = race(
        [
            order_of(first, [(pads.pk, 2), (rotor.pk, 1)]),
            order_of(second, [(rotor.pk, 1), (pads.pk, 2)]),
        ]
    )

    placed = [o for o in outcomes if isinstance(o, Booking)]
    refused = [o for o in outcomes if isinstance(o, services.LineUnavailable)]
    assert len(placed) == 1 and len(refused) == 1, outcomes
    assert refused[0].part_id == rotor.pk
    assert refused[0].message.startswith("Rotor: ")
    assert (stock(pads), stock(rotor)) == (8, 0)
    assert Booking.objects.count() == 1


def waiting_for_a_lock() -> int:
    """How many connections to the test database wait for a lock now."""
    with connection.cursor() as cursor:
        # Else the statistics stay as first read in this transaction.
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity"
            " WHERE datname = current_database() AND wait_event_type = 'Lock'"
        )
        return cursor.fetchone()[0]


def until_waiting(count: int, outcomes: dict, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while waiting_for_a_lock() < count:
        assert time.monotonic() < deadline, f"fewer than {count} waiting for a lock: {outcomes}"
        time.sleep(0.02)


def started(call, outcomes: dict, name: str) -> threading.Thread:
    def run():
        try:
            outcomes[name] = call()
        except Exception as exc:  # the outcome under test, whatever it is
            outcomes[name] = exc
        finally:
            connections.close_all()

    thread = threading.Thread(target=run)
    thread.start()
    return thread


def test_deleting_a_part_while_an_order_of_it_and_another_is_placed_never_deadlocks():
    """The deletion withdraws an unpaid order of both parts (putting back the other part's
    units) while a new order of both comes in: each waits for the other's locks in turn, the
    order is refused ("no longer available"), never aborted by PostgreSQL's deadlock check."""
    mirror = PartFactory(name="Mirror", minimum_order_quantity=1, available_quantity=10)
    lever = PartFactory(name="Lever", minimum_order_quantity=1, available_quantity=10)
    assert mirror.pk < lever.pk
    earlier = order_of(UserFactory(), [(mirror.pk, 1), (lever.pk, 1)])()
    shopper = UserFactory()
    outcomes: dict = {}
    threads = []

    # The lever's row is held a moment (as a stock adjustment would) so that both wait at
    # their worst: the deletion first, then the order.
    try:
        with transaction.atomic():
            Part.objects.select_for_update().get(pk=lever.pk)
            threads.append(started(lambda: part_delete(part=mirror), outcomes, "delete"))
            until_waiting(1, outcomes)
            order = order_of(shopper, [(mirror.pk, 2), (lever.pk, 2)])
            threads.append(started(order, outcomes, "place"))
            until_waiting(2, outcomes)
    finally:
        for thread in threads:
            thread.join(60)

    assert outcomes["delete"] is None, outcomes
    assert isinstance(outcomes["place"], services.LineUnavailable), outcomes
    assert outcomes["place"].message == services.PART_GONE
    assert not Part.objects.filter(pk=mirror.pk).exists()
    earlier.refresh_from_db()
    assert earlier.released_at is not None  # withdrawn
    assert stock(lever) == 10  # its unit back, none taken
