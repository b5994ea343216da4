"""An order's invoice in Chromium: "Print" prints it, and on paper only the invoice is left
(no navbar, no footer, no buttons); axe clean."""

from decimal import Decimal

import pytest
from playwright.sync_api import expect

from accounts.tests.factories import UserFactory
from catalog.tests.factories import PartFactory
from orders.models import Booking
from orders.services import booking_mark_paid, booking_place
from tests.e2e.conftest import findings, shot, sign_in


@pytest.fixture
def invoiced(transactional_db):
    part = PartFactory(name="Chain kit", price=Decimal("64.90"), available_quantity=5)
    shopper = UserFactory(name="Ivy Invoice")
    booking = booking_place(
        user=shopper, part=part, quantity=2, address="7 Fell Road, Kendal", phone="5550100"
    )
    assert booking_mark_paid(booking_id=booking.pk, transaction_id="pi_e2e_invoice")
    return shopper, Booking.objects.get(pk=booking.pk)


def test_print_leaves_only_the_invoice_on_paper(site, invoiced):
    shopper, booking = invoiced
    sign_in(site, shopper)
    site.add_init_script("window.print = () => { window.printed = true; };")
    site.goto(f"/dashboard/orders/{booking.pk}")
    site.get_by_role("link", name="Invoice", exact=True).click()

    heading = site.get_by_role("heading", name=f"Invoice {booking.invoice_number}")
    expect(heading).to_be_visible()
    navbar, footer = site.locator("body > header"), site.locator("body > footer")
    print_button = site.get_by_role("button", name="Print")
    for shown in (navbar, footer, print_button):
        expect(shown).to_be_visible()
    print_button.click()
    assert site.evaluate("window.printed === true")

    site.emulate_media(media="print")
    for hidden in (navbar, footer, print_button):
        expect(hidden).to_be_hidden()
    expect(heading).to_be_visible()
    expect(site.get_by_role("heading", name="Ship to")).to_be_visible()
    expect(site.get_by_text("Total", exact=True)).to_be_visible()
    shot(site, "invoice-printed")


def test_the_invoice_is_axe_clean(axe_page, invoiced):
    shopper, booking = invoiced
    sign_in(axe_page, shopper)
    assert findings(axe_page, f"/dashboard/orders/{booking.pk}/invoice", 1366) == []
