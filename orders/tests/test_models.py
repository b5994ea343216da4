"""An order's state is one rule with two forms: Booking.state_at in Python, BookingQuerySet in
SQL (the filters of Manage Orders, the CSV, the caps and the release of lapsed holds). Held
equal here, row by row, in every state an order can reach."""

from datetime import timedelta

import pytest
from django.utils import timezone

from orders.models import Booking
from orders.tests.factories import BookingFactory

pytestmark = pytest.mark.django_db

State = Booking.State
HOUR = timedelta(hours=1)


def cases(now):
    """(what the order went through, its fields, the state it is in at `now`)."""
    paid = {"paid": True, "paid_at": now - HOUR, "transaction_id": "pi_test"}
    return [
        ("unpaid, its hold running", {"expires_at": now + HOUR}, State.UNPAID),
        ("unpaid, a moment before its time is up", {"expires_at": now + timedelta(microseconds=1)}, State.UNPAID),
        ("unpaid, placed before holds had a deadline", {"expires_at": None}, State.UNPAID),
        ("expired the moment its time is up", {"expires_at": now}, State.EXPIRED),
        ("expired by time, its stock not back yet", {"expires_at": now - HOUR}, State.EXPIRED),
        ("expired by time, its stock back on the shelf", {"expires_at": now - HOUR, "released_at": now}, State.EXPIRED),
        ("withdrawn with its part, time still left", {"expires_at": now + HOUR, "released_at": now}, State.EXPIRED),
        ("released, with no deadline", {"expires_at": None, "released_at": now}, State.EXPIRED),
        ("paid", {**paid, "expires_at": now + HOUR}, State.PENDING),
        ("paid, its hold's time since passed", {**paid, "expires_at": now - HOUR}, State.PENDING),
        ("shipped", {**paid, "status": "approved"}, State.SHIPPED),
        ("shipped, its hold's time since passed", {**paid, "status": "approved", "expires_at": now - HOUR}, State.SHIPPED),
        ("refunded", {**paid, "refunded_at": now}, State.REFUNDED),
        ("refunded after shipping", {**paid, "status": "approved", "refunded_at": now}, State.REFUNDED),
        ("paid after its stock was gone, refunded", {**paid, "expires_at": now - HOUR, "released_at": now - HOUR, "refunded_at": now}, State.REFUNDED),
    ]  # fmt: skip


def test_python_and_sql_agree_on_the_state_of_every_order():
    now = timezone.now()
    orders = {name: (BookingFactory(**fields), state) for name, fields, state in cases(now)}
    expected = {name: str(state) for name, (_, state) in orders.items()}
    assert set(expected.values()) == set(State.values)  # every state has its cases
    names = {order.pk: name for name, (order, _) in orders.items()}

    def names_in(queryset) -> list[str]:
        return [names[pk] for pk in queryset.values_list("pk", flat=True)]

    in_python = {name: order.state_at(now) for name, (order, _) in orders.items()}
    in_sql = {
        names[pk]: s for pk, s in Booking.objects.with_state(now).values_list("pk", "state_now")
    }
    in_filters = [
        (name, s) for s in State.values for name in names_in(Booking.objects.in_state(s, now))
    ]
    assert len(in_filters) == len(orders)  # each order in exactly one state's filter
    assert in_python == in_sql == dict(in_filters) == expected
    assert Booking.objects.count_by_state(now) == {
        s: list(expected.values()).count(s) for s in State.values
    }
    unpaid = {name for name, state in expected.items() if state == State.UNPAID}
    assert set(names_in(Booking.objects.unpaid_holding(now))) == unpaid
    not_back = {name for name, (order, _) in orders.items() if order.released_at is None}
    expired = {name for name, state in expected.items() if state == State.EXPIRED}
    assert set(names_in(Booking.objects.lapsed(now))) == expired & not_back
