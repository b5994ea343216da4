"""Paying by card in Chromium, against the fake Stripe of `make run` and its fake Stripe.js.

The page runs the real path (@stripe/react-stripe-js, stripe.confirmCardPayment) against the
fake Stripe server that `make run` starts (scripts/fake_stripe.py): nothing is injected into the
page and no request is rewritten.
"""

import re
from decimal import Decimal

import pytest
from playwright.sync_api import expect

from accounts.tests.factories import AdminFactory, UserFactory
from catalog.tests.factories import PartFactory
from orders.models import Booking, Cart
from orders.tests.factories import BookingFactory, CartLineFactory
from tests.e2e.conftest import breakdown, demo_methods, saved_address, shot, sign_in

pytestmark = pytest.mark.sqlite  # a journey `make test-sqlite` runs on SQLite too

GOOD_CARD = "4242424242424242"
DECLINED_CARD = "4000000000000341"
THREE_D_SECURE_CARD = "4000002500003155"
PAID = "Congrats! Your payment is completed."
NOT_FOUND = "WE ARE SORRY, THE PAGE YOU REQUESTED WAS NOT FOUND"


@pytest.fixture
def paying(site, stripe_on):
    """The browser page with card payments on, against the fake Stripe (see the module doc)."""
    return site


def enter_card(page, number: str) -> None:
    """Type a card into the fake card element's plain inputs."""
    for placeholder, value in [
        ("number", number),
        ("exp_month", "12"),
        ("exp_year", "30"),
        ("cvc", "123"),
        ("postal_code", "12345"),
    ]:
        page.get_by_placeholder(placeholder, exact=True).fill(value)


def pay_button(page):
    return page.get_by_role("button", name="Pay", exact=True)


def order_through_the_ui(page, part) -> Booking:
    page.goto(f"/purchaseintent/{part.pk}")
    page.get_by_label("Phone").fill("0123456789")
    page.get_by_label("Address").fill("7 Gear Lane, Leeds")
    page.get_by_label("Quantity").fill("3")
    page.get_by_role("button", name="Submit").click()
    expect(page).to_have_url(re.compile(r"/dashboard/orders/\d+$"))
    booking = Booking.objects.of_parts([part.pk]).get()
    expect(page.get_by_role("heading", name=f"Order #{booking.pk}")).to_be_visible()
    expect(page.get_by_role("link", name="Pay")).to_be_visible()
    page.goto("/dashboard/myorder")
    return booking


def test_order_pay_by_card_and_get_it_shipped(paying):
    site = paying
    user = UserFactory(name="Rosa Rider")
    part = PartFactory(
        name="Sintered brake pads",
        price=Decimal("24.50"),
        minimum_order_quantity=2,
        available_quantity=10,
    )
    sign_in(site, user)
    booking = order_through_the_ui(site, part)

    site.get_by_role("row").filter(has_text="Sintered brake pads").get_by_role(
        "link", name="Pay"
    ).click()
    expect(site).to_have_url(f"{site.base_url}/dashboard/payment/{booking.pk}")
    for text in [
        "Hello, Rosa Rider",
        "Please pay for Sintered brake pads",
        "Quantity: 3",
        "Please pay: $73.50",
    ]:
        expect(site.get_by_text(text, exact=True)).to_be_visible()
    expect(pay_button(site)).to_be_enabled()
    enter_card(site, GOOD_CARD)
    shot(site, "payment-form")
    pay_button(site).click()

    expect(site.get_by_text(PAID)).to_be_visible()
    transaction = site.get_by_text(re.compile(r"^Your transaction Id: pi_\w+$"))
    expect(transaction).to_be_visible()
    transaction_id = transaction.inner_text().removeprefix("Your transaction Id: ")
    expect(pay_button(site)).to_be_disabled()
    shot(site, "payment-success")
    booking.refresh_from_db()
    assert booking.paid
    assert booking.transaction_id == transaction_id
    assert booking.payment_intent_id == transaction_id

    site.get_by_role("link", name="Back to My Order").click()
    row = site.get_by_role("row").filter(has_text="Sintered brake pads")
    expect(row).to_contain_text("Paid")
    expect(row).to_contain_text(transaction_id)
    expect(row).to_contain_text("Pending")
    expect(row.get_by_role("link", name="Pay")).to_have_count(0)

    site.get_by_role("navigation", name="Main").get_by_role(
        "button", name="Rosa Rider (Sign Out)"
    ).click()
    sign_in(site, AdminFactory(name="Ada Admin"))
    site.goto("/dashboard/manageorders")
    row = site.get_by_role("row").filter(has_text="Sintered brake pads")
    expect(row).to_contain_text("Pending")
    row.get_by_role("button", name="Approve").click()
    site.get_by_role("dialog").get_by_role("button", name="Approve").click()  # no carrier
    expect(site.get_by_text("status updated").first).to_be_visible()
    expect(row).to_contain_text("Shipped")
    booking.refresh_from_db()
    assert booking.status == Booking.Status.APPROVED

    # The owner refunds it in full (after "Are you sure?"); shipped, so no stock comes back.
    answers = []
    site.on("dialog", lambda dialog: (answers.append(dialog.message), dialog.accept()))
    row.get_by_role("button", name="Refund").click()
    expect(row).to_contain_text("Refunded")
    assert answers == ["Are you sure?"]
    booking.refresh_from_db()
    assert booking.state == Booking.State.REFUNDED
    assert booking.refund_id.startswith("re_")


