"""Guest checkout in Chromium (BEYOND.md "After the sale", "Guest orders"): a visitor fills a
cart, chooses "Continue as guest" at /checkout, gives an e-mail and an address, places the
order, lands on the order's private page /orders/{id}/{key} and pays it there by card (the
fake Stripe of `make run`), and sees it paid; a mistake is said on its field; "Find my order"
answers its one sentence."""

import re
from decimal import Decimal

import pytest
from playwright.sync_api import expect

from catalog.tests.factories import PartFactory
from orders.models import Booking
from tests.e2e.conftest import demo_methods, shot
from tests.e2e.test_payment import GOOD_CARD, PAID, enter_card, pay_button

pytestmark = pytest.mark.sqlite  # a journey `make test-sqlite` runs on SQLite too

GUEST_PAGE = re.compile(r"/orders/\d+/[A-Za-z0-9_-]{32}$")


def fill_address(page) -> None:
    page.get_by_label("Full name").fill("Ann Rider")
    page.get_by_label("Address line 1").fill("1 Main St")
    page.get_by_label("City").fill("Springfield")
    page.get_by_label("State / region").fill("IL")
    page.get_by_label("Postcode").fill("62701")
    page.get_by_label("Phone").fill("+12175550100")


def test_a_visitor_checks_out_as_a_guest_and_pays_on_the_orders_page(site, stripe_on):
    demo_methods()
    part = PartFactory(name="Sintered brake pads", price=Decimal("24.50"), minimum_order_quantity=1)

    site.goto(f"/parts/{part.pk}")
    site.get_by_role("button", name="Add to cart").click()
    expect(site.get_by_text("Added to cart")).to_be_visible()
    site.goto("/checkout")
    expect(site.get_by_role("link", name="Sign in")).to_be_visible()
    expect(site.get_by_role("link", name="Create account")).to_be_visible()
    site.get_by_role("button", name="Continue as guest").click()

    form = site.get_by_role("form", name="Checkout")
    expect(form.get_by_label("Save this address")).to_have_count(0)  # no address book
    fill_address(site)
    site.get_by_label("E-mail").fill("not-an-address")
    site.get_by_role("button", name="Place order").click()
    email = site.get_by_label("E-mail")
    expect(email).to_have_attribute("aria-invalid", "true")
    expect(email).to_be_focused()
    assert not Booking.objects.exists()

    email.fill("ann@example.com")
    shot(site, "guest-checkout")
    site.get_by_role("button", name="Place order").click()

    expect(site).to_have_url(GUEST_PAGE)
    booking = Booking.objects.get()
    assert (booking.user, booking.email) == (None, "ann@example.com")
    assert site.url.endswith(f"/orders/{booking.pk}/{booking.guest_key}")
    expect(site.get_by_role("heading", name=f"Order #{booking.pk}")).to_be_visible()
    expect(site.get_by_test_id("order-state")).to_have_text("Unpaid")
    expect(pay_button(site)).to_be_enabled()
    enter_card(site, GOOD_CARD)
    pay_button(site).click()

    expect(site.get_by_text(PAID)).to_be_visible()
    booking.refresh_from_db()
    assert booking.paid
    site.get_by_role("link", name="View your order").click()
    expect(site).to_have_url(GUEST_PAGE)
    expect(site.get_by_test_id("order-state")).to_have_text("Pending")
    expect(pay_button(site)).to_have_count(0)
    expect(site.get_by_role("link", name="Invoice")).to_be_visible()
    shot(site, "guest-order-paid")

    # Another key is nobody's order.
    site.goto(f"/orders/{booking.pk}/{'x' * 32}")
    expect(site.get_by_text("WE ARE SORRY, THE PAGE YOU REQUESTED WAS NOT FOUND")).to_be_visible()


def test_find_my_order_from_the_footer(site):
    site.goto("/login")
    site.get_by_role("link", name="Find my order").first.click()
    expect(site).to_have_url(f"{site.base_url}/orders/find")
    site.get_by_label("Order number").fill("12345")
    site.get_by_label("E-mail").fill("ann@example.com")
    site.get_by_role("button", name="Send me the link").click()
    expect(site.get_by_role("status")).to_have_text(
        "If an order matches, we have e-mailed its link."
    )
