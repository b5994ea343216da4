"""A return in Chromium (BEYOND.md "After the sale"): the shopper opens a shipped order's page,
"Return items", picks one unit and "It doesn't fit my bike", and sends it; the owner, on
/dashboard/returns, approves it and marks it "Received" with "Put back in stock"; the order
page then shows the return refunded (at the fake Stripe), and the unit is back in stock."""

from decimal import Decimal

import pytest
from playwright.sync_api import expect

from accounts.tests.factories import AdminFactory, UserFactory
from catalog.models import Part
from catalog.tests.factories import PartFactory
from orders import services
from orders.tests.stripe_helpers import intent_id_of, pay, stripe_client
from tests.e2e.conftest import findings, shot, sign_in


@pytest.fixture
def shipped(stripe_on):
    """3 brake pads and a chain, paid by card at the fake Stripe and shipped."""
    pads = PartFactory(
        name="Brake pads", price=Decimal("15.00"), available_quantity=10, minimum_order_quantity=1
    )
    chain = PartFactory(
        name="Chain", price=Decimal("30.00"), available_quantity=10, minimum_order_quantity=1
    )
    shopper = UserFactory(name="Rita Returns")
    booking = services.booking_place_lines(
        user=shopper, lines=[(pads.pk, 3), (chain.pk, 1)], address="1 Road", phone="12345"
    )
    intent_id = intent_id_of(services.booking_start_payment(booking=booking))
    pay(intent_id)
    booking = services.booking_confirm_payment(booking=booking, transaction_id=intent_id)
    services.booking_approve(booking=booking, carrier="UPS", tracking_number="1Z999")
    return {"booking": booking, "shopper": shopper, "pads": pads}


def test_a_return_from_the_order_page_to_the_refund(site, shipped):
    booking, pads = shipped["booking"], shipped["pads"]
    site.set_viewport_size({"width": 1366, "height": 900})
    sign_in(site, shipped["shopper"])
    order_page = f"/dashboard/orders/{booking.pk}"

    site.goto(order_page)
    site.get_by_text("Return items", exact=True).click()
    site.get_by_label("Brake pads").fill("1")
    site.get_by_label("Reason").select_option(label="It doesn't fit my bike")
    site.get_by_label("Comment").fill("Wrong caliper")
    shot(site, "returns-order-form")
    site.get_by_role("button", name="Request return").click()
    returned = site.get_by_test_id("return")
    expect(returned).to_have_count(1)
    expect(returned).to_contain_text("1 × Brake pads (It doesn't fit my bike): Requested")

    site.context.clear_cookies()
    sign_in(site, AdminFactory())
    site.goto("/dashboard/returns")
    row = site.get_by_test_id("return-row").filter(has_text=f"Order #{booking.pk}")
    expect(row).to_contain_text("1 × Brake pads")
    expect(row).to_contain_text("It doesn't fit my bike")
    row.get_by_role("button", name="Approve").click()
    row = site.get_by_test_id("return-row").filter(has_text=f"Order #{booking.pk}")
    expect(row.get_by_test_id("return-state")).to_have_text("Approved")
    expect(row.get_by_label("Put back in stock")).to_be_checked()
    row.get_by_role("button", name="Received").click()
    row = site.get_by_test_id("return-row").filter(has_text=f"Order #{booking.pk}")
    expect(row.get_by_test_id("return-state")).to_contain_text("Refunded")
    expect(row.get_by_test_id("return-state")).to_contain_text("$15.00, back in stock")
    shot(site, "returns-dashboard")

    site.context.clear_cookies()
    sign_in(site, shipped["shopper"])
    site.goto(order_page)
    expect(site.get_by_test_id("return-state")).to_have_text("Refunded")
    expect(site.get_by_test_id("return")).to_contain_text("$15.00 back to your card")
    expect(site.get_by_test_id("order-refunded")).to_have_text("$15.00")
    shot(site, "returns-order-refunded")

    refunds = stripe_client().v1.refunds.list(params={"payment_intent": booking.transaction_id})
    assert [r.amount for r in refunds.data] == [1500]
    assert Part.objects.get(pk=pads.pk).available_quantity == 8  # 10 - 3 + 1


def test_the_returns_pages_are_axe_clean(axe_page, shipped):
    booking, pads = shipped["booking"], shipped["pads"]
    services.return_request(
        booking=booking, lines=[{"partId": pads.pk, "quantity": 1}], reason="damaged"
    )
    sign_in(axe_page, shipped["shopper"])
    problems = findings(axe_page, f"/dashboard/orders/{booking.pk}", 1366)
    axe_page.context.clear_cookies()
    sign_in(axe_page, AdminFactory())
    problems += findings(axe_page, "/dashboard/returns", 1366)
    problems += findings(axe_page, "/dashboard/returns", 390)
    assert not problems, "\n".join(problems)
