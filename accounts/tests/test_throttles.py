"""Abuse limits of sign-in, sign-up, tokens and password resets: pages (allauth's rate limits)
and API (DRF throttles). Each limit trips with a 429 and a clear message, another IP or account
is not affected, and the limit is gone once its counters are (here: the cache cleared).

The loops use the rates in force (settings), so changing a rate keeps these tests true."""

import re

import pytest
from django.conf import settings
from django.core.cache import cache
from django.test import Client
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient

from accounts.tests.factories import TEST_PASSWORD, UserFactory

THROTTLED = re.compile(r"^Request was throttled\. Expected available in \d+ seconds?\.$")
TOO_MANY_PAGE = "Too many attempts. Please wait a minute and try again."
TOO_MANY_LOGINS = "Too many failed login attempts. Try again later."
WRONG_LOGIN = "The email address and/or password you specified are not correct."
IP_A, IP_B, IP_C = "198.51.100.1", "198.51.100.2", "198.51.100.3"

pytestmark = pytest.mark.django_db


def api_rate(scope: str) -> int:
    """How many requests the API scope allows in its period."""
    return int(settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"][scope].split("/")[0])


def page_rate(action: str, per: str) -> int:
    """How many attempts allauth's `action` allows per `per` (ip or key)."""
    for rate in settings.ACCOUNT_RATE_LIMITS[action].split(","):
        amount, _, *rest = rate.split("/")
        if (rest[0] if rest else "ip") == per:
            return int(amount)
    raise LookupError(f"{action} has no per-{per} rate")


def from_ip(ip: str) -> APIClient:
    return APIClient(REMOTE_ADDR=ip)


def assert_throttled(response) -> None:
    assert response.status_code == 429, response.content
    assert THROTTLED.match(response.json()["detail"]), response.json()
    assert int(response["Retry-After"]) > 0


def signup(client, n: int):
    body = {"name": f"Rider {n}", "email": f"rider{n}@example.com", "password": "abcdef"}
    return client.post("/api/signup", body, format="json")


def token(client, email: str, password: str = TEST_PASSWORD):
    return client.post("/api/token", {"email": email, "password": password}, format="json")


class TestApiSignup:
    def test_signups_per_ip_are_limited_and_reset(self):
        client = from_ip(IP_A)
        for n in range(api_rate("signup")):
            assert signup(client, n).status_code == 201
        assert_throttled(signup(client, 1000))
        assert signup(from_ip(IP_B), 1001).status_code == 201
        cache.clear()
        assert signup(client, 1002).status_code == 201


@pytest.fixture
def lax_per_ip(settings):
    """The API's per-address failure limit raised, so that only the per-pair one trips."""
    rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {**rates, "login_failed": "1000/minute", "token": "1000/minute"},
    }


class TestApiToken:
    def test_sign_ins_per_ip_are_limited(self, user):
        client = from_ip(IP_A)
        for _ in range(api_rate("token")):
            assert token(client, user.email).status_code == 200
        assert_throttled(token(client, user.email))
        assert token(from_ip(IP_B), user.email).status_code == 200
        cache.clear()
        assert token(client, user.email).status_code == 200

    def test_failed_sign_ins_per_ip_lock_that_ip_out(self, user, other_user):
        client = from_ip(IP_A)
        for _ in range(api_rate("login_failed")):
            assert token(client, user.email, "wrong-password").status_code == 401
        # Now even the right password (and another account) is refused from this IP...
        assert_throttled(token(client, user.email))
        assert_throttled(token(client, other_user.email))
        # ...but not from another one, nor once the counters are gone.
        assert token(from_ip(IP_B), user.email).status_code == 200
        cache.clear()
        assert token(client, user.email).status_code == 200

    def test_successful_sign_ins_do_not_count_as_failures(self, user):
        client = from_ip(IP_A)
        for _ in range(api_rate("login_failed") + 2):
            assert token(client, user.email).status_code == 200
        assert token(client, user.email, "wrong-password").status_code == 401

    def test_failures_from_another_address_never_lock_the_owner_out(self, user, lax_per_ip):
        """20 failures from A for an e-mail never block its owner at another address."""
        attacker = from_ip(IP_A)
        for _ in range(20):
            assert token(attacker, user.email, "wrong-password").status_code == 401
        assert_throttled(token(attacker, user.email))  # A is throttled...
        assert token(from_ip(IP_B), user.email).status_code == 200  # ...the owner at B is not

    def test_failures_per_account_and_address_lock_that_pair(self, user, other_user, lax_per_ip):
        """With the per-address limit out of the way, the (account, address) pair trips."""
        client = from_ip(IP_A)
        for _ in range(api_rate("login_failed_account")):
            assert token(client, user.email, "wrong-password").status_code == 401
        # The pair is locked (the address is compared normalized)...
        assert_throttled(token(client, user.email.upper()))
        # ...not the account from another address, nor another account from this one.
        assert token(from_ip(IP_B), user.email).status_code == 200
        assert token(client, other_user.email).status_code == 200
        cache.clear()
        assert token(client, user.email).status_code == 200


