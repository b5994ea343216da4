"""Fair holds in Chromium: the purchase form shows the server's limit under Quantity."""

import re

from playwright.sync_api import expect

from accounts.tests.factories import UserFactory
from catalog.models import Part
from catalog.tests.factories import PartFactory
from orders.models import Booking
from tests.e2e.conftest import shot, sign_in

SENTENCE = "You can hold at most 4 units of this part until you pay."


def test_the_purchase_form_says_how_many_units_can_be_held(site):
    user = UserFactory()
    part = PartFactory(minimum_order_quantity=1, available_quantity=9)
    sign_in(site, user)
    site.goto(f"/purchaseintent/{part.pk}")
    site.get_by_label("Phone").fill("0123456789")
    site.get_by_label("Address").fill("1 Dock Street")
    site.get_by_label("Quantity").fill("5")
    site.get_by_role("button", name="Submit").click()

    quantity = site.get_by_label("Quantity")
    expect(quantity).to_have_attribute("aria-invalid", "true")
    message = site.locator(f"#{quantity.get_attribute('aria-describedby')}")
    expect(message).to_have_text(SENTENCE)
    shot(site, "purchase-form-fair-hold")
    assert Part.objects.get(pk=part.pk).available_quantity == 9
    assert not Booking.objects.exists()

    quantity.fill("4")
    site.get_by_role("button", name="Submit").click()
    expect(site).to_have_url(re.compile(r"/dashboard/orders/\d+$"))
    assert Booking.objects.get().quantity == 4
