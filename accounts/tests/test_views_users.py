"""All Users (admin): guards, heading, and the all-users island's props."""

import pytest
from django.contrib.auth import SESSION_KEY

from accounts.tests.factories import UserFactory
from core.tests.islands import island_props, island_script

pytestmark = pytest.mark.django_db

USERS = "/dashboard/users"


def test_visitors_go_to_login_remembering_the_page(client):
    response = client.get(USERS)
    assert response.status_code == 302
    assert response["Location"] == f"/login?next={USERS}"


def test_a_non_admin_is_signed_out_and_sent_to_login(client, user):
    client.force_login(user)
    response = client.get(USERS)
    assert response.status_code == 302
    assert response["Location"] == "/login"
    assert SESSION_KEY not in client.session


def test_the_island_gets_every_user_as_the_api_lists_them(
    client, as_admin, admin_user, user, staff
):
    client.force_login(admin_user)
    response = client.get(f"{USERS}/")
    assert response.status_code == 200
    props = island_props(response, "all-users")
    assert props == {"users": as_admin.get("/api/user").json()}
    roles = {u["email"]: u["role"] for u in props["users"]}
    assert roles == {admin_user.email: "admin", user.email: "user", staff.email: "admin"}


def test_the_page_shows_its_heading_and_loads_its_island(client, admin_user):
    client.force_login(admin_user)
    html = client.get(USERS).content.decode()
    assert '<h2 class="text-2xl font-bold mb-4">All Users</h2>' in html
    assert island_script("all-users") in html


def test_no_password_reaches_the_page(client, admin_user, user):
    client.force_login(admin_user)
    response = client.get(USERS)
    assert not [
        key for u in island_props(response, "all-users")["users"] for key in u if "password" in key
    ]
    assert user.password not in response.content.decode()


def test_the_users_are_read_in_a_fixed_number_of_queries(
    client, admin_user, django_assert_max_num_queries
):
    UserFactory.create_batch(10)
    client.force_login(admin_user)
    with django_assert_max_num_queries(3):
        client.get(USERS)
