"""Django admin for staff: signed in through the shop's /login, shop admins in their group,
and removed accounts whose orders stay (API.md "Tokens and sign-in", BEYOND.md "Django admin")."""

import pytest
from django.test import Client
from rest_framework.test import APIClient

from accounts.models import User
from accounts.services import user_make_admin
from accounts.tests.factories import TEST_PASSWORD, UserFactory
from catalog.tests.factories import PartFactory
from conftest import bearer_client
from orders.tests.factories import BookingFactory

pytestmark = pytest.mark.django_db


class TestSignIn:
    def test_admin_login_is_the_shops_login_keeping_next(self, client):
        response = client.get("/admin/login/?next=/admin/catalog/part/")
        assert (response.status_code, response["Location"]) == (
            302,
            "/login?next=/admin/catalog/part/",
        )

    def test_admin_sends_visitors_to_the_shops_login(self, client):
        response = client.get("/admin/", follow=True)
        assert response.redirect_chain[-1] == ("/login?next=/admin/", 302)
        assert response.status_code == 200

    def test_another_site_is_never_the_next_page(self, client):
        response = client.get("/admin/login/?next=https://evil.example/")
        assert response["Location"] == "/login?next=/admin/"

    def test_posting_a_password_to_admin_login_signs_nobody_in(self, client, staff):
        response = client.post(
            "/admin/login/", {"username": staff.email, "password": TEST_PASSWORD}
        )
        assert response.status_code == 302
        assert "_auth_user_id" not in client.session

    def test_staff_sign_in_at_login_and_go_back_to_admin(self, client, staff):
        response = client.post(
            "/login?next=/admin/", {"login": staff.email, "password": TEST_PASSWORD}
        )
        assert (response.status_code, response["Location"]) == (302, "/admin/")
        assert client.get("/admin/").status_code == 200

    def test_failed_attempts_are_limited_for_admin_too(self, client, staff):
        """60 wrong passwords, then the right one, used to get in: now the limit holds."""
        wrong = {"login": staff.email, "password": "wrong-password"}
        statuses = [client.post("/login?next=/admin/", wrong).status_code for _ in range(60)]
        assert 429 in statuses
        right = client.post(
            "/login?next=/admin/", {"login": staff.email, "password": TEST_PASSWORD}
        )
        assert right.status_code == 429
        assert "_auth_user_id" not in client.session
        assert client.get("/admin/")["Location"].startswith("/admin/login/")

    def test_a_signed_in_shopper_is_sent_home_not_round_in_circles(self, client, user):
        client.force_login(user)
        response = client.get("/admin/", follow=True)
        assert response.redirect_chain[-1] == ("/", 302)
        assert "Your account cannot open Django admin." in response.content.decode()


class TestShopAdmins:
    def promoted(self, user: User) -> Client:
        response = bearer_client(self.admin).put(f"/api/user/admin/{user.email}")
        assert response.status_code == 200
        client = Client()
        client.force_login(user)
        return client

    @pytest.fixture(autouse=True)
    def _admin(self, admin_user):
        self.admin = admin_user

    def test_a_promoted_admin_manages_parts_but_not_people(self, user):
        part = PartFactory()
        client = self.promoted(user)
        assert client.get("/admin/").status_code == 200
        change = client.get(f"/admin/catalog/part/{part.pk}/change/")
        assert change.status_code == 200
        assert change.context["has_change_permission"]
        for url in (
            "/admin/catalog/category/add/",
            "/admin/orders/booking/",
            "/admin/reviews/review/",
            "/admin/reviews/partreview/",
        ):
            assert client.get(url).status_code == 200, url
        for url in (
            "/admin/accounts/user/",
            f"/admin/accounts/user/{user.pk}/change/",
            "/admin/auth/group/",
        ):
            assert client.get(url).status_code == 403, url

    def test_a_part_change_is_saved(self, user):
        part = PartFactory(name="Old name")
        client = self.promoted(user)
        page = client.get(f"/admin/catalog/part/{part.pk}/change/")
        form = page.context["adminform"].form
        data = {name: value for name, value in form.initial.items() if value is not None}
        for inline in page.context["inline_admin_formsets"]:  # the stock history's formset
            management = inline.formset.management_form
            data.update({field.html_name: field.value() for field in management})
        data.update(name="New name", category="")
        response = client.post(f"/admin/catalog/part/{part.pk}/change/", data)
        assert response.status_code == 302, response.context["adminform"].form.errors
        part.refresh_from_db()
        assert part.name == "New name"

    def test_taking_the_role_back_closes_django_admin(self, user):
        client = self.promoted(user)
        assert client.get("/admin/").status_code == 200
        response = bearer_client(self.admin).delete(f"/api/user/admin/{user.email}")
        assert response.json() == {"modifiedCount": 1}
        assert client.get("/admin/")["Location"].startswith("/admin/login/")
        assert client.get("/admin/catalog/part/").status_code == 302

    def test_an_admin_made_by_the_user_admin_action_is_staff(self, staff_client, user):
        response = staff_client.post(
            "/admin/accounts/user/",
            {"action": "make_shop_admin", "_selected_action": [user.pk]},
        )
        assert response.status_code == 302
        user.refresh_from_db()
        assert user.is_staff and user.groups.exists()
        staff_client.post(
            "/admin/accounts/user/",
            {"action": "remove_shop_admin", "_selected_action": [user.pk]},
        )
        user.refresh_from_db()
        assert (user.role, user.is_staff, user.groups.exists()) == ("user", False, False)


class TestRemovedAccounts:
    def test_orders_stay_with_their_snapshot_and_belong_to_nobody(self, as_admin, user):
        booking = BookingFactory(user=user, paid_order=True)
        email, name = user.email, user.name
        assert as_admin.delete(f"/api/users/{email}").json() == {"deletedCount": 1}
        booking.refresh_from_db()
        assert (booking.user, booking.email, booking.name) == (None, email, name)
        assert booking.paid

    def test_a_new_account_with_the_same_email_sees_none_of_them(self, as_admin, user):
        BookingFactory(user=user)
        as_admin.delete(f"/api/users/{user.email}")
        newcomer = UserFactory(email=user.email)
        response = bearer_client(newcomer).get(f"/api/booking?email={newcomer.email}")
        assert (response.status_code, response.json()) == (200, [])

    def test_removed_in_django_admin_through_the_same_rule(self, staff_client, staff, user):
        booking = BookingFactory(user=user)
        response = staff_client.post(f"/admin/accounts/user/{user.pk}/delete/", {"post": "yes"})
        assert response.status_code == 302
        assert not User.objects.filter(pk=user.pk).exists()
        booking.refresh_from_db()
        assert booking.user is None
        own = staff_client.get(f"/admin/accounts/user/{staff.pk}/delete/")
        assert own.status_code == 403

    def test_the_removed_account_signs_in_nowhere(self, as_admin, user):
        as_admin.delete(f"/api/users/{user.email}")
        page = Client().post("/login", {"login": user.email, "password": TEST_PASSWORD})
        assert page.status_code == 200
        token = APIClient().post(
            "/api/token", {"email": user.email, "password": TEST_PASSWORD}, format="json"
        )
        assert token.status_code == 401


def test_promoting_twice_keeps_one_group(user):
    user_make_admin(user=user)
    user_make_admin(user=user)
    assert list(user.groups.values_list("name", flat=True)) == ["Shop admins"]
