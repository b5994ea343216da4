"""People management: removing accounts, taking the admin role back, shop admins as staff."""

from io import StringIO

import pytest
from django.contrib.auth.models import Group
from django.core.management import call_command
from rest_framework.test import APIClient

from accounts.models import User
from accounts.services import (
    CANNOT_CHANGE_SELF,
    SHOP_ADMINS,
    SUPERUSER_STAYS_ADMIN,
    shop_admins_group,
    user_make_admin,
)
from accounts.tests.factories import TEST_PASSWORD, AdminFactory, UserFactory
from conftest import bearer_client
from core.permissions import NOT_ADMIN


def is_shop_admin_staff(user: User) -> bool:
    user.refresh_from_db()
    return user.is_staff and user.groups.filter(name=SHOP_ADMINS).exists()


@pytest.fixture
def superuser(db):
    return UserFactory(email="root@example.com", is_superuser=True, is_staff=True, role="admin")


class TestShopAdminsGroup:
    def test_manages_the_shop_but_not_people(self, db):
        codenames = set(shop_admins_group().permissions.values_list("codename", flat=True))
        assert {"change_part", "add_category", "change_booking", "change_review"} <= codenames
        assert {"view_paymentevent", "view_stockmovement"} <= codenames
        assert "change_paymentevent" not in codenames
        assert not codenames & {"view_user", "change_user", "delete_user", "change_group"}
        assert not any(name.endswith(("_permission", "_group", "_user")) for name in codenames)

    def test_is_one_group_however_often_asked_for(self, db):
        assert shop_admins_group() == shop_admins_group()
        assert Group.objects.filter(name=SHOP_ADMINS).count() == 1

    def test_a_migrate_gives_an_existing_group_the_rights_of_new_models(self, db):
        """A shop upgraded to a version with new models (vehicles, fitment): its admins may
        manage them after `migrate`, with no `make_admin` by hand."""
        group = shop_admins_group()
        group.permissions.remove(*group.permissions.filter(codename__endswith="_vehicle"))

        call_command("migrate", verbosity=0)

        codenames = set(group.permissions.values_list("codename", flat=True))
        assert {"view_vehicle", "change_vehicle", "add_fitment"} <= codenames

    def test_a_migrate_creates_no_group(self, db):
        Group.objects.filter(name=SHOP_ADMINS).delete()

        call_command("migrate", verbosity=0)

        assert not Group.objects.filter(name=SHOP_ADMINS).exists()


class TestMakeAdmin:
    def test_the_api_makes_a_shop_admin_django_staff(self, as_admin, user):
        response = as_admin.put(f"/api/user/admin/{user.email}")
        assert response.json() == {"modifiedCount": 1}
        assert is_shop_admin_staff(user)
        assert not user.is_superuser

    def test_an_admin_made_before_is_mended_by_the_api(self, as_admin):
        legacy = AdminFactory()  # role admin, not staff: how admins were made before
        assert as_admin.put(f"/api/user/admin/{legacy.email}").json() == {"modifiedCount": 0}
        assert is_shop_admin_staff(legacy)

    def test_the_command_makes_staff_and_mends_old_admins(self, user):
        legacy = AdminFactory()
        call_command("make_admin", user.email, stdout=StringIO())
        out = StringIO()
        call_command("make_admin", legacy.email, stdout=out)
        assert out.getvalue() == f"{legacy.email} was already a shop admin.\n"
        assert is_shop_admin_staff(user)
        assert is_shop_admin_staff(legacy)

    def test_the_command_mends_every_admin_at_once(self, user):
        legacy = [AdminFactory(), AdminFactory()]
        out = StringIO()
        call_command("make_admin", "--all", stdout=out)
        assert out.getvalue() == "2 shop admin(s) are Django staff in Shop admins.\n"
        assert all(is_shop_admin_staff(admin) for admin in legacy)
        assert not is_shop_admin_staff(user)