def test_place_order_goes_on_to_pay_and_the_paid_order_says_so(paying):
    """BEYOND.md "A cart": Place order goes straight on to the payment page of the new order;
    once paid, that page says "Order #N is paid." with a link to the order, then and when it is
    opened again."""
    site = paying
    demo_methods()
    shopper = UserFactory(name="Rosa Rider")
    saved_address(shopper)
    cart = Cart.objects.create(user=shopper)
    pads = PartFactory(name="Brake pads", price=Decimal("24.50"), minimum_order_quantity=2)
    fluid = PartFactory(name="Brake fluid", price=Decimal("9.00"), minimum_order_quantity=1)
    CartLineFactory(cart=cart, part=pads, quantity=2)
    CartLineFactory(cart=cart, part=fluid, quantity=3)
    sign_in(site, shopper)
    site.goto("/checkout")
    site.get_by_role("button", name="Place order").click()  # to the saved address, by Standard

    expect(site).to_have_url(re.compile(r"/dashboard/payment/\d+$"))
    booking = Booking.objects.get(user=shopper)
    assert site.url.endswith(f"/dashboard/payment/{booking.pk}")
    expect(site.get_by_text("Please pay for Brake pads, Brake fluid", exact=True)).to_be_visible()
    expect(site.get_by_text("Please pay: $76.00", exact=True)).to_be_visible()
    expect(site.get_by_test_id("order-lines").get_by_role("row")).to_have_count(3)
    enter_card(site, GOOD_CARD)
    pay_button(site).click()

    expect(site.get_by_text(PAID)).to_be_visible()
    paid = site.get_by_role("heading", name=f"Order #{booking.pk} is paid.")
    expect(paid).to_be_visible()
    expect(site.get_by_text("Please pay", exact=False)).to_have_count(0)
    shot(site, "paid-from-cart")

    site.reload()
    expect(paid).to_be_visible()
    expect(site.get_by_text("Please pay", exact=False)).to_have_count(0)
    expect(site.get_by_text("Paid: $76.00", exact=True)).to_be_visible()
    expect(pay_button(site)).to_have_count(0)
    site.get_by_role("link", name=f"View Order #{booking.pk}").click()
    expect(site).to_have_url(f"{site.base_url}/dashboard/orders/{booking.pk}")
    expect(site.get_by_role("heading", name=f"Order #{booking.pk}")).to_be_visible()
    order = site.get_by_role("region", name=f"Order #{booking.pk}")
    shown = breakdown(order)
    assert {label: shown.get(label) for label in ("Subtotal", "Shipping", "Total")} == {
        "Subtotal": "$76.00",
        "Shipping": "Standard: Free",
        "Total": "$76.00",
    }
    next_steps = site.get_by_role("region", name="What happens next")
    expect(next_steps).to_contain_text(
        "We are packing your order. We will e-mail you when it ships."
    )
    shot(site, "paid-order-page")
    booking.refresh_from_db()
    assert booking.paid


def test_pay_waits_for_the_client_secret_with_a_spinner(paying):
    site = paying
    user = UserFactory()
    booking = BookingFactory(user=user)
    held = []

    def hold(route):
        held.append(route)

    site.route("**/api/create-payment-intent", hold)
    sign_in(site, user)
    site.goto(f"/dashboard/payment/{booking.pk}")
    expect(site.get_by_placeholder("number", exact=True)).to_be_visible()
    expect(site.get_by_text("Loading the card form…")).to_be_visible()
    expect(pay_button(site)).to_be_disabled()
    assert len(held) == 1
    held[0].continue_()
    expect(pay_button(site)).to_be_enabled()
    expect(site.get_by_text("Loading the card form…")).to_have_count(0)


