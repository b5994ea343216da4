"""Users, profiles and the admin role for every caller."""

import pytest
from rest_framework.test import APIClient
from rest_framework_simplejwt.tokens import RefreshToken

from accounts.models import User
from accounts.serializers import PROFILE_REQUIRED
from accounts.tests.factories import AdminFactory, UserFactory
from accounts.tests.helpers import USER_FIELDS, assert_no_secrets, bearer, user_json
from accounts.validators import LINKEDIN_INVALID
from core.permissions import NOT_ADMIN, NOT_YOURS
from core.phones import PHONE_INVALID

PROFILE = {
    "education": "BSc Mechanical Engineering",
    "location": "Leeds, UK",
    "phone": "+441134960000",
    "linkedin": "https://www.linkedin.com/in/jane-rider",
}

REQUIRED = PROFILE_REQUIRED


@pytest.fixture
def superuser(db):
    """A Django superuser whose shop role was left at "user": still an admin."""
    return UserFactory(email="root@example.com", is_superuser=True, is_staff=True, role="user")


@pytest.fixture
def as_superuser(superuser):
    return bearer(APIClient(), str(RefreshToken.for_user(superuser).access_token))


def role_of(fixture: str) -> str:
    return "admin" if fixture in ("admin_user", "superuser") else "user"


class TestMe:
    @pytest.mark.parametrize("path", ["/api/user/me", "/api/user/me/"])
    @pytest.mark.parametrize(
        ("caller", "account"),
        [("as_user", "user"), ("as_other", "other_user"), ("as_admin", "admin_user")],
    )
    def test_signed_in_caller_sees_self(self, request, path, caller, account):
        client, owner = request.getfixturevalue(caller), request.getfixturevalue(account)
        response = client.get(path)
        assert response.status_code == 200
        assert response.json() == user_json(owner, role=role_of(account))
        assert_no_secrets(response)

    def test_superuser_with_user_role_is_shown_as_admin(self, as_superuser, superuser):
        assert as_superuser.get("/api/user/me").json() == user_json(superuser, role="admin")

    def test_anonymous_is_401(self, anon, db):
        response = anon.get("/api/user/me")
        assert response.status_code == 401
        assert set(response.json()) == {"detail"}
        assert response["WWW-Authenticate"].startswith("Bearer")

    def test_bad_bearer_token_is_401(self, db):
        client = bearer(APIClient(), "not.a.jwt")
        assert client.get("/api/user/me").status_code == 401


class TestUserList:
    def test_one_query_for_the_list(self, as_admin, django_assert_max_num_queries):
        UserFactory.create_batch(5)
        with django_assert_max_num_queries(2):  # the caller, then every user at once
            assert len(as_admin.get("/api/user").json()) == 6

    @pytest.mark.parametrize("path", ["/api/user", "/api/user/"])
    def test_admin_gets_every_user(self, as_admin, admin_user, user, other_user, path):
        response = as_admin.get(path)
        assert response.status_code == 200
        body = response.json()
        assert all(set(item) == USER_FIELDS for item in body)
        expected = [
            user_json(admin_user, role="admin"),
            user_json(user, role="user"),
            user_json(other_user, role="user"),
        ]
        assert sorted(body, key=lambda u: u["_id"]) == sorted(expected, key=lambda u: u["_id"])
        assert_no_secrets(response)

    def test_superuser_counts_as_admin(self, as_superuser, user):
        response = as_superuser.get("/api/user")
        assert response.status_code == 200
        assert len(response.json()) == User.objects.count() == 2

    @pytest.mark.parametrize("caller", ["as_user", "as_other"])
    def test_non_admin_is_403(self, request, caller):
        response = request.getfixturevalue(caller).get("/api/user")
        assert response.status_code == 403
        assert response.json() == {"detail": NOT_ADMIN}

    def test_anonymous_is_401(self, anon, db):
        assert anon.get("/api/user").status_code == 401


