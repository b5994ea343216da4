"""A shop admin's journeys in Chromium: parts, orders and users."""

import pytest
from playwright.sync_api import expect

from accounts.models import User
from accounts.tests.factories import AdminFactory, UserFactory
from catalog.models import Part
from catalog.tests.factories import PartFactory
from orders.tests.factories import BookingFactory
from tests.e2e.conftest import shot, sign_in
from tests.e2e.test_shopper import accept_dialogs

ADMIN_PAGES = {
    "/dashboard/overview": "Overview",
    "/dashboard/manageorders": "Manage Orders",
    "/dashboard/manageparts": "Manage Parts",
    "/dashboard/addparts": "please add product",
    "/dashboard/users": "All Users",
}


@pytest.fixture
def admin(site):
    user = AdminFactory(name="Ada Admin")
    sign_in(site, user)
    return user


def test_admin_menu(site, admin):
    site.goto("/dashboard")
    menu = site.get_by_role("navigation", name="Dashboard")
    for name in [
        "Overview",
        "Manage Orders",
        "Manage parts",
        "Add parts",
        "Shipping",
        "Vouchers",
        "All Users",
        "My Profile",
    ]:
        expect(menu.get_by_role("link", name=name, exact=True)).to_be_visible()
    expect(menu.get_by_role("link", name="My Order")).to_have_count(0)


@pytest.mark.parametrize(("path", "heading"), ADMIN_PAGES.items())
def test_admin_pages(site, admin, path, heading):
    site.goto(path)
    expect(site.get_by_role("heading", name=heading)).to_be_visible()
    shot(site, f"admin{path.replace('/', '-')}")


@pytest.mark.parametrize("path", ADMIN_PAGES)
def test_a_shopper_on_an_admin_page_is_signed_out(site, path):
    sign_in(site, UserFactory())
    site.goto(path)
    expect(site).to_have_url(f"{site.base_url}/login")
    expect(
        site.get_by_role("navigation", name="Main").get_by_role("link", name="Login")
    ).to_be_visible()


def test_add_a_part_and_see_it_in_all_parts(site, admin):
    site.goto("/dashboard/addparts")
    site.get_by_label("Name").fill("LED indicator set")
    site.get_by_label("Minimum Order Quantity").fill("2")
    site.get_by_label("Description").fill("E-marked amber LEDs.")
    site.get_by_label("Available Quantity").fill("40")
    site.get_by_label("Price").fill("19.90")
    site.get_by_label("Image URL").fill("/static/img/parts/led-headlight.svg")
    site.get_by_role("button", name="Add parts").click()
    expect(site.get_by_text("Parts Added").first).to_be_visible()
    site.goto("/allparts")
    expect(site.get_by_text("LED indicator set")).to_be_visible()


def test_add_part_shows_field_errors(site, admin):
    site.goto("/dashboard/addparts")
    site.get_by_role("button", name="Add parts").click()
    expect(site.get_by_text("Name is required")).to_be_visible()
    assert not Part.objects.exists()


def test_delete_a_part(site, admin):
    PartFactory(name="Old mirror")
    answers = []
    accept_dialogs(site, answers)
    site.goto("/dashboard/manageparts")
    card = site.locator("article, .card").filter(has_text="Old mirror")
    card.get_by_role("button", name="Delete").click()
    expect(card).to_have_count(0)
    assert answers == ["Are you sure?"]
    assert not Part.objects.filter(name="Old mirror").exists()


def test_approve_a_paid_order(site, admin):
    BookingFactory(parts_name="Clutch lever", paid_order=True)
    BookingFactory(parts_name="Air filter")
    site.goto("/dashboard/manageorders")
    for column in ["No.", "Email", "Name", "Parts Name", "Quantity", "Status", "Action"]:
        expect(site.get_by_role("columnheader", name=column, exact=True)).to_be_visible()
    expect(site.get_by_role("row").filter(has_text="Air filter")).to_contain_text("Unpaid")
    row = site.get_by_role("row").filter(has_text="Clutch lever")
    expect(row).to_contain_text("Pending")
    row.get_by_role("button", name="Approve").click()
    site.get_by_role("dialog").get_by_role("button", name="Approve").click()  # no carrier
    expect(site.get_by_text("status updated").first).to_be_visible()
    expect(row).to_contain_text("Shipped")


def test_approve_asks_for_the_carrier_and_the_tracking_number(site, admin):
    booking = BookingFactory(parts_name="Clutch lever", paid_order=True)
    site.goto("/dashboard/manageorders")
    row = site.get_by_role("row").filter(has_text="Clutch lever")
    row.get_by_role("button", name="Approve").click()

    dialog = site.get_by_role("dialog", name=f"Ship order #{booking.pk}")
    expect(dialog.get_by_label("Carrier")).to_be_focused()
    site.keyboard.type("ups")
    site.keyboard.press("Tab")
    site.keyboard.type("1Z<bad>")
    site.keyboard.press("Enter")
    expect(dialog.get_by_text("A tracking number is up to 64 letters, digits")).to_be_visible()
    dialog.get_by_label("Tracking number").fill("1Z999AA10123456784")
    dialog.get_by_role("button", name="Approve").click()
    expect(row).to_contain_text("Shipped")
    expect(dialog).to_be_hidden()

    site.goto(f"/dashboard/orders/{booking.pk}")
    link = site.get_by_role("link", name="1Z999AA10123456784")
    expect(link).to_have_attribute("href", "https://www.ups.com/track?tracknum=1Z999AA10123456784")
    expect(site.get_by_test_id("order-shipment")).to_have_text(
        "Shipped with UPS, tracking 1Z999AA10123456784"
    )


def test_make_a_user_admin(site, admin):
    shopper = UserFactory(email="shopper@example.com")
    site.goto("/dashboard/users")
    for column in ["No.", "Email", "Create Admin", "Action"]:
        expect(site.get_by_role("columnheader", name=column, exact=True)).to_be_visible()
    row = site.get_by_role("row").filter(has_text="shopper@example.com")
    row.get_by_role("button", name="Make Admin").click()
    expect(site.get_by_text("successfully made an admin").first).to_be_visible()
    shopper.refresh_from_db()
    assert shopper.role == User.Role.ADMIN


def test_remove_a_user_after_are_you_sure(site, admin):
    UserFactory(email="leaving@example.com")
    answers = []
    accept_dialogs(site, answers)
    site.goto("/dashboard/users")
    own = site.get_by_role("row").filter(has_text=admin.email)
    expect(own.get_by_role("button", name="Remove User")).to_be_disabled()
    expect(own.get_by_role("button", name="Remove admin")).to_have_count(0)
    row = site.get_by_role("row").filter(has_text="leaving@example.com")
    row.get_by_role("button", name="Remove User").click()
    expect(site.get_by_text("user removed").first).to_be_visible()
    expect(row).to_have_count(0)
    assert answers == ["Are you sure?"]
    assert not User.objects.filter(email="leaving@example.com").exists()
    shot(site, "admin-users-removed")


def test_remove_another_admins_role(site, admin):
    colleague = AdminFactory(email="colleague@example.com")
    site.goto("/dashboard/users")
    row = site.get_by_role("row").filter(has_text="colleague@example.com")
    row.get_by_role("button", name="Remove admin").click()
    expect(site.get_by_text("admin role removed").first).to_be_visible()
    expect(row.get_by_role("button", name="Make Admin")).to_be_visible()
    colleague.refresh_from_db()
    assert (colleague.role, colleague.is_staff) == (User.Role.USER, False)
