"""Manage Orders, My Order and All Users on a laptop (1366 px, the dashboard's sidebar showing),
on a small one (1024 px, the sidebar showing: the order tables are cards there) and on a phone
(390 px), filled with long e-mails, names and part names as real shops have them: every row
action (Approve, Refund, Delete, Pay, Make Admin, Remove User) lies wholly inside the window, and
neither the page nor the table scrolls sideways (an action hidden in an inner horizontal
scroller is not on screen)."""

from decimal import Decimal

import pytest
from playwright.sync_api import expect

from accounts.tests.factories import AdminFactory, UserFactory
from catalog.tests.factories import PartFactory
from orders.tests.factories import BookingFactory
from tests.e2e.conftest import shot, sign_in

WIDTHS = {"laptop": 1366, "small laptop": 1024, "phone": 390}
PARTS = [
    "Apex 320 mm Floating Front Brake Disc with Stainless Steel Rotor and Alloy Carrier",
    "Heavy Duty O-Ring Drive Chain Kit 525 Pitch 118 Links with Sprockets",
    "Sintered Metal Rear Brake Pads for Dual-Purpose and Adventure Motorcycles",
]
SHOPPERS = [
    ("Maximilian Alexander von Hohenberg-Richter", "maximilian.alexander.hohenberg@motorradclub-example.de"),
    ("Alexandra Konstantinopoulou-Papadimitriou", "alexandra.konstantinopoulou@touring-riders-example.co.uk"),
]  # fmt: skip


@pytest.fixture(params=list(WIDTHS))
def width(request, site):
    site.set_viewport_size({"width": WIDTHS[request.param], "height": 900})
    return WIDTHS[request.param]


@pytest.fixture
def orders(settings):
    """Every state of order (so every action shows) for two shoppers with long names."""
    # Card payments on (keys only: these pages never call Stripe), so My Order offers Pay.
    settings.STRIPE_SECRET_KEY, settings.STRIPE_PUBLISHABLE_KEY = "sk_test_x", "pk_test_x"
    parts = [PartFactory(name=name, price=Decimal("1249.99")) for name in PARTS]
    shoppers = [UserFactory(name=name, email=email) for name, email in SHOPPERS]
    for shopper in shoppers:
        for part in parts:
            BookingFactory(user=shopper, part=part, quantity=120)  # unpaid: Pay, Delete
            BookingFactory(user=shopper, part=part, paid_order=True)  # Approve, Refund
            BookingFactory(user=shopper, part=part, shipped=True)  # Refund
            BookingFactory(user=shopper, part=part, lapsed=True)  # expired: Delete
    return shoppers


def actions(site):
    """Every action control of the table's rows."""
    rows = site.locator("tbody")
    return rows.get_by_role("button").or_(rows.get_by_role("link", name="Pay for"))


def shows_cards(site) -> bool:
    """Whether the rows are stacked cards (a row a block) rather than table rows."""
    display = site.locator("tbody tr").first.evaluate("row => getComputedStyle(row).display")
    return display == "block"


def assert_every_action_on_screen(site, width: int, expected: int) -> None:
    expect(actions(site)).to_have_count(expected)
    for control in actions(site).all():
        expect(control).to_be_visible()
        box = control.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= width, (control.inner_text(), box)


def assert_nothing_scrolls_sideways(site) -> None:
    page = site.evaluate(
        "[document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    )
    assert page[0] <= page[1], f"the page scrolls sideways: {page}"
    # The table and every box around it inside the dashboard: none is a sideways scroller.
    inner = site.evaluate(
        """() => {
          const wide = [];
          for (let el = document.querySelector("table"); el; el = el.parentElement) {
            if (el.scrollWidth > el.clientWidth + 1) wide.push(
              `${el.tagName}.${el.className}: ${el.scrollWidth} > ${el.clientWidth}`);
          }
          return wide;
        }"""
    )
    assert not inner, inner


def test_manage_orders_keeps_every_action_on_screen(site, orders, width):
    sign_in(site, AdminFactory())
    site.goto("/dashboard/manageorders")
    expect(site.locator("tbody tr")).to_have_count(24)
    if width >= 1024:  # laptops show the sidebar beside the orders
        expect(site.get_by_role("navigation", name="Dashboard")).to_be_visible()
    # A table where its nine columns fit (1366 px beside the sidebar), cards where they do not.
    assert shows_cards(site) == (width < 1366)
    # Unpaid and expired: Delete (12); paid: Approve and Refund (12); shipped: Refund (6).
    assert_every_action_on_screen(site, width, 12 + 12 + 6)
    for name in ["Approve", "Refund", "Delete"]:
        expect(site.get_by_role("button", name=name).first).to_be_visible()
    assert_nothing_scrolls_sideways(site)
    shot(site, f"manageorders-long-{width}")


def test_my_order_keeps_every_action_on_screen(site, orders, width):
    sign_in(site, orders[0])
    site.goto("/dashboard/myorder")
    expect(site.locator("tbody tr")).to_have_count(12)
    assert shows_cards(site) == (width < 1366)
    # Unpaid: Pay and Delete (3 + 3); expired: Delete (3).
    assert_every_action_on_screen(site, width, 3 + 3 + 3)
    assert_nothing_scrolls_sideways(site)
    shot(site, f"myorder-long-{width}")


def test_all_users_keeps_every_action_on_screen(site, orders, width):
    AdminFactory(email="administrator.of.the.motorcycle.shop@throttle-and-gear-example.com")
    sign_in(site, AdminFactory())
    site.goto("/dashboard/users")
    expect(site.locator("tbody tr")).to_have_count(4)
    # Two shoppers: Make Admin, Remove User; the other admin: Remove admin, Remove User; the
    # signed-in admin: Remove User (disabled, still on screen).
    assert_every_action_on_screen(site, width, 2 + 2 + 2 + 1)
    assert_nothing_scrolls_sideways(site)
    shot(site, f"users-long-{width}")
