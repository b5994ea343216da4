"""Sign-up, tokens and the e-mail-for-token exchange."""

import pytest
from django.conf import settings
from rest_framework.test import APIClient
from rest_framework_simplejwt.tokens import RefreshToken

from accounts.models import User
from accounts.tests.factories import TEST_PASSWORD, UserFactory
from accounts.tests.helpers import assert_no_secrets, bearer, user_json

SIGNUP_FIELDS = {"_id", "email", "name", "access", "refresh"}


def signup_payload(**overrides) -> dict:
    payload = {"name": "Rider Jane", "email": "jane@example.com", "password": "hunter22"}
    payload.update(overrides)
    return {k: v for k, v in payload.items() if v is not ...}


def me(token: str):
    return bearer(APIClient(), token).get("/api/user/me")


class TestSignup:
    @pytest.mark.parametrize("path", ["/api/signup", "/api/signup/"])
    def test_creates_account_and_signs_in(self, anon, db, path):
        payload = signup_payload(email="Jane7@Example.COM")
        response = anon.post(path, payload, format="json")

        assert response.status_code == 201, response.content
        body = response.json()
        assert set(body) == SIGNUP_FIELDS
        user = User.objects.get()
        assert body["_id"] == user.pk
        assert (body["email"], body["name"]) == ("jane7@example.com", "Rider Jane")
        assert user.email == "jane7@example.com"
        assert user.check_password("hunter22")
        assert (user.role, user.is_staff, user.is_superuser) == ("user", False, False)
        assert_no_secrets(response)

        answer = me(body["access"])
        assert answer.status_code == 200
        assert answer.json() == user_json(user, role="user")

        refreshed = anon.post("/api/token/refresh", {"refresh": body["refresh"]}, format="json")
        assert refreshed.status_code == 200
        assert me(refreshed.json()["access"]).json()["_id"] == user.pk

    def test_six_character_password_is_enough(self, anon, db):
        response = anon.post("/api/signup", signup_payload(password="abcdef"), format="json")
        assert response.status_code == 201, response.content

    def test_role_and_staff_flags_in_payload_are_ignored(self, anon, db):
        payload = signup_payload(role="admin", is_staff=True, is_superuser=True)
        response = anon.post("/api/signup", payload, format="json")
        assert response.status_code == 201
        user = User.objects.get(pk=response.json()["_id"])
        assert (user.role, user.is_staff, user.is_superuser) == ("user", False, False)
        assert me(response.json()["access"]).json()["role"] == "user"

    @pytest.mark.parametrize(
        ("overrides", "field", "message"),
        [
            ({"name": ...}, "name", "Name is required"),
            ({"name": ""}, "name", "Name is required"),
            ({"name": "   "}, "name", "Name is required"),
            ({"name": None}, "name", "Name is required"),
            ({"email": ...}, "email", "Email is required"),
            ({"email": ""}, "email", "Email is required"),
            ({"email": "not-an-email"}, "email", "Provide a valid email"),
            ({"email": "a@b"}, "email", "Provide a valid email"),
            ({"email": "rider@example"}, "email", "Provide a valid email"),
            ({"email": "rider@@example.com"}, "email", "Provide a valid email"),
            ({"password": ...}, "password", "Password is required"),
            ({"password": ""}, "password", "Password is required"),
            ({"password": "12345"}, "password", "Must be 6 characters or longer"),
        ],
    )
    def test_spec_messages(self, anon, db, overrides, field, message):
        response = anon.post("/api/signup", signup_payload(**overrides), format="json")
        assert response.status_code == 400
        assert response.json() == {field: [message]}
        assert not User.objects.exists()

    def test_empty_body_lists_every_message(self, anon, db):
        response = anon.post("/api/signup", {}, format="json")
        assert response.status_code == 400
        assert response.json() == {
            "name": ["Name is required"],
            "email": ["Email is required"],
            "password": ["Password is required"],
        }

    @pytest.mark.parametrize(
        "email", ["user1@example.com", "User1@Example.com", " USER1@EXAMPLE.COM "]
    )
    def test_taken_email_in_any_case(self, anon, db, email):
        UserFactory(email="user1@example.com")
        response = anon.post("/api/signup", signup_payload(email=email), format="json")
        assert response.status_code == 400
        assert response.json() == {"email": ["An account with this email already exists"]}
        assert User.objects.count() == 1

    def test_get_is_not_allowed(self, anon, db):
        assert anon.get("/api/signup").status_code == 405


