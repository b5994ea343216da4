"""My Order and Manage Orders: guards, headings, and the order tables' island props."""

import pytest
from django.contrib.auth import SESSION_KEY

from core.tests.islands import island_props, island_script, page_text
from orders.tests.factories import BookingFactory

pytestmark = pytest.mark.django_db

MY_ORDER = "/dashboard/myorder"
MANAGE = "/dashboard/manageorders"


def signed_in(client, user):
    client.force_login(user)
    return client


@pytest.mark.parametrize("url", [MY_ORDER, MANAGE])
def test_visitors_go_to_login_remembering_the_page(client, url):
    response = client.get(url)
    assert response.status_code == 302
    assert response["Location"] == f"/login?next={url}"


def test_my_order_lists_the_users_own_orders_as_the_api_does(client, as_user, user, other_user):
    mine = [
        BookingFactory(user=user),
        BookingFactory(user=user, paid_order=True),
        BookingFactory(user=user, shipped=True),
    ]
    BookingFactory(user=other_user)
    response = signed_in(client, user).get(MY_ORDER)
    assert response.status_code == 200
    props = island_props(response, "my-orders")
    assert props == {"orders": as_user.get("/api/booking").json(), "payUrls": {}}
    assert [o["_id"] for o in props["orders"]] == [b.pk for b in reversed(mine)]
    assert [o["state"] for o in props["orders"]] == ["shipped", "pending", "unpaid"]
    assert isinstance(props["orders"][0]["totalPrice"], float)


def test_my_order_shows_its_heading_and_loads_its_island_only(client, user):
    response = signed_in(client, user).get(f"{MY_ORDER}/")
    html = response.content.decode()
    assert "My Order" in page_text(response)
    assert '<h2 class="text-2xl font-bold mb-4">My Order</h2>' in html
    assert island_script("my-orders") in html
    assert island_script("manage-orders") not in html
    assert island_props(response, "my-orders") == {"orders": [], "payUrls": {}}


def test_an_admin_opening_my_order_sees_their_own_orders(client, admin_user, user):
    BookingFactory(user=user)
    own = BookingFactory(user=admin_user)
    props = island_props(signed_in(client, admin_user).get(MY_ORDER), "my-orders")
    assert [o["_id"] for o in props["orders"]] == [own.pk]


def test_my_order_reads_the_orders_in_a_fixed_number_of_queries(
    client, user, django_assert_max_num_queries
):
    BookingFactory.create_batch(10, user=user)
    signed_in(client, user)
    with django_assert_max_num_queries(3):
        client.get(MY_ORDER)


def test_a_non_admin_opening_manage_orders_is_signed_out_and_sent_to_login(client, user):
    response = signed_in(client, user).get(MANAGE)
    assert response.status_code == 302
    assert response["Location"] == "/login"
    assert SESSION_KEY not in client.session


def test_manage_orders_lists_every_order_as_the_api_does(client, as_admin, admin_user, user):
    orders = [
        BookingFactory(user=user),
        BookingFactory(paid_order=True),
        BookingFactory(shipped=True),
    ]
    response = signed_in(client, admin_user).get(MANAGE)
    assert response.status_code == 200
    props = island_props(response, "manage-orders")
    assert props == {
        "orders": as_admin.get("/api/bookings").json(),
        "first": 1,
        "searching": False,
    }
    assert {o["_id"] for o in props["orders"]} == {b.pk for b in orders}
    html = response.content.decode()
    assert '<h2 class="text-2xl font-bold mb-4">Manage Orders</h2>' in html
    assert island_script("manage-orders") in html
    assert island_script("my-orders") not in html


def test_manage_orders_reads_the_orders_in_a_fixed_number_of_queries(
    client, admin_user, django_assert_max_num_queries
):
    BookingFactory.create_batch(10)
    signed_in(client, admin_user)
    with django_assert_max_num_queries(4):  # the page's orders, then all their lines at once
        client.get(MANAGE)
