"""The tables' action buttons (AsyncButton) in Chromium: "Are you sure?" first, busy while the
server works, a failure as an error toast; and the Pay links go where the server says."""

from datetime import timedelta

from django.utils import timezone
from playwright.sync_api import expect

from accounts.tests.factories import UserFactory
from orders.models import Booking
from orders.tests.factories import BookingFactory
from tests.e2e.conftest import sign_in

PAID_MEANWHILE = "This order has been paid: it can no longer be deleted."


def my_order_row(site, booking):
    """My Order for the owner of `booking`, and the row of that order."""
    sign_in(site, booking.user)
    site.goto("/dashboard/myorder")
    return site.get_by_role("row").filter(has_text=booking.parts_name)


def test_declining_the_question_leaves_the_order_and_its_button_alone(site):
    booking = BookingFactory(user=UserFactory(), parts_name="Chain kit")
    row = my_order_row(site, booking)
    questions = []
    site.on("dialog", lambda dialog: (questions.append(dialog.message), dialog.dismiss()))
    deletes = []
    site.on("request", lambda r: r.method == "DELETE" and deletes.append(r.url))

    delete = row.get_by_role("button", name="Delete the order of Chain kit")
    delete.click()

    expect(delete).to_be_enabled()
    expect(delete).to_be_focused()
    expect(delete).not_to_have_attribute("aria-busy", "true")
    assert questions == ["Are you sure?"]
    assert deletes == []
    assert Booking.objects.filter(pk=booking.pk).exists()


def test_a_button_is_busy_until_the_server_answers_and_shows_its_failure(site):
    booking = BookingFactory(user=UserFactory(), parts_name="Chain kit")
    row = my_order_row(site, booking)
    site.on("dialog", lambda dialog: dialog.accept())
    held = []
    site.route(
        f"**/api/booking/{booking.pk}",
        lambda route: held.append(route) if route.request.method == "DELETE" else route.fallback(),
    )

    delete = row.get_by_role("button", name="Delete the order of Chain kit")
    delete.click()

    # While the server works: disabled, aria-busy, the spinner with its accessible name.
    expect(delete).to_be_disabled()
    expect(delete).to_have_attribute("aria-busy", "true")
    expect(delete.get_by_role("status", name="Loading")).to_be_visible()
    assert len(held) == 1
    held[0].fulfill(status=409, json={"detail": PAID_MEANWHILE})

    expect(site.get_by_role("alert").filter(has_text=PAID_MEANWHILE)).to_be_visible()
    expect(delete).to_be_enabled()
    expect(delete).not_to_have_attribute("aria-busy", "true")
    expect(delete.get_by_role("status")).to_have_count(0)
    expect(row).to_have_count(1)


def test_pay_links_go_to_the_payment_page_the_server_names(site, stripe_on):
    user = UserFactory()
    held = BookingFactory(user=user, parts_name="Chain kit")
    lapsed = BookingFactory(
        user=user, parts_name="Brake pads", expires_at=timezone.now() - timedelta(minutes=1)
    )
    row = my_order_row(site, held)
    expect(row.get_by_role("link", name="Pay for Chain kit")).to_have_attribute(
        "href", f"/dashboard/payment/{held.pk}"
    )
    lapsed_row = site.get_by_role("row").filter(has_text="Brake pads")
    expect(lapsed_row).to_contain_text("Expired")
    expect(lapsed_row.get_by_role("link", name="Pay for Brake pads")).to_have_count(0)

    site.goto(held.get_absolute_url())
    expect(site.get_by_role("link", name="Pay for Chain kit")).to_have_attribute(
        "href", f"/dashboard/payment/{held.pk}"
    )
    site.goto(lapsed.get_absolute_url())
    expect(site.get_by_role("button", name="Delete the order of Brake pads")).to_be_visible()
    expect(site.get_by_role("link", name="Pay for Brake pads")).to_have_count(0)
