"""Sign-in pages: /login, /signup, /logout, their messages, and the guards of other pages
(Google sign-in: test_views_google.py)."""

import re

import pytest
from django.contrib.auth import SESSION_KEY

from accounts.models import User
from accounts.tests.factories import TEST_PASSWORD, UserFactory

AUTH_FAILED = "The email address and/or password you specified are not correct."
EVIL = "https://evil.example/steal"


def page(response) -> str:
    return response.content.decode()


def field_errors(response) -> dict[str, str]:
    """The red messages printed under each field: {field id: text}."""
    found = re.findall(
        r'<p id="id_(\w+)_error" class="text-error text-sm">(.*?)</p>', page(response), re.S
    )
    return {name: text.strip() for name, text in found}


def form_error(response) -> str:
    """The form's own red message under the fields (allauth's authentication failure)."""
    match = re.search(r'<p class="text-error text-sm" role="alert"[^>]*>(.*?)</p>', page(response))
    return match.group(1).strip() if match else ""


def signed_in_id(client):
    return client.session.get(SESSION_KEY)


# --- /login -----------------------------------------------------------------------------


@pytest.mark.django_db
def test_login_page_has_the_spec_fields_buttons_and_links(client):
    response = client.get("/login")
    html = page(response)
    assert response.status_code == 200
    assert '<label class="fieldset-legend text-sm" for="id_login">Email</label>' in html
    assert '<label class="fieldset-legend text-sm" for="id_password">Password</label>' in html
    assert 'type="email"' in html and 'type="password"' in html
    assert '<button type="submit" class="btn btn-primary w-full mt-2">Login</button>' in html
    assert (
        '<a class="link link-primary font-semibold" href="/signup">Create New Account</a>' in html
    )
    assert "Continue with GOOGLE" in html
    form = re.search(r'<form method="post" action="/login"([^>]*)>', html).group(1)
    assert "novalidate" in form and "data-loading" in form
    assert "Remember" not in html


@pytest.mark.django_db
def test_login_page_keeps_next_in_its_form_and_the_signup_link(client):
    html = page(client.get("/login?next=/dashboard/myorder"))
    assert '<input type="hidden" name="next" value="/dashboard/myorder">' in html
    assert 'href="/signup?next=%2Fdashboard%2Fmyorder">Create New Account</a>' in html


@pytest.mark.django_db
def test_login_page_drops_an_unsafe_next(client):
    html = page(client.get(f"/login?next={EVIL}"))
    assert "evil.example" not in html
    assert 'href="/signup">Create New Account</a>' in html


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("payload", "expected"),
    [
        (
            {"login": "", "password": ""},
            {"login": "Email is required", "password": "Password is required"},
        ),
        ({"login": "   ", "password": "secret1"}, {"login": "Email is required"}),
        (
            {"login": "   ", "password": "x"},
            {"login": "Email is required", "password": "Must be 6 characters or longer"},
        ),
        (
            {"login": "rider@example.com", "password": "12345"},
            {"password": "Must be 6 characters or longer"},
        ),
        ({"login": "not-an-email", "password": "secret1"}, {"login": "Provide a valid email"}),
        ({"login": "rider@example", "password": "secret1"}, {"login": "Provide a valid email"}),
        (
            {"login": "rider@exa_mple.com", "password": "secret1"},
            {"login": "Provide a valid email"},
        ),
        ({"login": "rider@example.com", "password": ""}, {"password": "Password is required"}),
    ],
)
def test_login_messages_are_shown_under_their_fields(client, payload, expected):
    response = client.post("/login", payload)
    assert response.status_code == 200
    assert field_errors(response) == expected
    assert form_error(response) == ""
    assert signed_in_id(client) is None


@pytest.mark.django_db
def test_login_keeps_the_typed_email_but_never_the_password(client):
    html = page(client.post("/login", {"login": "not-an-email", "password": "hunter22"}))
    assert 'value="not-an-email"' in html
    assert "hunter22" not in html


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("email", "password"),
    [("rider@example.com", "wrong-password"), ("nobody@example.com", TEST_PASSWORD)],
    ids=["wrong password", "unknown e-mail"],
)
def test_login_failure_shows_allauths_message_in_red_under_the_fields(client, email, password):
    UserFactory(email="rider@example.com")
    response = client.post("/login", {"login": email, "password": password})
    assert response.status_code == 200
    assert form_error(response) == AUTH_FAILED
    html = page(response)
    assert html.index('id="id_password"') < html.index(AUTH_FAILED)
    assert signed_in_id(client) is None


