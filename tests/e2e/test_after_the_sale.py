"""Issue 31's "Done when", in Chromium: a visitor buys as a guest and pays with 4242; the owner
ships it with a UPS number; the rider opens the tracking link from the shipped mail; returns one
part, "It doesn't fit my bike"; the owner approves and receives it; the rider sees the partial
refund on the order's Timeline, and the fake Stripe holds that refund. Every step is mailed.

The carrier's page is outside the shop: the browser's request for it is answered here (it never
leaves the machine), so the test sees the link the rider followed."""

import re
from decimal import Decimal

import pytest
from playwright.sync_api import expect

from accounts.tests.factories import AdminFactory
from catalog.tests.factories import PartFactory
from orders.models import Booking
from orders.tests.stripe_helpers import stripe_client
from tests.e2e.conftest import demo_methods, shot, sign_in
from tests.e2e.test_guest_checkout import GUEST_PAGE, fill_address
from tests.e2e.test_payment import GOOD_CARD, PAID, enter_card, pay_button

pytestmark = pytest.mark.sqlite  # a journey `make test-sqlite` runs on SQLite too

TRACKING = "1Z999AA10123456784"
UPS_PAGE = f"https://www.ups.com/track?tracknum={TRACKING}"
RIDER = "ann@example.com"


def mails_to(sent_mail, address: str) -> list:
    return [message for message in sent_mail if message.to == [address]]


def link_in(message, pattern: str) -> str:
    return re.search(pattern, message.body)[0]


def buy_as_a_guest(site, parts) -> Booking:
    for part in parts:
        site.goto(f"/parts/{part.pk}")
        site.get_by_role("button", name="Add to cart").click()
        expect(site.get_by_text("Added to cart")).to_be_visible()
    site.goto("/checkout")
    site.get_by_role("button", name="Continue as guest").click()
    fill_address(site)
    site.get_by_label("E-mail").fill(RIDER)
    site.get_by_role("button", name="Place order").click()
    expect(site).to_have_url(GUEST_PAGE)
    enter_card(site, GOOD_CARD)
    pay_button(site).click()
    expect(site.get_by_text(PAID)).to_be_visible()
    return Booking.objects.get(email=RIDER)


def ship_with_ups(site, booking) -> None:
    sign_in(site, AdminFactory())
    site.goto("/dashboard/manageorders")
    row = site.get_by_role("row").filter(has_text=f"#{booking.pk}")
    row.get_by_role("button", name="Approve").click()
    dialog = site.get_by_role("dialog", name=f"Ship order #{booking.pk}")
    dialog.get_by_label("Carrier").fill("UPS")
    dialog.get_by_label("Tracking number").fill(TRACKING)
    dialog.get_by_role("button", name="Approve").click()
    expect(dialog).to_be_hidden()


def approve_and_receive(site, booking) -> None:
    site.goto("/dashboard/returns")
    row = site.get_by_test_id("return-row").filter(has_text=f"Order #{booking.pk}")
    expect(row).to_contain_text("It doesn't fit my bike")
    row.get_by_role("button", name="Approve").click()
    row = site.get_by_test_id("return-row").filter(has_text=f"Order #{booking.pk}")
    expect(row.get_by_test_id("return-state")).to_have_text("Approved")
    expect(row.get_by_label("Put back in stock")).to_be_checked()
    row.get_by_role("button", name="Received").click()
    row = site.get_by_test_id("return-row").filter(has_text=f"Order #{booking.pk}")
    expect(row.get_by_test_id("return-state")).to_contain_text("Refunded")


def test_a_guest_buys_tracks_returns_a_part_and_sees_the_partial_refund(site, stripe_on, sent_mail):
    demo_methods()
    pads = PartFactory(name="Sintered brake pads", price=Decimal("24.50"), minimum_order_quantity=1)
    chain = PartFactory(name="Chain kit 520", price=Decimal("89.90"), minimum_order_quantity=1)
    site.set_viewport_size({"width": 1366, "height": 900})

    booking = buy_as_a_guest(site, [pads, chain])
    [placed] = [m for m in mails_to(sent_mail, RIDER) if "placed" in m.subject.lower()]
    guest_link = link_in(placed, r"https?://\S+/orders/\d+/[A-Za-z0-9_-]{32}")

    site.context.clear_cookies()
    ship_with_ups(site, booking)

    [shipped] = [m for m in mails_to(sent_mail, RIDER) if "shipped" in m.subject.lower()]
    assert UPS_PAGE in shipped.body
    assert link_in(shipped, r"https?://\S+/orders/\d+/[A-Za-z0-9_-]{32}") == guest_link
    site.context.clear_cookies()
    seen = []
    site.context.route(  # the new tab the link opens is this context's
        "https://www.ups.com/**",
        lambda route: (
            seen.append(route.request.url)
            or route.fulfill(body="<h1>UPS tracking</h1>", content_type="text/html")
        ),
    )
    site.goto(re.sub(r"^https?://[^/]+", "", guest_link))  # the mail's link, on this server
    with site.context.expect_page() as opened:
        site.get_by_role("link", name=TRACKING).click()
    expect(opened.value.get_by_role("heading", name="UPS tracking")).to_be_visible()
    assert seen == [UPS_PAGE]
    opened.value.close()

    site.get_by_text("Return items", exact=True).click()
    site.get_by_label("Sintered brake pads").fill("1")
    site.get_by_label("Reason").select_option(label="It doesn't fit my bike")
    site.get_by_role("button", name="Request return").click()
    expect(site.get_by_test_id("return")).to_contain_text("Requested")
    guest_page = site.url

    sign_in(site, AdminFactory())
    approve_and_receive(site, booking)
    site.goto("/dashboard/manageorders")
    row = site.get_by_role("row").filter(has_text=f"#{booking.pk}")
    expect(row).to_contain_text("Shipped")
    expect(row).to_contain_text("Refunded $24.50")  # the return's part: the chain was kept

    site.context.clear_cookies()
    site.goto(guest_page)
    timeline = site.get_by_test_id("order-timeline")
    expect(timeline).to_contain_text(f"Shipped with UPS, tracking {TRACKING}")
    expect(timeline).to_contain_text("It doesn't fit my bike")
    expect(timeline).to_contain_text("Refunded $24.50 for return")
    expect(site.get_by_test_id("return-state")).to_have_text("Refunded")
    shot(site, "after-the-sale-guest-order")

    booking.refresh_from_db()
    refunds = stripe_client().v1.refunds.list(params={"payment_intent": booking.transaction_id})
    assert [refund.amount for refund in refunds.data] == [2450]
    assert booking.state == Booking.State.SHIPPED  # the chain was kept: refunded in part
    subjects = [message.subject for message in mails_to(sent_mail, RIDER)]
    assert len(subjects) == 6, subjects  # placed, paid, shipped; requested, approved, refunded