class TestApiTokenRefresh:
    def test_refreshes_per_ip_are_limited(self, user):
        refresh = token(from_ip(IP_C), user.email).json()["refresh"]
        client = from_ip(IP_A)
        for _ in range(api_rate("token_refresh")):
            response = client.post("/api/token/refresh", {"refresh": refresh}, format="json")
            assert response.status_code == 200
            refresh = response.json()["refresh"]  # each refresh token is used once
        assert_throttled(client.post("/api/token/refresh", {"refresh": refresh}, format="json"))
        other = from_ip(IP_B).post("/api/token/refresh", {"refresh": refresh}, format="json")
        assert other.status_code == 200


@pytest.mark.parametrize("path", ["/api/signup", "/api/token", "/api/token/refresh"])
def test_schema_documents_the_429(path):
    operation = SchemaGenerator().get_schema(public=True)["paths"][path]["post"]
    assert "429" in operation["responses"]


# --- Pages (allauth) ---------------------------------------------------------------------


def page_text(response) -> str:
    return re.sub(r"\s+", " ", response.content.decode())


def login_page(client, email: str, password: str):
    return client.post("/login", {"login": email, "password": password})


class TestLoginPage:
    def test_failed_sign_ins_per_ip_answer_429_with_the_form(self, client):
        for n in range(page_rate("login_failed", "ip")):
            response = login_page(client, f"nobody{n}@example.com", "wrong-password")
            assert response.status_code == 200
            assert WRONG_LOGIN in page_text(response)
        response = login_page(client, "nobody@example.com", "wrong-password")
        assert response.status_code == 429
        assert int(response["Retry-After"]) > 0
        assert TOO_MANY_LOGINS in page_text(response)
        assert 'name="password"' in page_text(response)  # the form is still there
        other = login_page(Client(REMOTE_ADDR=IP_B), "nobody@example.com", "x" * 6)
        assert other.status_code == 200
        cache.clear()
        assert login_page(client, "nobody@example.com", "wrong-password").status_code == 200

    def test_failures_from_another_address_never_lock_the_owner_out(self, user):
        attacker = Client(REMOTE_ADDR=IP_A)
        for _ in range(20):
            assert login_page(attacker, user.email, "wrong-password").status_code in (200, 429)
        locked = login_page(attacker, user.email, TEST_PASSWORD)  # A is throttled...
        assert locked.status_code == 429
        assert TOO_MANY_LOGINS in page_text(locked)
        assert int(locked["Retry-After"]) > 0
        owner = login_page(Client(REMOTE_ADDR=IP_B), user.email, TEST_PASSWORD)
        assert owner.status_code == 302  # ...the owner at B signs in

    def test_failed_sign_ins_per_account_and_address_lock_that_pair(self, user, settings):
        settings.ACCOUNT_RATE_LIMITS = {**settings.ACCOUNT_RATE_LIMITS}
        per_key = page_rate("login_failed", "key")
        settings.ACCOUNT_RATE_LIMITS["login_failed"] = f"1000/m/ip,{per_key}/5m/key"
        client = Client(REMOTE_ADDR=IP_A)
        for _ in range(per_key):
            assert login_page(client, user.email, "wrong-password").status_code == 200
        locked = login_page(client, user.email, TEST_PASSWORD)
        assert locked.status_code == 429
        assert TOO_MANY_LOGINS in page_text(locked)
        assert int(locked["Retry-After"]) > 0
        other = UserFactory()
        assert login_page(client, other.email, TEST_PASSWORD).status_code == 302
        owner = login_page(Client(REMOTE_ADDR=IP_B), user.email, TEST_PASSWORD)
        assert owner.status_code == 302

    def test_sign_in_posts_per_ip_answer_the_429_page(self, client):
        for _ in range(page_rate("login", "ip")):
            assert login_page(client, "", "").status_code == 200  # blank: never authenticates
        response = login_page(client, "", "")
        assert response.status_code == 429
        assert int(response["Retry-After"]) > 0
        assert TOO_MANY_PAGE in page_text(response)
        assert settings.SHOP_NAME.replace("&", "&amp;") in page_text(response)  # our layout
        assert login_page(Client(REMOTE_ADDR=IP_B), "", "").status_code == 200
        cache.clear()
        assert login_page(client, "", "").status_code == 200


class TestSignupPage:
    def signup_page(self, client, n: int):
        return client.post("/signup", {"name": "Rider", "email": f"page{n}@example.com"})

    def test_sign_ups_per_ip_answer_the_429_page(self, client):
        for n in range(page_rate("signup", "ip")):
            assert self.signup_page(client, n).status_code == 200  # no password: form errors
        response = self.signup_page(client, 100)
        assert response.status_code == 429
        assert TOO_MANY_PAGE in page_text(response)
        assert self.signup_page(Client(REMOTE_ADDR=IP_B), 101).status_code == 200
        cache.clear()
        assert self.signup_page(client, 102).status_code == 200


class TestPasswordResetPage:
    URL = "/accounts/password/reset/"

    @pytest.mark.django_db(transaction=True)  # its mail is sent after the commit
    def test_resets_per_address_answer_the_429_page(self, client, user, other_user, sent_mail):
        for _ in range(page_rate("reset_password", "key")):
            assert client.post(self.URL, {"email": user.email}).status_code == 302
        response = client.post(self.URL, {"email": user.email})
        assert response.status_code == 429
        assert TOO_MANY_PAGE in page_text(response)
        assert len(sent_mail) == page_rate("reset_password", "key")
        assert client.post(self.URL, {"email": other_user.email}).status_code == 302
        cache.clear()
        assert client.post(self.URL, {"email": user.email}).status_code == 302
