"""Short-lived, revocable tokens.

Access tokens live 15 minutes; refresh tokens 7 days, rotate and are used once; a revoked
refresh token takes the access tokens minted from it along; a changed or reset password, a
deleted or deactivated account and signing out of the site session make the tokens concerned
answer 401 at once, access tokens included; the e-mail-for-token exchange never lets a token
outlive itself."""

import json
import re
from datetime import timedelta

import jwt
import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient
from rest_framework_simplejwt.tokens import AccessToken, RefreshToken

from accounts.models import User
from accounts.tests.factories import TEST_PASSWORD
from accounts.tests.helpers import bearer
from accounts.tokens import FAMILY_CLAIM

NEW_PASSWORD = "brand-new-secret"

pytestmark = pytest.mark.django_db


def sign_in(user, password: str = TEST_PASSWORD) -> dict:
    response = APIClient().post(
        "/api/token", {"email": user.email, "password": password}, format="json"
    )
    assert response.status_code == 200, response.content
    return response.json()


def me(token: str):
    return bearer(APIClient(), token).get("/api/user/me")


def refresh(token: str):
    return APIClient().post("/api/token/refresh", {"refresh": token}, format="json")


def revoke(token: str):
    return APIClient().post("/api/token/revoke", {"refresh": token}, format="json")


def assert_dead(tokens: dict) -> None:
    assert me(tokens["access"]).status_code == 401
    assert refresh(tokens["refresh"]).status_code == 401


def assert_alive(tokens: dict) -> None:
    assert me(tokens["access"]).status_code == 200


def exchange(client, user):
    """PUT /api/user/{email}: the islands' way to a token (session cookie or bearer)."""
    body = json.dumps({"email": user.email})
    response = client.put(f"/api/user/{user.email}", body, content_type="application/json")
    assert response.status_code == 200, response.content
    return response.json()["token"]


class TestLifetimes:
    def test_access_tokens_live_at_most_15_minutes(self, user, client):
        tokens = sign_in(user)
        access = AccessToken(tokens["access"])
        assert access["exp"] - access["iat"] <= 900
        client.force_login(user)
        session_token = AccessToken(exchange(client, user))
        assert session_token["exp"] - session_token["iat"] <= 900
        rotated = AccessToken(refresh(tokens["refresh"]).json()["access"])
        assert rotated["exp"] - rotated["iat"] <= 900

    def test_refresh_tokens_live_7_days(self, user):
        token = RefreshToken(sign_in(user)["refresh"])
        assert token["exp"] - token["iat"] == 7 * 24 * 3600


class TestRotation:
    def test_refresh_answers_a_new_pair_and_the_used_token_is_spent(self, user):
        first = sign_in(user)
        response = refresh(first["refresh"])
        assert response.status_code == 200
        second = response.json()
        assert set(second) == {"access", "refresh"}
        assert second["refresh"] != first["refresh"]
        assert_alive(second)
        assert refresh(second["refresh"]).status_code == 200
        assert refresh(second["refresh"]).status_code == 401  # used once only

    def test_schema_documents_the_pair(self):
        schema = SchemaGenerator().get_schema(public=True)
        answer = schema["paths"]["/api/token/refresh"]["post"]["responses"]["200"]
        ref = answer["content"]["application/json"]["schema"]["$ref"].split("/")[-1]
        assert set(schema["components"]["schemas"][ref]["required"]) == {"access", "refresh"}


