"""Orders belong to the account that placed them, not to the e-mail address on them: the
address and name on an order are a snapshot for the record."""

import pytest

from accounts.tests.factories import UserFactory
from conftest import bearer_client
from core.tests.islands import island_props
from orders.tests.factories import BookingFactory

pytestmark = pytest.mark.django_db

MY_ORDER = "/dashboard/myorder"


def order_ids(client, email: str) -> list[int]:
    response = client.get(f"/api/booking?email={email}")
    assert response.status_code == 200
    return [order["_id"] for order in response.json()]


def my_order_ids(client, user) -> list[int]:
    client.force_login(user)
    return [order["_id"] for order in island_props(client.get(MY_ORDER), "my-orders")["orders"]]


def test_a_new_account_on_a_deleted_accounts_address_sees_none_of_its_orders(client, as_admin):
    old = UserFactory(email="rider@example.com")
    BookingFactory(user=old, address="7 Old Lane", phone="5550001")
    old.delete()  # staff remove the account; its orders stay, belonging to nobody
    newcomer = UserFactory(email="rider@example.com")
    assert order_ids(bearer_client(newcomer), "rider@example.com") == []
    assert order_ids(bearer_client(newcomer), "") == []
    assert my_order_ids(client, newcomer) == []
    assert order_ids(as_admin, "rider@example.com") == []  # the account's orders: none yet


def test_an_account_whose_address_changes_keeps_its_orders(client, as_admin):
    user = UserFactory(email="before@example.com")
    booking = BookingFactory(user=user)
    user.email = "after@example.com"
    user.save(update_fields=["email"])
    api = bearer_client(user)
    assert order_ids(api, "after@example.com") == [booking.pk]
    assert my_order_ids(client, user) == [booking.pk]
    assert order_ids(as_admin, "after@example.com") == [booking.pk]
    assert order_ids(as_admin, "before@example.com") == []  # nobody has that address now
    booking.refresh_from_db()
    assert booking.email == "before@example.com"  # the snapshot stays as it was placed


def test_asking_for_another_address_is_still_403(other_user, user):
    BookingFactory(user=user)
    response = bearer_client(other_user).get(f"/api/booking?email={user.email}")
    assert response.status_code == 403
