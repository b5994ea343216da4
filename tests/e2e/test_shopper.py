"""A shopper's journeys in Chromium: sign up, browse, buy, see and cancel orders, review."""

import re
from decimal import Decimal

import pytest
from playwright.sync_api import expect

from accounts.tests.factories import UserFactory
from catalog.models import Part
from catalog.tests.factories import PartFactory
from orders.models import Booking
from orders.tests.factories import BookingFactory
from tests.e2e.conftest import shot, sign_in

pytestmark = pytest.mark.sqlite  # a journey `make test-sqlite` runs on SQLite too


def accept_dialogs(page, answers: list[str]) -> None:
    """Accept every confirm() and note its text."""

    def accept(dialog):
        answers.append(dialog.message)
        dialog.accept()

    page.on("dialog", accept)


def test_sign_up_browse_buy_and_cancel(site):
    part = PartFactory(
        name="Sintered brake pads",
        price=Decimal("24.50"),
        minimum_order_quantity=2,
        available_quantity=10,
    )
    site.goto("/signup")
    site.get_by_label("Name").fill("Rosa Rider")
    site.get_by_label("Email").fill("rosa@example.com")
    site.get_by_label("Password").fill("secret123")
    site.get_by_role("button", name="Sign Up").click()
    expect(site).to_have_url(f"{site.base_url}/")
    nav = site.get_by_role("navigation", name="Main")
    expect(nav.get_by_role("button", name="Rosa Rider (Sign Out)")).to_be_visible()
    site.wait_for_function("() => localStorage.getItem('accessToken') !== null")

    site.goto("/allparts")
    site.locator("article, .card").filter(has_text="Sintered brake pads").first.get_by_role(
        "link", name="Purchase Now"
    ).click()
    expect(site).to_have_url(f"{site.base_url}/purchaseintent/{part.pk}")
    expect(site.get_by_label("Email")).to_have_value("rosa@example.com")
    site.get_by_label("Phone").fill("0123456789")
    site.get_by_label("Address").fill("7 Gear Lane, Leeds")
    site.get_by_label("Quantity").fill("3")
    shot(site, "purchase-form")
    site.get_by_role("button", name="Submit").click()

    # The shopper lands on the order's page (card payments are off on this site: no Pay).
    expect(site).to_have_url(re.compile(r"/dashboard/orders/\d+$"))
    booking = Booking.objects.of_parts([part.pk]).get()
    expect(site.get_by_role("heading", name=f"Order #{booking.pk}")).to_be_visible()
    expect(site.get_by_text(re.compile(r"^Pay within (29|30) minutes$"))).to_be_visible()
    expect(site.get_by_text("Card payments are not configured on this shop.")).to_be_visible()
    expect(site.get_by_role("link", name="Pay")).to_have_count(0)
    shot(site, "order-page")

    site.goto("/dashboard/myorder")
    row = site.get_by_role("row").filter(has_text="Sintered brake pads")
    expect(row).to_contain_text("$73.50")
    expect(row).to_contain_text("Pay within")
    expect(row.get_by_role("link", name="Pay")).to_have_count(0)
    expect(row.get_by_role("link", name="Sintered brake pads")).to_have_attribute(
        "href", f"/dashboard/orders/{booking.pk}"
    )
    part.refresh_from_db()
    assert part.available_quantity == 7
    shot(site, "my-order")

    answers = []
    accept_dialogs(site, answers)
    row.get_by_role("button", name="Delete").click()
    expect(row).to_have_count(0)
    assert answers == ["Are you sure?"]
    part.refresh_from_db()
    assert part.available_quantity == 10
    assert not Booking.objects.exists()


def test_purchase_form_shows_the_servers_quantity_message(site):
    user = UserFactory()
    part = PartFactory(minimum_order_quantity=5, available_quantity=8)
    sign_in(site, user)
    site.goto(f"/purchaseintent/{part.pk}")
    site.get_by_label("Phone").fill("0123456789")
    site.get_by_label("Address").fill("1 Dock Street")
    site.get_by_label("Quantity").fill("9")
    site.get_by_role("button", name="Submit").click()
    expect(site.get_by_text("Only 8 units are available")).to_be_visible()
    assert Part.objects.get(pk=part.pk).available_quantity == 8