class TestToken:
    @pytest.mark.parametrize("path", ["/api/token", "/api/token/"])
    @pytest.mark.parametrize("email", ["rider@example.com", "Rider@Example.COM"])
    def test_email_and_password_give_tokens(self, anon, db, path, email):
        user = UserFactory(email="rider@example.com")
        response = anon.post(path, {"email": email, "password": TEST_PASSWORD}, format="json")
        assert response.status_code == 200, response.content
        body = response.json()
        assert set(body) == {"access", "refresh"}
        assert_no_secrets(response)
        assert me(body["access"]).json() == user_json(user, role="user")

    @pytest.mark.parametrize(
        "credentials",
        [
            {"email": "rider@example.com", "password": "wrong-password"},
            {"email": "nobody@example.com", "password": TEST_PASSWORD},
        ],
    )
    def test_bad_credentials_are_401(self, anon, db, credentials):
        UserFactory(email="rider@example.com")
        response = anon.post("/api/token", credentials, format="json")
        assert response.status_code == 401
        assert set(response.json()) == {"detail"}

    def test_inactive_user_gets_no_token(self, anon, db):
        UserFactory(email="gone@example.com", is_active=False)
        credentials = {"email": "gone@example.com", "password": TEST_PASSWORD}
        assert anon.post("/api/token", credentials, format="json").status_code == 401

    @pytest.mark.parametrize("missing", ["email", "password"])
    def test_missing_field_is_400(self, anon, db, missing):
        credentials = {"email": "rider@example.com", "password": TEST_PASSWORD}
        del credentials[missing]
        response = anon.post("/api/token", credentials, format="json")
        assert response.status_code == 400
        assert set(response.json()) == {missing}


class TestTokenRefresh:
    @pytest.mark.parametrize("path", ["/api/token/refresh", "/api/token/refresh/"])
    def test_refresh_gives_access(self, anon, user, path):
        tokens = anon.post(
            "/api/token", {"email": user.email, "password": TEST_PASSWORD}, format="json"
        ).json()
        response = anon.post(path, {"refresh": tokens["refresh"]}, format="json")
        assert response.status_code == 200
        assert "access" in response.json()
        assert me(response.json()["access"]).json()["_id"] == user.pk

    def test_garbage_is_401(self, anon, db):
        response = anon.post("/api/token/refresh", {"refresh": "not.a.token"}, format="json")
        assert response.status_code == 401
        assert "detail" in response.json()

    def test_refresh_token_of_a_deleted_account_is_401(self, anon, user):
        """Not a server error (found by reviewing the refresh path for the fuzzing work)."""
        refresh = str(RefreshToken.for_user(user))
        user.delete()
        response = anon.post("/api/token/refresh", {"refresh": refresh}, format="json")
        assert response.status_code == 401
        assert response.json()["detail"] == "No active account found for the given token."

    def test_access_token_is_not_a_refresh_token(self, anon, user):
        tokens = anon.post(
            "/api/token", {"email": user.email, "password": TEST_PASSWORD}, format="json"
        ).json()
        response = anon.post("/api/token/refresh", {"refresh": tokens["access"]}, format="json")
        assert response.status_code == 401


