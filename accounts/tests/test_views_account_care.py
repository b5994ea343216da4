"""Account care: password reset and change, e-mail change with verification,
plain-ASCII addresses only, and allauth's pages in the shop's layout."""

import re

import pytest
from allauth.account.forms import default_token_generator
from allauth.account.models import EmailAddress
from allauth.account.utils import user_pk_to_url_str
from django.core.exceptions import ValidationError
from rest_framework.test import APIClient

from accounts.models import User
from accounts.tests.factories import TEST_PASSWORD, UserFactory
from accounts.validators import EMAIL_NOT_ASCII, EMAIL_TAKEN, validate_shop_email

pytestmark = pytest.mark.django_db

RESET_URL = "/accounts/password/reset/"
EMAIL_URL = "/accounts/email/"
LOOK_ALIKE = "admin@example.com.\u0430ttacker.xyz"  # a Cyrillic "а"


def signs_in(email: str, password: str = TEST_PASSWORD) -> bool:
    response = APIClient().post("/api/token", {"email": email, "password": password}, format="json")
    return response.status_code == 200


def page_signs_in(client, email: str) -> bool:
    response = client.post("/login", {"login": email, "password": TEST_PASSWORD})
    return response.status_code == 302


def confirm_link(mail) -> str:
    return re.search(r"https?://[^/\s]+(/accounts/confirm-email/[^\s]+/)", mail.body).group(1)


class TestPasswordReset:
    def test_answers_the_same_for_known_and_unknown_addresses(self, client, user):
        known = client.post(RESET_URL, {"email": user.email})
        unknown = client.post(RESET_URL, {"email": "nobody@example.com"})
        assert (known.status_code, known["Location"]) == (unknown.status_code, unknown["Location"])
        assert known.status_code == 302
        known_page = client.get(known["Location"])
        unknown_page = client.get(unknown["Location"])
        assert known_page.status_code == unknown_page.status_code == 200
        assert known_page.content == unknown_page.content
        assert b"not assigned to any user account" not in unknown_page.content

    @pytest.mark.django_db(transaction=True)  # its mail is sent after the commit
    def test_the_account_owner_gets_the_link_and_can_set_a_password(self, client, user, sent_mail):
        client.post(RESET_URL, {"email": user.email})
        assert [m.to for m in sent_mail] == [[user.email]]
        link = re.search(r"https?://[^/\s]+(/accounts/password/reset/key/\S+/)", sent_mail[0].body)
        form = client.get(link.group(1), follow=True)
        assert form.status_code == 200
        done = client.post(
            form.redirect_chain[-1][0] if form.redirect_chain else link.group(1),
            {"password1": "brand-new-1", "password2": "brand-new-1"},
        )
        assert done.status_code == 302
        assert signs_in(user.email, "brand-new-1")

    def test_sign_up_still_says_the_address_is_taken(self, client, user):
        response = client.post(
            "/signup", {"name": "Copy", "email": user.email, "password1": "secret1"}
        )
        assert response.status_code == 200
        assert EMAIL_TAKEN in response.content.decode()
        assert User.objects.filter(email=user.email).count() == 1


