"""allauth wiring: e-mail sign-up with a name, the spec's messages, Google from the environment."""

import pytest
from allauth.socialaccount.adapter import get_adapter as get_social_adapter
from django.test import override_settings

from accounts.models import User
from accounts.tests.factories import TEST_PASSWORD, UserFactory

SIGNUP_URL = "/accounts/signup/"
LOGIN_URL = "/accounts/login/"


@pytest.mark.django_db
def test_signup_saves_the_display_name_and_signs_in(client):
    payload = {"name": "Ada Rider", "email": "Ada@Example.com", "password1": "secret1"}
    response = client.post(SIGNUP_URL, payload)
    assert response.status_code == 302
    user = User.objects.get()
    assert (user.email, user.name, user.role) == ("ada@example.com", "Ada Rider", "user")
    assert client.get("/api/user/me").json()["email"] == "ada@example.com"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("payload", "message"),
    [
        ({"name": "", "email": "a1@example.com", "password1": "secret1"}, "Name is required"),
        ({"name": "A", "email": "not-an-email", "password1": "secret1"}, "Provide a valid email"),
        (
            {"name": "A", "email": "a1@example.com", "password1": "12345"},
            "Must be 6 characters or longer",
        ),
    ],
)
def test_signup_form_uses_the_spec_messages(client, payload, message):
    response = client.post(SIGNUP_URL, payload)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not User.objects.exists()


@pytest.mark.django_db
def test_signup_with_a_taken_email(client):
    UserFactory(email="taken@example.com")
    payload = {"name": "B", "email": "TAKEN@example.com", "password1": "secret1"}
    response = client.post(SIGNUP_URL, payload)
    assert "An account with this email already exists" in response.content.decode()


@pytest.mark.django_db
def test_login_by_email(client):
    UserFactory(email="rider@example.com")
    response = client.post(LOGIN_URL, {"login": "Rider@Example.com", "password": TEST_PASSWORD})
    assert response.status_code == 302
    assert client.get("/api/user/me").status_code == 200


@pytest.mark.django_db
def test_google_is_off_without_credentials(rf):
    from allauth.socialaccount.models import SocialApp

    with pytest.raises(SocialApp.DoesNotExist):
        get_social_adapter().get_app(rf.get("/"), provider="google")


@pytest.mark.django_db
def test_google_is_configured_from_the_environment(rf, settings):
    google = {
        "google": {
            **settings.SOCIALACCOUNT_PROVIDERS["google"],
            "APPS": [{"client_id": "cid.apps.googleusercontent.com", "secret": "s3", "key": ""}],
        }
    }
    with override_settings(SOCIALACCOUNT_PROVIDERS=google):
        app = get_social_adapter().get_app(rf.get("/"), provider="google")
    assert app.client_id == "cid.apps.googleusercontent.com"
