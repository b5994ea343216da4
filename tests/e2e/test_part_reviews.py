"""Issue 33's "Done when", in Chromium: a rider buys brake pads for their MT-07 and pays with
4242; the owner ships them; the rider follows "Did it fit your bike?" from the shipped mail,
writes a review (the bike filled in); another visitor with an MT-07 in the garage reads "Fit
confirmed by 1 rider of the 2019 Yamaha MT-07" on the part's page."""

import re
from decimal import Decimal

import pytest
from playwright.sync_api import expect

from accounts.tests.factories import AdminFactory, UserFactory
from catalog.models import Fitment, GarageBike, Vehicle
from catalog.tests.factories import PartFactory
from orders.models import Booking
from tests.e2e.conftest import shot, sign_in
from tests.e2e.test_garage import choose
from tests.e2e.test_payment import GOOD_CARD, PAID, enter_card, order_through_the_ui, pay_button

pytestmark = pytest.mark.sqlite  # a journey `make test-sqlite` runs on SQLite too

MT07 = "2019 Yamaha MT-07"
CONFIRMED = f"Fit confirmed by 1 rider of the {MT07}"


def sign_out(site) -> None:
    """A new person at the browser: no session, and no API token left by the islands."""
    site.evaluate("localStorage.clear()")
    site.context.clear_cookies()


def test_a_rider_reviews_the_pads_from_the_shipped_mail_and_another_sees_the_fit(
    site, stripe_on, sent_mail
):
    mt07 = Vehicle.objects.create(make="Yamaha", model="MT-07", year=2019)
    pads = PartFactory(
        name="Sintered brake pads",
        price=Decimal("24.50"),
        minimum_order_quantity=1,
        available_quantity=10,
    )
    Fitment.objects.create(part=pads, vehicle=mt07)
    rider = UserFactory(name="Rosa Rider")
    GarageBike.objects.create(user=rider, vehicle=mt07, active=True)
    site.set_viewport_size({"width": 1366, "height": 900})

    # The rider buys the pads and pays with 4242.
    sign_in(site, rider)
    booking = order_through_the_ui(site, pads)
    site.goto(f"/dashboard/payment/{booking.pk}")
    enter_card(site, GOOD_CARD)
    pay_button(site).click()
    expect(site.get_by_text(PAID)).to_be_visible()

    # The owner ships them.
    sign_out(site)
    sign_in(site, AdminFactory())
    site.goto("/dashboard/manageorders")
    row = site.get_by_role("row").filter(has_text="Sintered brake pads")
    row.get_by_role("button", name="Approve").click()
    dialog = site.get_by_role("dialog", name=f"Ship order #{booking.pk}")
    dialog.get_by_role("button", name="Approve").click()  # no carrier
    expect(dialog).to_be_hidden()
    expect(site.get_by_text("status updated").first).to_be_visible()
    booking.refresh_from_db()
    assert booking.state == Booking.State.SHIPPED

    # "Did it fit your bike?" in the shipped mail, a link to the pads' review form.
    [shipped] = [m for m in sent_mail if m.to == [rider.email] and "shipped" in m.subject]
    assert "Did it fit your bike?" in shipped.body
    link = re.search(r"https?://\S+/parts/\d+/review\?vehicle=\d+", shipped.body)[0]
    sign_out(site)
    sign_in(site, rider)
    site.goto(re.sub(r"^https?://[^/]+", "", link))  # the mail's link, on this server
    expect(site.get_by_role("heading", name="Write a review")).to_be_visible()
    expect(site.get_by_label("Your bike")).to_have_value(str(mt07.pk))
    site.get_by_label("Rating").select_option("5")
    site.get_by_label("Title").fill("Bite from the first stop")
    site.get_by_label("Review", exact=True).fill("Fitted in twenty minutes, <b>no</b> squeal.")
    site.get_by_label("Yes").check()
    shot(site, "part-review-form")
    site.get_by_role("button", name="Post review").click()

    expect(site).to_have_url(re.compile(rf"/parts/{pads.pk}#reviews$"))
    expect(site.get_by_text("Review Added").first).to_be_visible()
    review = site.get_by_role("article", name="Review: Bite from the first stop")
    expect(review).to_contain_text("Fitted in twenty minutes, <b>no</b> squeal.")  # as text
    expect(review).to_contain_text("Verified buyer")
    expect(review).to_contain_text(f"Rides a {MT07}")
    expect(review).to_contain_text("Fit: yes")
    expect(site.get_by_text("5.0 out of 5 (1 review)").first).to_be_visible()

    # Another visitor, an MT-07 in their garage, reads that it fitted.
    sign_out(site)
    site.goto("/allparts")
    choose(site, "Make", "Yamaha")
    choose(site, "Model", "MT-07")
    choose(site, "Year", "2019")
    site.get_by_role("button", name="Show parts for this bike").click()
    expect(site.get_by_role("heading", name=f"Parts that fit your {MT07}")).to_be_visible()
    card = site.locator("article").filter(has_text="Sintered brake pads")
    expect(card.get_by_role("img", name="Rated 5.0 out of 5")).to_be_visible()
    card.get_by_role("link", name="Sintered brake pads").first.click()
    expect(site.get_by_test_id("fit-confirmed")).to_have_text(CONFIRMED)
    expect(site.get_by_role("link", name="Sign in to write a review")).to_be_visible()
    shot(site, "part-reviews-fit-confirmed")