def test_purchase_form_answers_zero_and_negative_quantities_with_the_minimum(site):
    sign_in(site, UserFactory())
    part = PartFactory(minimum_order_quantity=5, available_quantity=8)
    site.goto(f"/purchaseintent/{part.pk}")
    site.get_by_label("Phone").fill("0123456789")
    site.get_by_label("Address").fill("1 Dock Street")
    for quantity in ["-3", "0"]:
        site.get_by_label("Quantity").fill(quantity)
        site.get_by_role("button", name="Submit").click()
        expect(
            site.get_by_text("Quantity must be at least 5 (the minimum order quantity)")
        ).to_be_visible()
    expect(site.get_by_text("Quantity must be a whole number")).to_have_count(0)
    assert not Booking.objects.exists()


def test_paid_and_shipped_orders_in_my_order(site):
    user = UserFactory()
    BookingFactory(user=user, parts_name="Chain kit", paid_order=True, transaction_id="pi_123abc")
    BookingFactory(user=user, parts_name="Oil filter", shipped=True)
    sign_in(site, user)
    site.goto("/dashboard/myorder")
    expect(site.get_by_role("heading", name="My Order")).to_be_visible()
    for column in [
        "No.",
        "Parts Name",
        "Price Per Unit",
        "Quantity",
        "Total Price",
        "Payment",
        "Action",
    ]:
        expect(site.get_by_role("columnheader", name=column, exact=True)).to_be_visible()
    paid = site.get_by_role("row").filter(has_text="Chain kit")
    expect(paid).to_contain_text("Paid")
    expect(paid).to_contain_text("pi_123abc")
    expect(paid.get_by_role("button", name="Delete")).to_have_count(0)
    expect(site.get_by_role("row").filter(has_text="Oil filter")).to_contain_text("Shipped")


def test_add_a_review(site):
    user = UserFactory(name="Kim Lee")
    sign_in(site, user)
    site.goto("/dashboard/review")
    expect(site.get_by_label("Name")).to_have_value("Kim Lee")
    site.get_by_placeholder("write review").fill("Great pads, quick delivery.")
    site.get_by_placeholder("Ratings out of 5").fill("5")
    site.get_by_role("button", name="Add review").click()
    expect(site.get_by_text("Review Added").first).to_be_visible()
    site.goto("/")
    expect(site.get_by_text("Great pads, quick delivery.")).to_be_visible()


def test_update_profile(site):
    user = UserFactory()
    sign_in(site, user)
    site.goto("/dashboard")
    expect(site.get_by_role("heading", name="Welcome to your Dashboard")).to_be_visible()
    site.get_by_label("Education").fill("BSc Mechanical Engineering")
    site.get_by_label("Location").fill("Leeds")
    site.get_by_label("Phone").fill("441130000000")
    site.get_by_label("LinkedIn").fill("https://www.linkedin.com/in/kim")
    site.get_by_role("button", name="Update").click()
    expect(site.get_by_text("user updated").first).to_be_visible()
    shot(site, "profile")


def test_sign_out_removes_the_token(site):
    user = UserFactory(name="Sam")
    sign_in(site, user)
    site.goto("/")
    site.wait_for_function("() => localStorage.getItem('accessToken') !== null")
    site.get_by_role("navigation", name="Main").get_by_role("button", name="Sam (Sign Out)").click()
    expect(
        site.get_by_role("navigation", name="Main").get_by_role("link", name="Login")
    ).to_be_visible()
    assert site.evaluate("() => localStorage.getItem('accessToken')") is None


def test_small_screens_show_the_sidebar_toggle(site):
    site.set_viewport_size({"width": 375, "height": 740})
    sign_in(site, UserFactory())
    site.goto("/dashboard")
    toggle = site.get_by_test_id("sidebar-toggle")
    expect(toggle).to_contain_text("Toggle the dashboard menu")  # its name, for screen readers
    expect(toggle).to_be_visible()
    menu = site.get_by_role("navigation", name="Dashboard")
    expect(menu.get_by_role("link", name="My Order")).not_to_be_in_viewport()
    toggle.click()
    expect(menu.get_by_role("link", name="My Order")).to_be_in_viewport()
    shot(site, "dashboard-375")