class TestProfileUpdate:
    @pytest.mark.parametrize(
        ("caller", "target"),
        [
            ("as_user", "user"),
            ("as_admin", "user"),
            ("as_admin", "admin_user"),
            ("as_superuser", "user"),
        ],
    )
    @pytest.mark.parametrize("slash", ["", "/"])
    def test_self_or_admin_updates(self, request, caller, target, slash):
        client, owner = request.getfixturevalue(caller), request.getfixturevalue(target)
        response = client.put(f"/api/users/{owner.email}{slash}", PROFILE, format="json")

        assert response.status_code == 200, response.content
        owner.refresh_from_db()
        assert (owner.education, owner.location, owner.phone, owner.linkedin) == (
            PROFILE["education"],
            PROFILE["location"],
            PROFILE["phone"],
            PROFILE["linkedin"],
        )
        assert response.json() == {
            "modifiedCount": 1,
            "result": user_json(owner, role=role_of(target)),
        }
        assert_no_secrets(response)

    def test_only_profile_fields_change(self, as_user, user):
        email, name = user.email, user.name
        payload = {**PROFILE, "role": "admin", "email": "evil@example.com", "name": "Evil"}
        payload |= {"is_superuser": True, "is_staff": True, "password": "pwned123"}
        response = as_user.put(f"/api/users/{user.email}", payload, format="json")
        assert response.status_code == 200
        user.refresh_from_db()
        assert (user.role, user.is_staff, user.is_superuser) == ("user", False, False)
        assert (user.email, user.name) == (email, name)
        assert not user.check_password("pwned123")
        assert response.json()["result"]["role"] == "user"

    def test_path_email_is_case_insensitive(self, as_user, user):
        response = as_user.put(f"/api/users/{user.email.upper()}", PROFILE, format="json")
        assert response.status_code == 200
        assert response.json()["result"]["_id"] == user.pk

    @pytest.mark.parametrize(
        ("caller", "target"),
        [("as_other", "user"), ("as_user", "other_user"), ("as_user", "admin_user")],
    )
    def test_someone_else_is_403(self, request, caller, target):
        client, victim = request.getfixturevalue(caller), request.getfixturevalue(target)
        response = client.put(f"/api/users/{victim.email}", PROFILE, format="json")
        assert response.status_code == 403
        assert response.json() == {"detail": NOT_YOURS}
        victim.refresh_from_db()
        assert victim.education == ""

    def test_anonymous_is_401(self, anon, user):
        response = anon.put(f"/api/users/{user.email}", PROFILE, format="json")
        assert response.status_code == 401
        user.refresh_from_db()
        assert user.education == ""

    def test_unknown_email_for_admin_is_404(self, as_admin):
        response = as_admin.put("/api/users/nobody@example.com", PROFILE, format="json")
        assert response.status_code == 404
        assert set(response.json()) == {"detail"}

    def test_unknown_email_for_user_is_403(self, as_user):
        response = as_user.put("/api/users/nobody@example.com", PROFILE, format="json")
        assert response.status_code == 403

    @pytest.mark.parametrize("field", sorted(REQUIRED))
    @pytest.mark.parametrize("how", ["missing", "blank", "null"])
    def test_each_field_is_required(self, as_user, user, field, how):
        payload = dict(PROFILE)
        if how == "missing":
            del payload[field]
        else:
            payload[field] = "" if how == "blank" else None
        response = as_user.put(f"/api/users/{user.email}", payload, format="json")
        assert response.status_code == 400
        assert response.json() == {field: [REQUIRED[field]]}
        user.refresh_from_db()
        assert user.education == ""

    @pytest.mark.parametrize(
        ("field", "value", "message"),
        [
            ("phone", "abc", PHONE_INVALID),
            ("phone", "12-ab-34", PHONE_INVALID),
            ("phone", "++4411349600", PHONE_INVALID),
            ("linkedin", "javascript:alert(1)", LINKEDIN_INVALID),
            ("linkedin", "ftp://example.com/jane", LINKEDIN_INVALID),
            ("linkedin", "linkedin.com/in/jane", LINKEDIN_INVALID),
        ],
    )
    def test_invalid_phone_and_linkedin(self, as_user, user, field, value, message):
        response = as_user.put(f"/api/users/{user.email}", {**PROFILE, field: value}, format="json")
        assert response.status_code == 400
        assert response.json() == {field: [message]}

    @pytest.mark.parametrize(
        ("sent", "stored"),
        [("+44 113 496 0000", "+441134960000"), ("(0113) 496-0000", "01134960000")],
    )
    def test_phone_separators_are_dropped(self, as_user, user, sent, stored):
        response = as_user.put(
            f"/api/users/{user.email}", {**PROFILE, "phone": sent}, format="json"
        )
        assert response.status_code == 200, response.content
        assert response.json()["result"]["phone"] == stored
        user.refresh_from_db()
        assert user.phone == stored