class TestEmailChange:
    @pytest.mark.django_db(transaction=True)  # its mail is sent after the commit
    def test_the_new_address_counts_only_once_verified(self, client, user, sent_mail):
        old = user.email
        client.force_login(user)
        response = client.post(EMAIL_URL, {"email": "New@Example.com", "action_add": ""})
        assert response.status_code == 302
        user.refresh_from_db()
        assert user.email == old
        assert [m.to for m in sent_mail] == [["new@example.com"]]
        assert signs_in(old)
        assert not signs_in("new@example.com")
        assert not page_signs_in(APIClient(), "new@example.com")

        link = confirm_link(sent_mail[0])
        confirm = client.get(link)
        assert confirm.status_code == 200
        assert client.post(link).status_code == 302

        user.refresh_from_db()
        assert user.email == "new@example.com"
        assert signs_in("new@example.com")
        assert not signs_in(old)
        assert list(EmailAddress.objects.filter(user=user).values_list("email", flat=True)) == [
            "new@example.com"
        ]

    @pytest.mark.django_db(transaction=True)  # its mail is sent after the commit
    def test_a_second_request_replaces_the_first_and_keeps_the_account_address(
        self, client, user, sent_mail
    ):
        old = user.email
        client.force_login(user)
        assert client.get(EMAIL_URL).status_code == 200
        client.post(EMAIL_URL, {"email": "first@example.com", "action_add": ""})
        client.post(EMAIL_URL, {"email": "second@example.com", "action_add": ""})
        page = client.get(EMAIL_URL).content.decode()
        assert 'value="second@example.com"' in page and 'value="first@example.com"' not in page
        assert set(EmailAddress.objects.filter(user=user).values_list("email", flat=True)) == {
            old,
            "second@example.com",
        }
        assert client.post(confirm_link(sent_mail[0])).status_code == 404  # the first: gone
        user.refresh_from_db()
        assert user.email == old
        client.post(confirm_link(sent_mail[1]))
        user.refresh_from_db()
        assert user.email == "second@example.com"

    def test_a_pending_address_cannot_be_made_the_sign_in_address(self, client, user):
        """allauth's "Make primary" would take an address never verified (the account has no
        verified one): refused, the account's own address stays its sign-in address."""
        old = user.email
        client.force_login(user)
        client.post(EMAIL_URL, {"email": "not-mine@example.org", "action_add": ""})
        response = client.post(
            EMAIL_URL, {"email": "not-mine@example.org", "action_primary": ""}, follow=True
        )
        assert "Your primary email address must be verified." in response.content.decode()
        user.refresh_from_db()
        assert user.email == old
        assert signs_in(old)
        assert not signs_in("not-mine@example.org")
        assert not EmailAddress.objects.get(email="not-mine@example.org").primary

    def test_a_verified_address_is_still_made_primary_as_allauth_does(self, client, user):
        EmailAddress.objects.filter(user=user).update(primary=False)
        EmailAddress.objects.create(user=user, email="two@example.com", verified=True)
        client.force_login(user)
        client.post(EMAIL_URL, {"email": "two@example.com", "action_primary": ""})
        user.refresh_from_db()
        assert user.email == "two@example.com"

    def test_someone_elses_address_never_becomes_yours_unverified(self, client, user):
        ceo = UserFactory(email="ceo@bigcorp.com")
        client.force_login(user)
        response = client.post(EMAIL_URL, {"email": "ceo@bigcorp.com", "action_add": ""})
        assert EMAIL_TAKEN in response.content.decode()
        user.refresh_from_db()
        assert user.email != "ceo@bigcorp.com"
        assert not signs_in("ceo@bigcorp.com", TEST_PASSWORD + "x")
        # The address still signs in to its owner's account only.
        token = APIClient().post(
            "/api/token", {"email": "ceo@bigcorp.com", "password": TEST_PASSWORD}, format="json"
        )
        me = APIClient()
        me.credentials(HTTP_AUTHORIZATION=f"Bearer {token.json()['access']}")
        assert me.get("/api/user/me").json()["_id"] == ceo.pk

    def test_a_look_alike_address_is_refused(self, client, user, mailoutbox):
        client.force_login(user)
        response = client.post(EMAIL_URL, {"email": LOOK_ALIKE, "action_add": ""})
        assert response.status_code == 200
        assert EMAIL_NOT_ASCII in response.content.decode()
        assert not mailoutbox
        assert not EmailAddress.objects.filter(email__icontains="ttacker").exists()


