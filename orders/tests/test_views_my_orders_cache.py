"""My Order, kept per session (core.caching.pages): never shown to another person, and stale
at once when an order changes, a part is deleted, or an unpaid hold lapses."""

from datetime import timedelta

import pytest
from django.utils import timezone

from catalog import services as catalog_services
from core.tests.islands import island_props
from orders import services
from orders.tests.factories import BookingFactory
from orders.views import seconds_until_a_hold_lapses

pytestmark = pytest.mark.django_db(transaction=True)  # the versions are bumped on commit too

MY_ORDER = "/dashboard/myorder"


def orders_seen(client) -> list[dict]:
    response = client.get(MY_ORDER)
    assert response.status_code == 200
    return island_props(response, "my-orders")["orders"]


def ids(orders) -> list[int]:
    return [order["_id"] for order in orders]


def test_two_people_on_the_same_url_each_see_their_own(client, user, other_user):
    from django.test import Client

    mine, theirs = BookingFactory(user=user), BookingFactory(user=other_user)
    client.force_login(user)
    other = Client()
    other.force_login(other_user)

    for _ in range(2):  # the second time from the cache
        assert ids(orders_seen(client)) == [mine.pk]
        assert ids(orders_seen(other)) == [theirs.pk]


def test_a_new_order_and_a_changed_one_show_at_once(client, user):
    first = BookingFactory(user=user)
    client.force_login(user)
    assert [o["state"] for o in orders_seen(client)] == ["unpaid"]

    second = BookingFactory(user=user)
    assert ids(orders_seen(client)) == [second.pk, first.pk]

    assert services.booking_cancel(booking=first)
    assert ids(orders_seen(client)) == [second.pk]

    services.booking_mark_paid(booking_id=second.pk, transaction_id="pi_test_paid")
    assert [o["state"] for o in orders_seen(client)] == ["pending"]


def test_a_deleted_part_unlinks_the_orders_shown(client, user):
    paid = BookingFactory(user=user, paid_order=True)
    client.force_login(user)
    assert orders_seen(client)[0]["partId"] == paid.part_id

    catalog_services.part_delete(part=paid.lines.get().part)

    assert orders_seen(client)[0]["partId"] is None


def test_signed_out_the_page_asks_to_sign_in(client, user):
    BookingFactory(user=user)
    client.force_login(user)
    orders_seen(client)
    session = client.cookies["sessionid"].value

    client.post("/logout")
    client.cookies["sessionid"] = session  # the old cookie, replayed

    response = client.get(MY_ORDER)
    assert response.status_code == 302
    assert response["Location"].startswith("/login")


def test_an_unpaid_order_is_kept_only_until_its_hold_lapses(user):
    now = timezone.now()
    soon = BookingFactory(user=user, expires_at=now + timedelta(seconds=90))
    later = BookingFactory(user=user, expires_at=now + timedelta(minutes=30))
    lapsed = BookingFactory(user=user, lapsed=True)
    paid = BookingFactory(user=user, paid_order=True)

    assert 85 <= seconds_until_a_hold_lapses([later, soon, lapsed, paid]) <= 90
    assert seconds_until_a_hold_lapses([paid, lapsed]) == 300
    almost = BookingFactory(user=user)
    # Its deadline set in memory just before the call: a loaded machine took more than the
    # 300 ms that the factory's insert left, and the hold had lapsed before it was asked.
    almost.expires_at = timezone.now() + timedelta(milliseconds=950)
    assert seconds_until_a_hold_lapses([almost]) == 0  # not kept at all