class TestReuse:
    """A refresh token presented again after it was rotated: a copy is in someone else's
    hands, so its whole sign-in is revoked, not only that token."""

    def test_replaying_a_rotated_token_revokes_its_whole_sign_in(self, user):
        first = sign_in(user)
        second = refresh(first["refresh"]).json()
        third = refresh(second["refresh"]).json()
        other_device = sign_in(user)
        replay = refresh(first["refresh"])
        assert replay.status_code == 401
        assert set(replay.json()) >= {"detail"}
        # Every token descended from that sign-in, access and refresh, answers 401...
        assert_dead(third)
        assert me(second["access"]).status_code == 401
        assert me(first["access"]).status_code == 401
        # ...another sign-in of the same account keeps working.
        assert_alive(other_device)
        assert refresh(other_device["refresh"]).status_code == 200

    def test_a_rotated_token_presented_for_revocation_revokes_its_sign_in(self, user):
        first = sign_in(user)
        second = refresh(first["refresh"]).json()
        assert revoke(first["refresh"]).status_code == 401
        assert_dead(second)

    def test_a_forged_or_garbled_token_revokes_nothing(self, user):
        """Only a genuine used token counts: a used token's jti with another sign-in's family,
        signed by another key, or a used token cut short, revoke nothing."""
        first = sign_in(user)
        refresh(first["refresh"])
        other_device = sign_in(user)
        claims = {**RefreshToken(first["refresh"], verify=False).payload}
        claims[FAMILY_CLAIM] = RefreshToken(other_device["refresh"])[FAMILY_CLAIM]
        forged = jwt.encode(
            claims, "not the shop's key, but just as long as one", algorithm="HS256"
        )
        for token in (forged, first["refresh"][:-4], "not.a.token"):
            assert refresh(token).status_code == 401
        assert_alive(other_device)
        assert refresh(other_device["refresh"]).status_code == 200

    def test_a_used_token_of_a_gone_account_is_only_refused(self, user):
        first = sign_in(user)
        refresh(first["refresh"])
        user.delete()
        assert refresh(first["refresh"]).status_code == 401


class TestRevoke:
    def test_revoking_kills_the_refresh_token_and_its_access_tokens(self, user):
        tokens = sign_in(user)
        rotated = refresh(tokens["refresh"]).json()  # same family, after a rotation
        other_device = sign_in(user)
        response = revoke(rotated["refresh"])
        assert response.status_code == 200
        assert response.json() == {"revoked": True}
        assert me(tokens["access"]).status_code == 401  # minted before the rotation
        assert me(rotated["access"]).status_code == 401
        assert refresh(rotated["refresh"]).status_code == 401
        assert revoke(rotated["refresh"]).status_code == 401  # already revoked
        assert_alive(other_device)  # another sign-in is not touched
        assert refresh(other_device["refresh"]).status_code == 200

    def test_a_signup_token_can_be_revoked(self, db):
        body = {"name": "Jane", "email": "jane@example.com", "password": "hunter22"}
        tokens = APIClient().post("/api/signup", body, format="json").json()
        assert revoke(tokens["refresh"]).status_code == 200
        assert_dead(tokens)

    @pytest.mark.parametrize("token", ["not.a.token", ""])
    def test_garbage_is_401_or_400(self, db, token):
        response = revoke(token)
        assert response.status_code == (400 if token == "" else 401)
        assert response.json()

    def test_an_access_token_is_not_a_refresh_token(self, user):
        tokens = sign_in(user)
        assert revoke(tokens["access"]).status_code == 401
        assert_alive(tokens)

    def test_missing_refresh_is_400(self, db):
        response = APIClient().post("/api/token/revoke", {}, format="json")
        assert response.status_code == 400
        assert set(response.json()) == {"refresh"}

    def test_schema_documents_it(self):
        operation = SchemaGenerator().get_schema(public=True)["paths"]["/api/token/revoke"]
        assert {"200", "400", "401", "429"} <= set(operation["post"]["responses"])


class TestPasswordChange:
    def test_changing_the_password_on_the_site_kills_every_earlier_token(self, user, client):
        before, other = sign_in(user), sign_in(user)
        client.force_login(user)
        session_token = exchange(client, user)
        response = client.post(
            "/accounts/password/change/",
            {"oldpassword": TEST_PASSWORD, "password1": NEW_PASSWORD, "password2": NEW_PASSWORD},
        )
        assert response.status_code == 302, response.content
        assert_dead(before)
        assert_dead(other)
        assert me(session_token).status_code == 401
        assert_alive(sign_in(user, NEW_PASSWORD))
        assert me(exchange(client, user)).status_code == 200  # the session renews its token

    @pytest.mark.django_db(transaction=True)  # its mail is sent after the commit
    def test_resetting_the_password_kills_every_earlier_token(self, user, sent_mail):
        before = sign_in(user)
        browser = Client()
        browser.post("/accounts/password/reset/", {"email": user.email})
        link = re.search(r"https?://[^/\s]+(/accounts/password/reset/key/\S+)", sent_mail[0].body)
        form_url = browser.get(link.group(1))["Location"]
        response = browser.post(form_url, {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD})
        assert response.status_code == 302, response.content
        user.refresh_from_db()
        assert user.check_password(NEW_PASSWORD)
        assert_dead(before)
        assert_alive(sign_in(user, NEW_PASSWORD))

    def test_any_door_that_sets_the_password_counts(self, user):
        """Django admin, manage.py changepassword, a service: each saves a new hash."""
        before = sign_in(user)
        user.set_password(NEW_PASSWORD)
        user.save()
        assert_dead(before)