def test_a_declined_card_shows_the_providers_message_in_red(paying):
    site = paying
    user = UserFactory()
    booking = BookingFactory(user=user, parts_name="Chain kit")
    sign_in(site, user)
    site.set_viewport_size({"width": 375, "height": 740})
    site.goto(f"/dashboard/payment/{booking.pk}")
    expect(pay_button(site)).to_be_enabled()
    enter_card(site, DECLINED_CARD)
    pay_button(site).click()

    message = site.get_by_role("alert").filter(has_text="Your card was declined.")
    expect(message).to_be_visible()
    expect(message).to_have_class(re.compile(r"\btext-error\b"))
    expect(site.get_by_text(PAID)).to_have_count(0)
    expect(pay_button(site)).to_be_enabled()
    shot(site, "payment-declined-375")
    booking.refresh_from_db()
    assert not booking.paid
    assert booking.transaction_id == ""


def test_another_card_after_a_decline_pays(paying):
    site = paying
    user = UserFactory()
    booking = BookingFactory(user=user)
    sign_in(site, user)
    site.goto(f"/dashboard/payment/{booking.pk}")
    enter_card(site, DECLINED_CARD)
    pay_button(site).click()
    expect(site.get_by_role("alert").filter(has_text="Your card was declined.")).to_be_visible()

    enter_card(site, GOOD_CARD)
    pay_button(site).click()

    expect(site.get_by_text(PAID)).to_be_visible()
    booking.refresh_from_db()
    assert booking.paid


def test_a_card_that_needs_3d_secure_pays_once_authenticated(paying):
    site = paying
    user = UserFactory()
    booking = BookingFactory(user=user)
    sign_in(site, user)
    site.goto(f"/dashboard/payment/{booking.pk}")
    enter_card(site, THREE_D_SECURE_CARD)
    pay_button(site).click()

    # The fake's own 3-D Secure step (Stripe shows its bank's page there).
    site.get_by_role("button", name="Complete authentication").click()

    expect(site.get_by_text(PAID)).to_be_visible()
    booking.refresh_from_db()
    assert booking.paid


def test_card_fields_are_checked_with_the_providers_messages(paying):
    site = paying
    user = UserFactory()
    booking = BookingFactory(user=user)
    sign_in(site, user)
    site.goto(f"/dashboard/payment/{booking.pk}")
    for number, message in [
        ("4242 4242", "Your card number is incomplete."),
        ("4242424242424241", "Your card number is invalid."),
    ]:
        enter_card(site, number)
        pay_button(site).click()
        expect(site.get_by_role("alert").filter(has_text=message)).to_be_visible()
    enter_card(site, GOOD_CARD)
    site.get_by_placeholder("cvc", exact=True).fill("12")
    pay_button(site).click()
    expect(
        site.get_by_role("alert").filter(has_text="Your card's security code is incomplete.")
    ).to_be_visible()
    expect(site.get_by_text("Bad request")).to_have_count(0)
    booking.refresh_from_db()
    assert not booking.paid


def test_without_stripe_keys_the_page_says_so(site, settings):
    settings.STRIPE_SECRET_KEY = ""
    settings.STRIPE_PUBLISHABLE_KEY = ""
    user = UserFactory()
    booking = BookingFactory(user=user)
    sign_in(site, user)
    site.goto(f"/dashboard/payment/{booking.pk}")
    expect(site.get_by_text("Card payments are not configured on this shop.")).to_be_visible()
    expect(pay_button(site)).to_have_count(0)


def test_someone_elses_order_is_not_found(paying):
    site = paying
    booking = BookingFactory()
    sign_in(site, UserFactory())
    site.goto(f"/dashboard/payment/{booking.pk}")
    expect(site.get_by_role("heading", name=NOT_FOUND)).to_be_visible()
    expect(site.get_by_role("link", name="Go to Home")).to_be_visible()
    expect(pay_button(site)).to_have_count(0)


def test_an_already_paid_order_shows_its_payment_and_no_form(paying):
    site = paying
    user = UserFactory()
    booking = BookingFactory(user=user, paid_order=True, transaction_id="pi_already42")
    sign_in(site, user)
    site.goto(f"/dashboard/payment/{booking.pk}")
    expect(site.get_by_text("This order is already paid.")).to_be_visible()
    expect(site.get_by_text("Your transaction Id: pi_already42")).to_be_visible()
    expect(pay_button(site)).to_have_count(0)
    expect(site.get_by_placeholder("number", exact=True)).to_have_count(0)
    site.get_by_role("link", name="Back to My Order").click()
    expect(site).to_have_url(f"{site.base_url}/dashboard/myorder")
