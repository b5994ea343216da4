"""allauth's mails as an SMTP server on loopback receives them (tests/smtp_fake.py): their links
start with SITE_URL whatever Host the request that sent them named, and they speak in the shop's name. A reset link at the Host of the request would
hand an account to whoever forged it."""

import re

import pytest

from accounts.tests.factories import TEST_PASSWORD

# The mails go through the outbox, sent after the commit: real commits.
pytestmark = pytest.mark.django_db(transaction=True)

SITE = "https://shop.example.test"
FORGED = {"HTTP_HOST": "evil.example:6666", "HTTP_X_FORWARDED_PROTO": "https"}
LINK = re.compile(r"https?://[^\s\"<>]+")


@pytest.fixture(autouse=True)
def site(settings):
    """SITE_URL is the shop's address; ALLOWED_HOSTS lets any Host through, as a production
    set-up with a catch-all host list would."""
    settings.SITE_URL = SITE
    settings.ALLOWED_HOSTS = ["*"]
    settings.SHOP_NAME = "Throttle & Gear"


def text_of(message) -> str:
    return "\n".join(part.get_content() for part in message.walk() if not part.is_multipart())


def links_of(message) -> list[str]:
    return LINK.findall(text_of(message))


def assert_at_the_shop(message) -> None:
    """Every link at SITE_URL; no trace of the forged host nor of sites' example.com."""
    text = text_of(message)
    assert "evil.example" not in text and "example.com" not in text, text
    assert "evil.example" not in message["Subject"] and "example.com" not in message["Subject"]
    assert message["Subject"].startswith("[Throttle & Gear] ")


def shop_links(message, path: str) -> list[str]:
    return [link for link in links_of(message) if link.startswith(f"{SITE}{path}")]


def test_a_password_reset_link_is_at_site_url_and_works(client, user, mailbox):
    client.post("/accounts/password/reset/", {"email": user.email}, **FORGED)

    [message] = mailbox.wait_for(1)
    assert_at_the_shop(message)
    [link] = shop_links(message, "/accounts/password/reset/key/")
    form = client.get(link.removeprefix(SITE), follow=True)
    assert form.status_code == 200
    assert "password1" in form.content.decode()


def test_the_unknown_account_mail_links_to_sign_up_at_site_url(client, mailbox):
    client.post("/accounts/password/reset/", {"email": "nobody@example.org"}, **FORGED)

    [message] = mailbox.wait_for(1)
    assert_at_the_shop(message)
    assert shop_links(message, "/accounts/signup/")


def test_a_new_address_is_confirmed_at_site_url(client, user, mailbox):
    client.force_login(user)
    client.post("/accounts/email/", {"email": "new@example.org", "action_add": ""}, **FORGED)

    [message] = mailbox.wait_for(1)
    assert message["To"] == "new@example.org"
    assert_at_the_shop(message)
    assert shop_links(message, "/accounts/confirm-email/")


def test_the_sign_up_confirmation_is_at_site_url(client, mailbox, settings):
    settings.ACCOUNT_EMAIL_VERIFICATION = "optional"
    signup = {"name": "Ada", "email": "ada@example.org", "password1": TEST_PASSWORD}
    assert client.post("/signup", signup, **FORGED).status_code == 302

    [message] = mailbox.wait_for(1)
    assert_at_the_shop(message)
    assert shop_links(message, "/accounts/confirm-email/")