class TestAccountGone:
    def test_deleted_account(self, user):
        tokens = sign_in(user)
        user.delete()
        assert_dead(tokens)

    def test_deactivated_account(self, user):
        tokens = sign_in(user)
        User.objects.filter(pk=user.pk).update(is_active=False)
        assert_dead(tokens)


class TestSignOut:
    def test_signing_out_revokes_the_tokens_the_session_handed_out(self, user, client):
        client.force_login(user)
        first, second = exchange(client, user), exchange(client, user)
        other_session = Client()
        other_session.force_login(user)
        elsewhere = exchange(other_session, user)
        api_sign_in = sign_in(user)
        assert me(first).status_code == 200
        assert client.post("/logout").status_code == 302
        assert me(first).status_code == 401
        assert me(second).status_code == 401
        assert me(elsewhere).status_code == 200  # another session keeps its tokens
        assert_alive(api_sign_in)
        assert refresh(api_sign_in["refresh"]).status_code == 200

    def test_a_token_renewed_by_bearer_is_revoked_with_its_session(self, user, client):
        client.force_login(user)
        renewed = exchange(bearer(APIClient(), exchange(client, user)), user)
        client.post("/logout")
        assert me(renewed).status_code == 401

    def test_signing_in_again_gives_working_tokens(self, user, client):
        client.force_login(user)
        client.post("/logout")
        client.force_login(user)
        assert me(exchange(client, user)).status_code == 200


class TestExchange:
    def test_with_the_session_a_fresh_token(self, user, client):
        client.force_login(user)
        token = AccessToken(exchange(client, user))
        assert token["exp"] - token["iat"] == 900
        assert token[FAMILY_CLAIM]

    def test_with_a_bearer_token_never_later_than_the_one_presented(self, user):
        """A token with 8 s left never comes back as a token valid for longer."""
        presented = AccessToken.for_user(user)
        presented.set_exp(lifetime=timedelta(seconds=8))
        renewed = AccessToken(exchange(bearer(APIClient(), str(presented)), user))
        assert renewed["exp"] <= presented["exp"]
        assert renewed["jti"] != presented["jti"]

    def test_a_renewed_token_of_a_sign_in_is_revoked_with_its_refresh_token(self, user):
        tokens = sign_in(user)
        renewed = exchange(bearer(APIClient(), tokens["access"]), user)
        assert AccessToken(renewed)["exp"] <= AccessToken(tokens["access"])["exp"]
        revoke(tokens["refresh"])
        assert me(renewed).status_code == 401


def test_checking_a_token_costs_no_extra_query(user):
    """simplejwt reads the account's row; password and revoked families are on it."""
    token = sign_in(user)["access"]
    client = bearer(APIClient(), token)
    with CaptureQueriesContext(connection) as queries:
        assert client.get("/api/user/me").status_code == 200
    assert len(queries) == 1, [q["sql"] for q in queries]


def test_tokens_issued_before_this_change_answer_401(user):
    """Tokens without the password claim (as issued before) are refused, once."""
    old = RefreshToken()
    old["user_id"] = str(user.pk)
    assert me(str(old.access_token)).status_code == 401


def test_another_accounts_revocations_do_not_matter(user, other_user):
    mine, theirs = sign_in(user), sign_in(other_user)
    revoke(theirs["refresh"])
    assert_alive(mine)
