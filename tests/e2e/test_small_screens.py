"""Phones (390 px wide): no page scrolls sideways, and every row action of My Order, Manage
Orders and All Users is on screen (rows become cards labelled by their column)."""

import pytest
from playwright.sync_api import expect

from accounts.tests.factories import AdminFactory, UserFactory
from catalog.tests.factories import PartFactory
from orders.tests.factories import BookingFactory
from tests.e2e.conftest import shot, sign_in

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def orders(site, settings):
    # Card payments on (keys only: these pages never call Stripe), so My Order offers Pay.
    settings.STRIPE_SECRET_KEY, settings.STRIPE_PUBLISHABLE_KEY = "sk_test_x", "pk_test_x"
    part = PartFactory(name="Apex 320 mm Floating Front Brake Disc with a long name")
    shopper = UserFactory(name="Sam Shopper", email="sam.shopper.with.a.long.address@example.com")
    BookingFactory(user=shopper, part=part)
    BookingFactory(user=shopper, part=part, paid_order=True)
    BookingFactory(user=shopper, part=part, shipped=True)
    site.set_viewport_size(PHONE)
    return shopper


def on_screen(page, locator) -> None:
    """The control is visible and wholly inside the phone's width."""
    expect(locator).to_be_visible()
    box = locator.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box


def shown_labels(row) -> list[str]:
    """The column headings the row's cells show before their values (CSS ::before)."""
    return row.evaluate(
        """row => Array.from(row.children).map(
            cell => getComputedStyle(cell, "::before").content.replace(/^"|"$/g, ""))"""
    )


CONTRAST = """el => {
  // Any CSS colour (Chromium reports oklch()) as sRGB bytes, through a 1-pixel canvas.
  const rgb = (css) => {
    const ctx = Object.assign(document.createElement("canvas"), { width: 1, height: 1 })
      .getContext("2d");
    ctx.fillStyle = css;
    ctx.fillRect(0, 0, 1, 1);
    return Array.from(ctx.getImageData(0, 0, 1, 1).data).slice(0, 3);
  };
  const lum = (css) => {
    const [r, g, b] = rgb(css).map((v) => {
      v /= 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const style = getComputedStyle(el);
  const [a, b] = [lum(style.color), lum(style.backgroundColor)].sort((x, y) => y - x);
  return (a + 0.05) / (b + 0.05);
}"""


def no_sideways_scroll(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_my_order_rows_are_cards_with_every_action_on_screen(site, orders):
    sign_in(site, orders)
    site.goto("/dashboard/myorder")

    on_screen(site, site.get_by_role("link", name="Pay for").first)
    delete = site.get_by_role("button", name="Delete").first
    on_screen(site, delete)
    assert delete.evaluate(CONTRAST) >= 4.5  # WCAG AA for its small text
    labels = shown_labels(site.locator("tbody tr").first)  # each value labelled by its column
    assert labels == [
        "No.", "Parts Name", "Price Per Unit", "Quantity", "Total Price", "Payment", "Action"
    ]  # fmt: skip
    no_sideways_scroll(site)
    shot(site, "myorder-390")


def test_manage_orders_rows_are_cards_with_every_action_on_screen(site, orders):
    sign_in(site, AdminFactory())
    site.goto("/dashboard/manageorders")

    on_screen(site, site.get_by_role("button", name="Approve").first)
    on_screen(site, site.get_by_role("button", name="Refund").first)
    on_screen(site, site.get_by_role("button", name="Delete").first)
    assert "Email" in shown_labels(site.locator("tbody tr").first)
    no_sideways_scroll(site)
    shot(site, "manageorders-390")


def test_all_users_rows_are_cards_with_every_action_on_screen(site, orders):
    sign_in(site, AdminFactory())
    site.goto("/dashboard/users")

    on_screen(site, site.get_by_role("button", name="Make Admin").first)
    on_screen(site, site.get_by_role("button", name="Remove User").first)
    no_sideways_scroll(site)
    shot(site, "users-390")
