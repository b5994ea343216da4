"""Manage Orders in Chromium, on a desktop (1366 px) and a phone (390 px): the state filter,
the search box, 50 orders a page with links that keep the filters, each order's page (address
and phone) and "Download CSV" with the same filters; axe finds nothing serious."""

import csv
import io
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from accounts.tests.factories import AdminFactory
from orders.models import Booking
from orders.tests.factories import BookingFactory
from tests.e2e.conftest import findings, shot, sign_in
from tests.e2e.test_shopper import accept_dialogs

WIDTHS = {"desktop": 1366, "phone": 390}
PAGE = "/dashboard/manageorders"


@pytest.fixture(params=list(WIDTHS))
def width(request, site):
    site.set_viewport_size({"width": WIDTHS[request.param], "height": 900})
    return WIDTHS[request.param]


@pytest.fixture
def admin(site):
    user = AdminFactory(name="Ada Admin")
    sign_in(site, user)
    return user


@pytest.fixture
def orders():
    """55 shipped orders of "Rider N" placed an hour ago and before, and three newer ones."""
    start = timezone.now() - timedelta(hours=1)
    riders = BookingFactory.create_batch(55, shipped=True, parts_name="Chain kit")
    for n, booking in enumerate(riders):
        booking.name = f"Rider {n + 1}"
        booking.created_at = start - timedelta(minutes=n)
        booking.save(update_fields=["name", "created_at"])
    return {
        "pending": BookingFactory(
            paid_order=True,
            name="Penny Paid",
            parts_name="Sintered brake pads",
            address="7 Fell Road, Kendal",
            phone="5550100",
        ),
        "unpaid": BookingFactory(name="Una Unpaid", parts_name="Air filter"),
        "expired": BookingFactory(lapsed=True, name="Ezra Late", parts_name="Spark plug"),
    }


def rows(site):
    return site.locator("tbody tr")


def no_sideways_scroll(site, width: int) -> None:
    assert site.evaluate("document.documentElement.scrollWidth") <= width


def test_filter_by_state_and_search_then_open_the_order(site, admin, orders, width):
    site.goto(PAGE)
    for column in ["No.", "Date", "Email", "Name", "Parts Name", "Quantity", "Total", "Status"]:
        expect(site.get_by_role("columnheader", name=column, exact=True)).to_be_attached()
    expect(site.locator("p[role=status]")).to_have_text("58 orders, page 1 of 2")

    site.get_by_label("State", exact=True).select_option("pending")
    site.get_by_role("button", name="Find orders").click()
    expect(site).to_have_url(f"{site.base_url}{PAGE}?q=&state=pending")
    expect(rows(site)).to_have_count(1)
    expect(rows(site).first).to_contain_text("Penny Paid")
    expect(rows(site).first).to_contain_text("Pending")
    expect(rows(site).first).to_contain_text(f"Order #{orders['pending'].pk}")

    site.get_by_label("Search orders").fill(str(orders["unpaid"].pk))
    site.get_by_label("State", exact=True).select_option("")
    site.get_by_role("button", name="Find orders").click()
    expect(rows(site).filter(has_text="Una Unpaid")).to_have_count(1)

    site.get_by_label("Search orders").fill("sintered")
    site.get_by_role("button", name="Find orders").click()
    expect(site.locator("p[role=status]")).to_have_text("1 order found")
    no_sideways_scroll(site, width)
    shot(site, f"manageorders-search-{width}")

    site.get_by_role("link", name="Sintered brake pads").click()
    expect(site).to_have_url(f"{site.base_url}/dashboard/orders/{orders['pending'].pk}")
    expect(site.get_by_text("7 Fell Road, Kendal")).to_be_visible()
    expect(site.get_by_text("5550100")).to_be_visible()


def test_a_search_that_finds_nothing_says_so(site, admin, orders, width):
    site.goto(f"{PAGE}?q=nobody+at+all")
    expect(site.get_by_text("No orders match your search.")).to_be_visible()
    expect(site.get_by_role("link", name="Show all orders")).to_be_visible()


def test_fifty_a_page_and_the_links_keep_the_filters(site, admin, orders, width):
    site.goto(f"{PAGE}?state=shipped&q=rider")
    expect(rows(site)).to_have_count(50)
    expect(rows(site).first.locator("th")).to_have_text("1")
    pages = site.get_by_role("navigation", name="Pages of orders")

    pages.get_by_role("link", name="Next page").click()
    expect(site).to_have_url(f"{site.base_url}{PAGE}?state=shipped&q=rider&page=2")
    expect(rows(site)).to_have_count(5)
    expect(rows(site).first.locator("th")).to_have_text("51")
    expect(rows(site).last).to_contain_text("Rider 55")
    expect(site.get_by_label("Search orders")).to_have_value("rider")
    expect(site.get_by_label("State", exact=True)).to_have_value("shipped")
    no_sideways_scroll(site, width)
    for button in site.get_by_role("button", name="Refund").all():
        box = button.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= width, box
    shot(site, f"manageorders-page-2-{width}")

    pages.get_by_role("link", name="Previous page").click()
    expect(site).to_have_url(f"{site.base_url}{PAGE}?state=shipped&q=rider")


def test_download_csv_has_the_same_filters(site, admin, orders, width):
    site.goto(f"{PAGE}?state=pending&q=penny")
    link = site.get_by_role("link", name="Download CSV")
    expect(link).to_have_attribute("href", "/api/bookings.csv?state=pending&q=penny")

    with site.expect_download() as download:
        link.click()
    body = download.value.path().read_text()
    table = list(csv.reader(io.StringIO(body)))
    assert table[0][:3] == ["number", "date", "e-mail"]
    assert [row[0] for row in table[1:]] == [str(orders["pending"].pk)]
    assert download.value.suggested_filename == "orders.csv"


def test_approve_and_delete_still_work_on_a_filtered_page(site, admin, orders, width):
    answers = []
    accept_dialogs(site, answers)
    site.goto(f"{PAGE}?q=penny")
    row = rows(site).filter(has_text="Penny Paid")
    row.get_by_role("button", name="Approve").click()
    site.get_by_role("dialog").get_by_role("button", name="Approve").click()  # no carrier
    expect(site.get_by_text("status updated").first).to_be_visible()
    expect(row).to_contain_text("Shipped")

    site.goto(f"{PAGE}?state=unpaid")
    rows(site).first.get_by_role("button", name="Delete").click()
    expect(site.get_by_text("No orders match your search.")).to_be_visible()
    assert answers == ["Are you sure?"]
    assert not Booking.objects.filter(pk=orders["unpaid"].pk).exists()


def test_axe_finds_nothing_serious_on_a_filtered_second_page(axe_page, orders):
    sign_in(axe_page, AdminFactory())
    problems = [
        line
        for width in WIDTHS.values()
        for path in [f"{PAGE}?state=shipped&q=rider&page=2", f"{PAGE}?state=lost"]
        for line in findings(axe_page, path, width)
    ]
    assert not problems, "\n".join(problems)