@pytest.mark.django_db
def test_login_success_goes_home_and_signs_in(client):
    user = UserFactory(email="rider@example.com")
    response = client.post("/login", {"login": " Rider@Example.com ", "password": TEST_PASSWORD})
    assert response.status_code == 302
    assert response["Location"] == "/"
    assert signed_in_id(client) == str(user.pk)
    assert f'data-user-email="{user.email}"' in page(client.get("/"))


@pytest.mark.django_db
def test_login_success_returns_to_the_page_the_guard_came_from(client):
    UserFactory(email="rider@example.com")
    guarded = client.get("/dashboard/myorder")
    assert guarded["Location"] == "/login?next=/dashboard/myorder"
    payload = {
        "login": "rider@example.com",
        "password": TEST_PASSWORD,
        "next": "/dashboard/myorder",
    }
    response = client.post(guarded["Location"], payload)
    assert response["Location"] == "/dashboard/myorder"
    assert client.get("/dashboard/myorder").status_code == 200


@pytest.mark.django_db
def test_login_with_next_only_in_the_query_string(client):
    UserFactory(email="rider@example.com")
    response = client.post(
        "/login?next=/dashboard/review", {"login": "rider@example.com", "password": TEST_PASSWORD}
    )
    assert response["Location"] == "/dashboard/review"


@pytest.mark.django_db
def test_login_does_not_follow_an_unsafe_next(client):
    UserFactory(email="rider@example.com")
    payload = {"login": "rider@example.com", "password": TEST_PASSWORD, "next": EVIL}
    response = client.post(f"/login?next={EVIL}", payload)
    assert response.status_code == 302
    assert response["Location"] == "/"
    assert signed_in_id(client) is not None


# --- /signup ----------------------------------------------------------------------------


@pytest.mark.django_db
def test_signup_page_has_the_spec_fields_buttons_and_links(client):
    response = client.get("/signup")
    html = page(response)
    assert response.status_code == 200
    for field_id, label in (
        ("id_name", "Name"),
        ("id_email", "Email"),
        ("id_password1", "Password"),
    ):
        assert f'<label class="fieldset-legend text-sm" for="{field_id}">{label}</label>' in html
    assert '<button type="submit" class="btn btn-primary w-full mt-2">Sign Up</button>' in html
    assert (
        'Already have an account? <a class="link link-primary font-semibold" href="/login">Login</a>'
        in html
    )
    assert "Continue with GOOGLE" in html
    form = re.search(r'<form method="post" action="/signup"([^>]*)>', html).group(1)
    assert "novalidate" in form and "data-loading" in form


@pytest.mark.django_db
def test_signup_page_keeps_a_safe_next_only(client):
    html = page(client.get("/signup?next=/purchaseintent/3"))
    assert '<input type="hidden" name="next" value="/purchaseintent/3">' in html
    assert 'href="/login?next=%2Fpurchaseintent%2F3">Login</a>' in html
    assert "evil.example" not in page(client.get(f"/signup?next={EVIL}"))


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("payload", "expected"),
    [
        (
            {"name": "", "email": "", "password1": ""},
            {
                "name": "Name is required",
                "email": "Email is required",
                "password1": "Password is required",
            },
        ),
        (
            {"name": "Ada", "email": "ada@", "password1": "secret1"},
            {"email": "Provide a valid email"},
        ),
        (
            {"name": "Ada", "email": "ada@example.c", "password1": "secret1"},
            {"email": "Provide a valid email"},
        ),
        (
            {"name": "Ada", "email": "ada@example.com", "password1": "12345"},
            {"password1": "Must be 6 characters or longer"},
        ),
        (
            {"name": "  ", "email": "ada@example.com", "password1": "secret1"},
            {"name": "Name is required"},
        ),
    ],
)
def test_signup_messages_are_shown_under_their_fields(client, payload, expected):
    response = client.post("/signup", payload)
    assert response.status_code == 200
    assert field_errors(response) == expected
    assert not User.objects.exists()
    assert signed_in_id(client) is None


@pytest.mark.django_db
def test_signup_with_a_taken_email_says_so_under_the_email(client):
    UserFactory(email="taken@example.com")
    payload = {"name": "B", "email": "TAKEN@example.com", "password1": "secret1"}
    response = client.post("/signup", payload)
    assert field_errors(response) == {"email": "An account with this email already exists"}
    assert User.objects.count() == 1