class TestPlainAsciiAddresses:
    @pytest.mark.parametrize(
        "email", [LOOK_ALIKE, "r\u00f6der@example.com", "ada@ex\u00e4mple.com"]
    )
    def test_the_rule(self, email):
        with pytest.raises(ValidationError, match=re.escape(EMAIL_NOT_ASCII)):
            validate_shop_email(email)

    def test_sign_up_page(self, client):
        response = client.post(
            "/signup", {"name": "Mallory", "email": LOOK_ALIKE, "password1": "secret1"}
        )
        assert response.status_code == 200
        assert EMAIL_NOT_ASCII in response.content.decode()
        assert not User.objects.exists()

    def test_api_sign_up(self):
        response = APIClient().post(
            "/api/signup",
            {"name": "Mallory", "email": LOOK_ALIKE, "password": "secret1"},
            format="json",
        )
        assert (response.status_code, response.json()) == (400, {"email": [EMAIL_NOT_ASCII]})
        assert not User.objects.exists()

    def test_django_admin_user_form(self, staff_client):
        response = staff_client.post(
            "/admin/accounts/user/add/",
            {
                "email": LOOK_ALIKE,
                "name": "Mallory",
                "role": "user",
                "usable_password": "true",
                "password1": "secret123x",
                "password2": "secret123x",
            },
        )
        assert response.status_code == 200
        assert EMAIL_NOT_ASCII in response.content.decode()
        assert not User.objects.filter(name="Mallory").exists()


class TestLinks:
    def test_login_offers_forgot_password(self, client):
        html = client.get("/login").content.decode()
        assert (
            '<a class="link link-primary" href="/accounts/password/reset/">Forgot password?</a>'
            in html
        )

    def test_my_profile_offers_change_password(self, client, user):
        client.force_login(user)
        html = client.get("/dashboard/profile").content.decode()
        assert 'href="/accounts/password/change/">Change password</a>' in html
        assert 'href="/accounts/email/">Change email</a>' in html


SIGNED_OUT_PAGES = [
    RESET_URL,
    "/accounts/password/reset/done/",
    "/accounts/password/reset/key/1-not-a-key/",
    "/accounts/password/reset/key/done/",
    "/accounts/confirm-email/not-a-key/",
    "/accounts/confirm-email/",
]
SIGNED_IN_PAGES = ["/accounts/password/change/", EMAIL_URL, "/logout", "/accounts/logout/"]


def assert_in_shop_layout(response):
    html = response.content.decode()
    assert response.status_code == 200
    assert '<header class="navbar' in html
    assert "<footer" in html
    assert 'href="/static/dist/app.css"' in html
    assert '<h1 class="text-3xl font-bold text-center">' in html


class TestLayout:
    @pytest.mark.parametrize("url", SIGNED_OUT_PAGES)
    def test_signed_out_pages(self, client, url):
        assert_in_shop_layout(client.get(url))

    @pytest.mark.parametrize("url", SIGNED_IN_PAGES)
    def test_signed_in_pages(self, client, user, url):
        client.force_login(user)
        assert_in_shop_layout(client.get(url))

    def test_reset_from_a_valid_key(self, client, user):
        key = default_token_generator.make_token(user)
        response = client.get(
            f"/accounts/password/reset/key/{user_pk_to_url_str(user)}-{key}/", follow=True
        )
        assert_in_shop_layout(response)
        assert b'name="password1"' in response.content
        assert b'class="input w-full"' in response.content

    @pytest.mark.django_db(transaction=True)  # its mail is sent after the commit
    def test_the_confirm_page_of_a_real_key(self, client, user, sent_mail):
        client.force_login(user)
        client.post(EMAIL_URL, {"email": "fresh@example.com", "action_add": ""})
        assert_in_shop_layout(client.get(confirm_link(sent_mail[0])))

    def test_the_too_many_attempts_page(self, client, settings):
        settings.ACCOUNT_RATE_LIMITS = {"reset_password": "1/m/ip"}
        client.post(RESET_URL, {"email": "a1@example.com"})
        response = client.post(RESET_URL, {"email": "a2@example.com"})
        assert response.status_code == 429
        html = response.content.decode()
        assert '<header class="navbar' in html and "<footer" in html
