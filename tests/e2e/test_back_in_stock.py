"""Back in stock in Chromium (BEYOND.md "Riders' word"): on an out-of-stock part's page a
visitor asks "Email me when it's back" with their e-mail and starts the alert from the link
mailed to them, a signed-in rider asks with one click; Manage Parts shows "2 waiting"; the
owner adds stock there ("Adjust stock") and each gets exactly one "Back in stock: …" mail;
adding stock again sends none."""

import re
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from accounts.tests.factories import AdminFactory, UserFactory
from catalog.models import StockAlert
from catalog.tests.factories import PartFactory
from core import background
from tests.e2e.conftest import shot, sign_in

pytestmark = pytest.mark.sqlite  # a journey `make test-sqlite` runs on SQLite too

SUBJECT = "Back in stock: Fork seal kit"


def back_mails(mailbox, address: str) -> list:
    assert background.wait_idle(timeout=20)
    return [m for m in mailbox.to(address) if m["Subject"] == SUBJECT]


def confirm_link(message) -> str:
    text = message.get_body(preferencelist=("plain",)).get_content()
    url = re.search(r"https?://\S+/alerts/confirm/\S+", text).group(0)
    return urlsplit(url).path


def test_riders_ask_and_get_one_mail_when_the_owner_adds_stock(site, mailbox):
    part = PartFactory(name="Fork seal kit", available_quantity=1, minimum_order_quantity=2)
    rider = UserFactory(email="rider@example.com")
    owner = AdminFactory()

    # A visitor: the e-mail field, then the link mailed to them.
    site.goto(f"/parts/{part.pk}")
    form = site.get_by_role("form", name="Email me when it's back")
    form.get_by_label("Email").fill("visitor@example.com")
    shot(site, "back-in-stock-part-page")
    form.get_by_role("button", name="Email me when it's back").click()
    expect(site.get_by_text("Check your e-mail to confirm the alert.")).to_be_visible()
    [confirm] = mailbox.wait_for(1)
    assert confirm.envelope_to == ["visitor@example.com"]
    site.goto(confirm_link(confirm))
    expect(site.get_by_role("heading", name="Alert started")).to_be_visible()

    # A signed-in rider: one click, no address to give.
    sign_in(site, rider)
    site.goto(f"/parts/{part.pk}")
    form = site.get_by_role("form", name="Email me when it's back")
    expect(form.get_by_label("Email")).to_have_count(0)
    form.get_by_role("button", name="Email me when it's back").click()
    expect(site.get_by_text("We will e-mail you when it is back.")).to_be_visible()
    assert StockAlert.objects.filter(confirmed_at__isnull=False).count() == 2

    # The owner adds stock in Manage Parts.
    site.context.clear_cookies()
    sign_in(site, owner)
    site.goto("/dashboard/manageparts")
    expect(site.get_by_text("2 waiting")).to_be_visible()
    shot(site, "back-in-stock-manage-parts")
    site.get_by_role("link", name="Adjust stock of Fork seal kit").click()
    site.get_by_label("Change").fill("5")
    site.get_by_label("Reason").fill("Delivery 4411")
    site.get_by_role("button", name="Adjust stock").click()
    expect(site.get_by_text("Stock updated")).to_be_visible()

    mailbox.wait_for(3)
    for address in ("visitor@example.com", "rider@example.com"):
        [mail] = back_mails(mailbox, address)
        text = mail.get_body(preferencelist=("plain",)).get_content()
        assert f"/parts/{part.pk}" in text
    site.goto("/dashboard/manageparts")
    expect(site.get_by_text("waiting")).to_have_count(0)

    # Stock added again: no more mail.
    site.goto(f"/dashboard/parts/{part.pk}/stock")
    site.get_by_label("Change").fill("3")
    site.get_by_role("button", name="Adjust stock").click()
    expect(site.get_by_text("Stock updated")).to_be_visible()
    assert len(back_mails(mailbox, "visitor@example.com")) == 1
    assert len(back_mails(mailbox, "rider@example.com")) == 1
    assert len(mailbox) == 3