@pytest.mark.django_db
def test_signup_creates_the_user_signs_in_and_goes_home(client):
    payload = {"name": "Ada Rider", "email": " Ada@Example.com", "password1": "secret1"}
    response = client.post("/signup", payload)
    assert response.status_code == 302
    assert response["Location"] == "/"
    user = User.objects.get()
    assert (user.email, user.name, user.role) == ("ada@example.com", "Ada Rider", "user")
    assert user.check_password("secret1")
    assert signed_in_id(client) == str(user.pk)
    assert "Ada Rider (Sign Out)" in page(client.get("/"))


@pytest.mark.django_db
def test_signup_returns_to_a_safe_next_only(client):
    payload = {"name": "Ada", "email": "ada@example.com", "password1": "secret1"}
    assert client.post("/signup?next=/dashboard/review", payload)["Location"] == "/dashboard/review"
    other = {"name": "Bo", "email": "bo@example.com", "password1": "secret1", "next": EVIL}
    client.logout()
    assert client.post("/signup", other)["Location"] == "/"


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/signup", "/login", "/signup/", "/login/"])
def test_a_signed_in_user_is_sent_home(client, user, path):
    client.force_login(user)
    response = client.get(path)
    assert response.status_code == 302
    assert response["Location"] == "/"


# --- Sign out ---------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_navbar_signs_out_with_a_post_to_logout(client, user):
    client.force_login(user)
    html = page(client.get("/"))
    assert re.search(r'<form id="signout" method="post" action="/logout" data-signout', html)
    button = f'<button type="submit" form="signout">{user.get_short_name()} (Sign Out)</button>'
    assert button in html


@pytest.mark.django_db
def test_sign_out_ends_the_session_and_goes_home(client, user):
    client.force_login(user)
    response = client.post("/logout")
    assert response.status_code == 302
    assert response["Location"] == "/"
    assert signed_in_id(client) is None
    html = page(client.get("/"))
    assert 'data-user-email=""' in html
    assert '<a href="/login">Login</a>' in html
    assert client.get("/dashboard")["Location"] == "/login?next=/dashboard"


@pytest.mark.django_db
def test_a_get_to_logout_asks_first(client, user):
    client.force_login(user)
    response = client.get("/logout")
    assert response.status_code == 200
    html = page(response)
    assert "Are you sure you want to sign out?" in html
    assert re.search(r'<form method="post" action="/logout" data-signout data-loading>', html)
    assert '<button type="submit" class="btn btn-primary w-full">Sign Out</button>' in html
    assert signed_in_id(client) == str(user.pk)


@pytest.mark.django_db
def test_a_get_to_logout_when_signed_out_goes_home(client):
    response = client.get("/logout")
    assert response.status_code == 302
    assert response["Location"] == "/"


# --- Guards -----------------------------------------------------------------------------

SIGNED_IN_PAGES = [
    "/dashboard",
    "/dashboard/profile",
    "/dashboard/review",
    "/dashboard/myorder",
    "/dashboard/payment/1",
    "/purchaseintent/1",
]
ADMIN_PAGES = [
    "/dashboard/manageorders",
    "/dashboard/manageparts",
    "/dashboard/addparts",
    "/dashboard/users",
]


@pytest.mark.django_db
@pytest.mark.parametrize("path", SIGNED_IN_PAGES + ADMIN_PAGES)
def test_anonymous_visitors_go_to_login_remembering_the_page(client, path):
    response = client.get(path)
    assert response.status_code == 302
    assert response["Location"] == f"/login?next={path}"


@pytest.mark.django_db
@pytest.mark.parametrize("path", ADMIN_PAGES)
def test_a_non_admin_on_an_admin_page_is_signed_out_and_sent_to_login(client, user, path):
    client.force_login(user)
    response = client.get(path)
    assert response.status_code == 302
    assert response["Location"] == "/login"
    assert signed_in_id(client) is None
    assert 'data-user-email=""' in page(client.get("/login"))


@pytest.mark.django_db
@pytest.mark.parametrize("path", ADMIN_PAGES)
def test_an_admin_opens_admin_pages(client, admin_user, path):
    client.force_login(admin_user)
    assert client.get(path).status_code == 200
    assert signed_in_id(client) == str(admin_user.pk)