class TestTokenExchange:
    """PUT /api/user/{email}: a fresh access token, only ever for the caller."""

    @pytest.mark.parametrize(
        ("caller", "account", "role"),
        [("as_user", "user", "user"), ("as_admin", "admin_user", "admin")],
    )
    @pytest.mark.parametrize("body", ["none", "same", "same-upper"])
    def test_caller_gets_own_token(self, request, caller, account, role, body):
        client, owner = request.getfixturevalue(caller), request.getfixturevalue(account)
        payload = {"none": {}, "same": {"email": owner.email}}.get(
            body, {"email": owner.email.upper()}
        )
        response = client.put(f"/api/user/{owner.email}", payload, format="json")

        assert response.status_code == 200, response.content
        data = response.json()
        assert set(data) == {"result", "token"}
        assert data["result"] == user_json(owner, role=role)
        assert_no_secrets(response)
        assert me(data["token"]).json() == user_json(owner, role=role)

    def test_path_email_is_case_insensitive(self, as_user, user):
        response = as_user.put(f"/api/user/{user.email.upper()}/", {}, format="json")
        assert response.status_code == 200
        assert response.json()["result"]["_id"] == user.pk

    @pytest.mark.parametrize(
        ("caller", "target"),
        [
            ("as_user", "other_user"),
            ("as_other", "user"),
            ("as_user", "admin_user"),
            ("as_admin", "user"),  # even an admin gets no token for someone else
        ],
    )
    def test_someone_elses_email_is_403(self, request, caller, target):
        client, victim = request.getfixturevalue(caller), request.getfixturevalue(target)
        response = client.put(f"/api/user/{victim.email}", {}, format="json")
        assert response.status_code == 403
        assert set(response.json()) == {"detail"}
        assert "token" not in response.content.decode()

    @pytest.mark.parametrize("caller", ["as_user", "as_admin"])
    def test_body_email_differing_from_caller_is_403(self, request, caller, user, other_user):
        client = request.getfixturevalue(caller)
        own = request.getfixturevalue("admin_user" if caller == "as_admin" else "user")
        response = client.put(f"/api/user/{own.email}", {"email": other_user.email}, format="json")
        assert response.status_code == 403
        assert set(response.json()) == {"detail"}

    def test_unknown_email_is_403(self, as_user):
        assert as_user.put("/api/user/nobody@example.com", {}, format="json").status_code == 403

    def test_anonymous_is_401(self, anon, user):
        response = anon.put(f"/api/user/{user.email}", {"email": user.email}, format="json")
        assert response.status_code == 401
        assert set(response.json()) == {"detail"}


class TestSession:
    """The Django session cookie authenticates too; unsafe methods then need CSRF."""

    def test_logged_in_session_reads_me(self, client, user):
        client.force_login(user)
        response = client.get("/api/user/me")
        assert response.status_code == 200
        assert response.json() == user_json(user, role="user")

    def test_unsafe_method_without_csrf_is_403(self, user):
        client = APIClient(enforce_csrf_checks=True)
        client.force_login(user)
        payload = {
            "education": "BSc",
            "location": "Leeds",
            "phone": "0123456789",
            "linkedin": "https://www.linkedin.com/in/jane",
        }
        response = client.put(f"/api/users/{user.email}", payload, format="json")
        assert response.status_code == 403
        assert "CSRF" in response.json()["detail"]
        user.refresh_from_db()
        assert user.education == ""

        secret = "a" * 32  # a well-formed CSRF secret, sent as cookie and header
        client.cookies[settings.CSRF_COOKIE_NAME] = secret
        response = client.put(
            f"/api/users/{user.email}", payload, format="json", HTTP_X_CSRFTOKEN=secret
        )
        assert response.status_code == 200, response.content

    def test_anonymous_session_is_401(self, client, db):
        assert client.get("/api/user/me").status_code == 401


@pytest.mark.parametrize(
    ("method", "path", "caller"),
    [
        ("post", "/api/signup", "anon"),
        ("post", "/api/token", "anon"),
        ("post", "/api/token/refresh", "anon"),
        ("put", "/api/user/{email}", "as_user"),
        ("put", "/api/users/{email}", "as_user"),
    ],
)
@pytest.mark.parametrize("raw", ['{"name": ', "{'email': 'x'}", b"\xff\xfe{}"])
def test_malformed_json_is_400(request, user, method, path, caller, raw):
    client = request.getfixturevalue(caller)
    client.raise_request_exception = False
    response = getattr(client, method)(
        path.format(email=user.email), data=raw, content_type="application/json"
    )
    assert response.status_code == 400
    assert set(response.json()) == {"detail"}