class TestRemoveAdmin:
    def test_takes_role_staff_and_group_back(self, as_admin, user):
        user_make_admin(user=user)
        response = as_admin.delete(f"/api/user/admin/{user.email}")
        assert (response.status_code, response.json()) == (200, {"modifiedCount": 1})
        user.refresh_from_db()
        assert (user.role, user.is_staff, user.groups.count()) == ("user", False, 0)
        assert not user.is_shop_admin

    def test_a_plain_user_is_left_as_is(self, as_admin, user):
        response = as_admin.delete(f"/api/user/admin/{user.email}/")
        assert (response.status_code, response.json()) == (200, {"modifiedCount": 0})

    def test_never_ones_own_role(self, as_admin, admin_user):
        response = as_admin.delete(f"/api/user/admin/{admin_user.email.upper()}")
        assert (response.status_code, response.json()) == (409, {"detail": CANNOT_CHANGE_SELF})
        admin_user.refresh_from_db()
        assert admin_user.role == "admin"

    def test_never_a_superusers(self, as_admin, superuser):
        response = as_admin.delete(f"/api/user/admin/{superuser.email}")
        assert (response.status_code, response.json()) == (409, {"detail": SUPERUSER_STAYS_ADMIN})
        superuser.refresh_from_db()
        assert (superuser.is_superuser, superuser.is_staff, superuser.role) == (True, True, "admin")

    def test_unknown_email(self, as_admin):
        assert as_admin.delete("/api/user/admin/nobody@example.com").status_code == 404

    @pytest.mark.parametrize(("caller", "status"), [("anonymous", 401), ("user", 403)])
    def test_only_admins(self, caller, status, user, admin_user):
        client = APIClient() if caller == "anonymous" else bearer_client(user)
        response = client.delete(f"/api/user/admin/{admin_user.email}")
        assert response.status_code == status
        admin_user.refresh_from_db()
        assert admin_user.role == "admin"


class TestRemoveUser:
    def test_the_account_is_gone_and_cannot_sign_in(self, as_admin, user):
        token_client = bearer_client(user)
        response = as_admin.delete(f"/api/users/{user.email}")
        assert (response.status_code, response.json()) == (200, {"deletedCount": 1})
        assert not User.objects.filter(pk=user.pk).exists()
        sign_in = APIClient().post(
            "/api/token", {"email": user.email, "password": TEST_PASSWORD}, format="json"
        )
        assert sign_in.status_code == 401
        assert token_client.get("/api/user/me").status_code == 401

    def test_never_oneself(self, as_admin, admin_user):
        response = as_admin.delete(f"/api/users/{admin_user.email}")
        assert (response.status_code, response.json()) == (409, {"detail": CANNOT_CHANGE_SELF})
        assert User.objects.filter(pk=admin_user.pk).exists()

    def test_a_superuser_only_by_a_superuser(self, as_admin, superuser):
        response = as_admin.delete(f"/api/users/{superuser.email}")
        assert (response.status_code, response.json()) == (409, {"detail": SUPERUSER_STAYS_ADMIN})
        assert User.objects.filter(pk=superuser.pk).exists()

    def test_unknown_email(self, as_admin):
        response = as_admin.delete("/api/users/nobody@example.com")
        assert response.status_code == 404

    @pytest.mark.parametrize(("caller", "status"), [("anonymous", 401), ("user", 403)])
    def test_only_admins(self, caller, status, user, other_user):
        client = APIClient() if caller == "anonymous" else bearer_client(user)
        response = client.delete(f"/api/users/{other_user.email}")
        assert response.status_code == status
        if status == 403:
            assert response.json() == {"detail": NOT_ADMIN}
        assert User.objects.filter(pk=other_user.pk).exists()

    def test_not_even_oneself_as_a_user(self, as_user, user):
        assert as_user.delete(f"/api/users/{user.email}").status_code == 403
        assert User.objects.filter(pk=user.pk).exists()
