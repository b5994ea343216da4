"""An order of several parts in Chromium: one row in My Order and Manage Orders (the parts'
names, the units, the total), its page listing every line, at 1366 and 390 px, axe clean, and
deleted from the keyboard with every line's stock back."""

from decimal import Decimal

import pytest
from playwright.sync_api import expect

from accounts.tests.factories import AdminFactory, UserFactory
from catalog.models import Part
from catalog.tests.factories import PartFactory
from orders.services import booking_place_lines
from tests.e2e.conftest import findings, shot, sign_in
from tests.e2e.test_shopper import accept_dialogs

WIDTHS = [1366, 390]


@pytest.fixture
def order(transactional_db):
    pads = PartFactory(
        name="Brake pads", price=Decimal("12.50"), available_quantity=20, minimum_order_quantity=1
    )
    rotor = PartFactory(
        name="Rotor", price=Decimal("80.00"), available_quantity=5, minimum_order_quantity=1
    )
    shopper = UserFactory(name="Lena Lines")
    booking = booking_place_lines(
        user=shopper, lines=[(pads.pk, 2), (rotor.pk, 1)], address="1 Road", phone="12345"
    )
    return {"booking": booking, "shopper": shopper, "pads": pads, "rotor": rotor}


def fits(page) -> bool:
    """Nothing sticks out sideways: the page scrolls only down."""
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


@pytest.mark.parametrize("width", WIDTHS)
def test_my_order_shows_one_row_and_the_page_lists_the_lines(site, order, width):
    booking = order["booking"]
    site.set_viewport_size({"width": width, "height": 900})
    sign_in(site, order["shopper"])

    site.goto("/dashboard/myorder")
    row = site.get_by_role("row").filter(has_text="Brake pads, Rotor")
    expect(row).to_have_count(1)
    expect(row).to_contain_text("Several")
    expect(row).to_contain_text("$105.00")
    shot(site, f"order-lines-my-order-{width}")

    row.get_by_role("link", name="Brake pads, Rotor").click()
    expect(site).to_have_url(f"{site.base_url}/dashboard/orders/{booking.pk}")
    lines = site.get_by_test_id("order-lines")
    expect(lines.get_by_role("row")).to_have_count(3)  # the header and two lines
    cells = ["Brake pads", "$12.50", "2", "$25.00"], ["Rotor", "$80.00", "1", "$80.00"]
    expect(lines.get_by_role("row").nth(1).locator("th, td")).to_have_text(cells[0])
    expect(lines.get_by_role("row").nth(2).locator("th, td")).to_have_text(cells[1])
    expect(lines.get_by_role("link", name="Rotor")).to_have_attribute(
        "href", f"/parts/{order['rotor'].pk}"
    )
    assert fits(site)
    shot(site, f"order-lines-page-{width}")


def test_the_pages_are_axe_clean(axe_page, order):
    sign_in(axe_page, order["shopper"])
    paths = ["/dashboard/myorder", f"/dashboard/orders/{order['booking'].pk}"]
    problems = [
        line for path in paths for width in WIDTHS for line in findings(axe_page, path, width)
    ]
    assert not problems, "\n".join(problems)


def test_manage_orders_shows_one_row(site, order):
    site.set_viewport_size({"width": 1366, "height": 900})
    sign_in(site, AdminFactory())

    site.goto("/dashboard/manageorders")

    row = site.get_by_role("row").filter(has_text="Brake pads, Rotor")
    expect(row).to_have_count(1)
    expect(row).to_contain_text(f"Order #{order['booking'].pk}")
    expect(row.get_by_role("cell").nth(4)).to_have_text("3")  # the units
    expect(row).to_contain_text("$105.00")


def test_deleting_it_from_the_keyboard_gives_back_every_line(site, order):
    sign_in(site, order["shopper"])
    site.goto("/dashboard/myorder")
    answers = []
    accept_dialogs(site, answers)
    row = site.get_by_role("row").filter(has_text="Brake pads, Rotor")

    row.get_by_role("button", name="Delete").focus()
    site.keyboard.press("Enter")

    expect(row).to_have_count(0)
    assert answers == ["Are you sure?"]
    stock = dict(Part.objects.values_list("name", "available_quantity"))
    assert (stock["Brake pads"], stock["Rotor"]) == (20, 5)
