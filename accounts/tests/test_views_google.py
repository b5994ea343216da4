"""Google sign-in from the shop's pages: the button, allauth's provider flow with Google's token
endpoint answered in-process, and the failure page."""

import json
import re
import time
from urllib.parse import parse_qs, urlparse

import jwt
import pytest
import requests
from django.contrib.auth import SESSION_KEY

from accounts.models import User
from accounts.tests.factories import UserFactory

GOOGLE_OFF = "Google sign-in is not configured on this shop."
GOOGLE_LOGIN = "/accounts/google/login/"
EVIL = "https://evil.example/steal"
GOOGLE_CLIENT_ID = "cid.apps.googleusercontent.com"


def page(response) -> str:
    return response.content.decode()


def signed_in_id(client):
    return client.session.get(SESSION_KEY)


@pytest.fixture
def google_on(settings):
    """A Google app configured the way shop/settings/auth.py does it from the environment."""
    settings.SOCIALACCOUNT_PROVIDERS = {
        "google": {
            **settings.SOCIALACCOUNT_PROVIDERS["google"],
            "APPS": [{"client_id": GOOGLE_CLIENT_ID, "secret": "s3", "key": ""}],
        }
    }


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/login", "/signup"])
def test_google_button_explains_when_google_is_not_configured(client, path):
    html = page(client.get(path))
    assert re.search(
        r'(?s)<button type="button"[^>]*disabled[^>]*>.*Continue with GOOGLE</button>', html
    )
    assert GOOGLE_OFF in html
    assert GOOGLE_LOGIN not in html


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/login", "/signup"])
def test_google_button_posts_to_allauth_when_configured(client, google_on, path):
    html = page(client.get(f"{path}?next=/dashboard/review"))
    form = re.search(r'<form method="post" action="([^"]+)" data-loading>\s*<input[^>]*csrf', html)
    assert form, html
    assert form.group(1) == f"{GOOGLE_LOGIN}?process=login&amp;next=%2Fdashboard%2Freview"
    assert "Continue with GOOGLE</button>" in html
    assert GOOGLE_OFF not in html


@pytest.mark.django_db
def test_google_button_drops_an_unsafe_next(client, google_on):
    html = page(client.get(f"/login?next={EVIL}"))
    assert f'action="{GOOGLE_LOGIN}?process=login"' in html
    assert "evil.example" not in html


@pytest.mark.django_db
def test_google_button_leads_to_googles_consent_page(client, google_on):
    response = client.post(f"{GOOGLE_LOGIN}?process=login&next=/dashboard")
    assert response.status_code == 302
    assert response["Location"].startswith("https://accounts.google.com/o/oauth2/v2/auth?")
    assert f"client_id={GOOGLE_CLIENT_ID}" in response["Location"]


@pytest.mark.django_db
def test_a_get_to_googles_login_asks_for_a_click_on_our_page(client, google_on):
    response = client.get(f"{GOOGLE_LOGIN}?process=login")
    assert response.status_code == 200
    html = page(response)
    assert "Sign In Via Google" in html
    assert '<button type="submit" class="btn btn-primary w-full">Continue</button>' in html
    assert 'class="navbar' in html


@pytest.mark.django_db
def test_googles_login_url_without_google_is_the_404_page_not_an_error(client):
    for response in (client.get(GOOGLE_LOGIN), client.post(f"{GOOGLE_LOGIN}?process=login")):
        assert response.status_code == 404
        assert "WE ARE SORRY, THE PAGE YOU REQUESTED WAS NOT FOUND" in page(response)


def google_answers_the_token_request(monkeypatch, claims: dict) -> None:
    """Google's token endpoint, answered in-process: `requests` is the only thing replaced."""
    id_token = jwt.encode(claims, "a-key-signed-for-this-test-only-32b", algorithm="HS256")

    def token_endpoint(session, method, url, **kwargs):
        assert (method, url) == ("POST", "https://oauth2.googleapis.com/token")
        answer = requests.Response()
        answer.status_code = 200
        answer.headers["Content-Type"] = "application/json"
        answer._content = json.dumps(
            {"access_token": "at", "expires_in": 3599, "token_type": "Bearer", "id_token": id_token}
        ).encode()
        return answer

    monkeypatch.setattr(requests.Session, "request", token_endpoint)


def google_claims(**extra) -> dict:
    now = int(time.time())
    return {
        "iss": "https://accounts.google.com",
        "aud": GOOGLE_CLIENT_ID,
        "sub": "108",
        "email": "ada@gmail.com",
        "email_verified": True,
        "name": "Ada Rider",
        "given_name": "Ada",
        "family_name": "Rider",
        "iat": now,
        "exp": now + 300,
        **extra,
    }


def google_round_trip(client, next_url: str):
    """Press "Continue with GOOGLE", then come back from Google with a code."""
    start = client.post(f"{GOOGLE_LOGIN}?process=login&next={next_url}")
    state = parse_qs(urlparse(start["Location"]).query)["state"][0]
    return client.get(f"{GOOGLE_LOGIN}callback/", {"code": "google-code", "state": state})


@pytest.mark.django_db
def test_google_sign_in_creates_the_user_with_googles_name_and_returns(
    client, google_on, monkeypatch
):
    google_answers_the_token_request(monkeypatch, google_claims())
    response = google_round_trip(client, "/dashboard/review")
    assert response.status_code == 302
    assert response["Location"] == "/dashboard/review"
    user = User.objects.get(email="ada@gmail.com")
    assert (user.name, user.role) == ("Ada Rider", "user")
    assert signed_in_id(client) == str(user.pk)


@pytest.mark.django_db
def test_google_sign_in_joins_an_existing_account_by_email(client, google_on, monkeypatch):
    user = UserFactory(email="ada@gmail.com", name="Ada")
    google_answers_the_token_request(monkeypatch, google_claims())
    assert google_round_trip(client, "/")["Location"] == "/"
    assert signed_in_id(client) == str(user.pk)
    assert User.objects.count() == 1


@pytest.mark.django_db
def test_an_expired_google_token_is_our_failure_page(client, google_on, monkeypatch):
    google_answers_the_token_request(monkeypatch, google_claims(exp=int(time.time()) - 60))
    response = google_round_trip(client, "/")
    assert response.status_code == 401
    assert "Third-Party Login Failure" in page(response)
    assert 'class="navbar' in page(response)
    assert signed_in_id(client) is None
    assert not User.objects.exists()