class TestMakeAdmin:
    @pytest.mark.parametrize("caller", ["as_admin", "as_superuser"])
    def test_admin_promotes_once(self, request, caller, user):
        client = request.getfixturevalue(caller)
        response = client.put(f"/api/user/admin/{user.email}")
        assert response.status_code == 200
        assert response.json() == {"modifiedCount": 1}
        user.refresh_from_db()
        assert user.role == "admin"

        again = client.put(f"/api/user/admin/{user.email.upper()}/")
        assert again.status_code == 200
        assert again.json() == {"modifiedCount": 0}

    def test_promoted_user_is_admin_everywhere(self, as_admin, as_user, user):
        as_admin.put(f"/api/user/admin/{user.email}")
        assert as_user.get("/api/user/me").json()["role"] == "admin"
        assert as_user.get(f"/api/admin/{user.email}").json() == {"admin": True}
        assert as_user.get("/api/user").status_code == 200

    def test_already_admin_is_0(self, as_admin, admin_user):
        other_admin = AdminFactory()
        for target in (admin_user, other_admin):
            response = as_admin.put(f"/api/user/admin/{target.email}")
            assert response.json() == {"modifiedCount": 0}

    def test_unknown_email_is_404(self, as_admin):
        response = as_admin.put("/api/user/admin/nobody@example.com")
        assert response.status_code == 404
        assert set(response.json()) == {"detail"}

    @pytest.mark.parametrize(
        ("caller", "target"), [("as_user", "user"), ("as_user", "other_user"), ("as_other", "user")]
    )
    def test_non_admin_is_403(self, request, caller, target):
        victim = request.getfixturevalue(target)
        response = request.getfixturevalue(caller).put(f"/api/user/admin/{victim.email}")
        assert response.status_code == 403
        assert response.json() == {"detail": NOT_ADMIN}
        victim.refresh_from_db()
        assert victim.role == "user"

    def test_anonymous_is_401(self, anon, user):
        response = anon.put(f"/api/user/admin/{user.email}")
        assert response.status_code == 401
        user.refresh_from_db()
        assert user.role == "user"


class TestAdminCheck:
    @pytest.mark.parametrize(
        ("caller", "target", "expected"),
        [
            ("as_user", "user", False),
            ("as_other", "other_user", False),
            ("as_admin", "admin_user", True),
            ("as_admin", "user", False),
            ("as_admin", "superuser", True),
            ("as_superuser", "superuser", True),
            ("as_superuser", "admin_user", True),
            ("as_superuser", "user", False),
        ],
    )
    @pytest.mark.parametrize("slash", ["", "/"])
    def test_self_or_admin_gets_the_answer(self, request, caller, target, expected, slash):
        subject = request.getfixturevalue(target)
        response = request.getfixturevalue(caller).get(f"/api/admin/{subject.email}{slash}")
        assert response.status_code == 200
        assert response.json() == {"admin": expected}

    def test_admin_asking_about_another_admin(self, as_admin):
        other_admin = AdminFactory()
        assert as_admin.get(f"/api/admin/{other_admin.email}").json() == {"admin": True}

    def test_path_email_is_case_insensitive(self, as_user, user):
        assert as_user.get(f"/api/admin/{user.email.upper()}").json() == {"admin": False}

    @pytest.mark.parametrize(
        ("caller", "target"),
        [("as_other", "user"), ("as_user", "other_user"), ("as_user", "admin_user")],
    )
    def test_someone_else_is_403(self, request, caller, target):
        subject = request.getfixturevalue(target)
        response = request.getfixturevalue(caller).get(f"/api/admin/{subject.email}")
        assert response.status_code == 403
        assert response.json() == {"detail": NOT_YOURS}

    def test_unknown_email_for_admin_is_404(self, as_admin):
        assert as_admin.get("/api/admin/nobody@example.com").status_code == 404

    def test_anonymous_is_401(self, anon, user):
        assert anon.get(f"/api/admin/{user.email}").status_code == 401


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("put", "/api/users/a%00b@example.com"),
        ("put", "/api/user/admin/a%00b@example.com"),
        ("get", "/api/admin/a%00b@example.com"),
    ],
)
def test_nul_byte_in_path_email_is_not_500(as_admin, method, path):
    as_admin.raise_request_exception = False
    response = getattr(as_admin, method)(path, PROFILE, format="json")
    assert response.status_code == 404
