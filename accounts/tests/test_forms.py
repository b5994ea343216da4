"""allauth wiring: e-mail sign-up with a name and the shop's messages (accounts.forms,
accounts.login_forms; Google from the environment: test_selectors.py).

The pages themselves (/login, /signup: our templates) are tested in test_views_auth.py; these
tests pin what allauth does underneath them.
"""

import pytest
from allauth.account import app_settings as account_settings
from allauth.account.forms import SignupForm as AllauthSignupForm
from allauth.socialaccount.forms import SignupForm as SocialSignupForm
from allauth.socialaccount.models import SocialAccount, SocialLogin
from allauth.utils import get_form_class

from accounts.forms import SignupForm
from accounts.login_forms import LoginForm
from accounts.models import User
from accounts.tests.factories import TEST_PASSWORD, UserFactory

SIGNUP_URL = "/signup"
LOGIN_URL = "/login"


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
        ({"name": "A", "email": "", "password1": "secret1"}, "Email is required"),
        ({"name": "A", "email": "a1@example.com", "password1": ""}, "Password is required"),
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
    assert f'class="text-error text-sm">{message}</p>' in response.content.decode()
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


def test_allauth_uses_our_forms():
    assert get_form_class(account_settings.FORMS, "login", None) is LoginForm
    assert issubclass(AllauthSignupForm, SignupForm)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("allauth_url", "our_form"),
    [("/accounts/login/", 'action="/login"'), ("/accounts/signup/", 'action="/signup"')],
)
def test_allauths_own_routes_render_our_pages(client, allauth_url, our_form):
    """allauth redirects to its own routes in some flows: they show the shop's pages too."""
    html = client.get(allauth_url).content.decode()
    assert our_form in html
    assert "Continue with GOOGLE" in html


@pytest.mark.django_db
def test_google_sign_up_form_offers_googles_name_and_uses_the_spec_messages():
    google_user = User(email="ada@example.com", name="Ada Lovelace")
    login = SocialLogin(user=google_user, account=SocialAccount(provider="google", uid="1"))
    assert SocialSignupForm(sociallogin=login)["name"].value() == "Ada Lovelace"
    form = SocialSignupForm(data={"name": "", "email": ""}, sociallogin=login)
    assert form.errors == {"name": ["Name is required"], "email": ["Email is required"]}
