"""Checkout with an address book, delivery methods and a voucher, in Chromium (BEYOND.md
"Checkout a shop can open with"): a rider with a saved address applies a voucher on /cart (a
wrong code is said under the field), picks Express at /checkout and sees the exact total
change, places the order, and the order page shows the same breakdown (at a desktop and a
phone width, axe clean, no sideways scroll at 390 px); a country no method delivers to says so
and Place order waits; a new address is saved when asked; the whole checkout by keyboard; a
refused address is said on its field."""

import re
from decimal import Decimal

import pytest
from playwright.sync_api import expect

from accounts.models import Address
from accounts.tests.factories import UserFactory
from catalog.tests.factories import PartFactory
from orders.models import Booking, Cart
from orders.tests.factories import CartLineFactory
from pricing.tests import factories
from tests.e2e.conftest import (
    SAVED_LINE,
    axe_findings,
    breakdown,
    demo_methods,
    saved_address,
    shot,
    sign_in,
    total_of,
)

pytestmark = pytest.mark.sqlite  # a journey `make test-sqlite` runs on SQLite too

WIDTHS = [1366, 390]
ORDER_PAGE = re.compile(r"/dashboard/orders/\d+$")


def press(locator, key: str = "Enter") -> None:
    """Reach a control as the keyboard does (focus) and press a key on it."""
    locator.focus()
    expect(locator).to_be_focused()
    locator.press(key)


def type_into(locator, text: str) -> None:
    locator.focus()
    locator.press("ControlOrMeta+a")
    locator.press_sequentially(text)


def axe_clean(page) -> None:
    blocking = axe_findings(page)
    assert not blocking, "\n".join(blocking)


def no_sideways_scroll(page) -> None:
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"{page.url} is {width}px wide"


def a_cart(shopper, *, price="24.50", quantity=2):
    part = PartFactory(name="Sintered brake pads", price=Decimal(price), available_quantity=20)
    CartLineFactory(cart=Cart.objects.create(user=shopper), part=part, quantity=quantity)
    return part


def order_total(page):
    return page.get_by_role("region", name="Order total")


def delivery(page):
    return page.get_by_role("group", name="Delivery")


def ship_to(page):
    return page.get_by_role("group", name="Ship to")


@pytest.mark.parametrize("width", WIDTHS)
def test_a_voucher_express_and_the_same_breakdown_on_the_order_page(axe_page, width):
    site = axe_page
    site.set_viewport_size({"width": width, "height": 900})
    demo_methods()
    factories.voucher("RIDE10", kind="percent", value="10")
    shopper = UserFactory(name="Rosa Rider")
    saved_address(shopper)
    a_cart(shopper)  # 2 × $24.50
    sign_in(site, shopper)

    site.goto("/cart")
    code = site.get_by_label("Voucher code")
    type_into(code, "NOPE")
    press(site.get_by_role("button", name="Apply"))
    expect(site.get_by_text("This code is not valid.")).to_be_visible()
    expect(code).to_have_attribute("aria-invalid", "true")
    expect(code).to_have_accessible_description("This code is not valid.")

    type_into(code, "ride10")
    press(site.get_by_role("button", name="Apply"))
    expect(site.get_by_text("Code applied: RIDE10")).to_be_visible()
    expect(site.get_by_text("This code is not valid.")).to_have_count(0)
    expect(total_of(site)).to_have_text("$44.10")
    assert breakdown(site.locator("main")) == {
        "Subtotal": "$49.00",
        "Discount (RIDE10)": "-$4.90",
        "Total": "$44.10",
    }
    shot(site, f"cart-voucher-{width}")
    axe_clean(site)
    no_sideways_scroll(site)

    press(site.get_by_role("link", name="Checkout"))
    expect(site).to_have_url(f"{site.base_url}/checkout")
    expect(ship_to(site).get_by_role("radio", name=SAVED_LINE)).to_be_checked()
    expect(site.get_by_label("Full name")).to_have_count(0)  # no new address form
    standard = delivery(site).get_by_role("radio", name=re.compile(r"^Standard · Free"))
    express = delivery(site).get_by_role("radio", name=re.compile(r"^Express · \$14\.99"))
    expect(standard).to_be_checked()
    expect(delivery(site)).to_contain_text("3–5 business days")
    expect(delivery(site)).to_contain_text("1–2 business days")
    expect(total_of(order_total(site))).to_have_text("$44.10")
    axe_clean(site)
    no_sideways_scroll(site)

    press(express, "Space")
    expect(express).to_be_checked()
    expect(total_of(order_total(site))).to_have_text("$59.09")  # 49.00 − 4.90 + 14.99
    shown = breakdown(order_total(site))
    assert shown == {
        "Subtotal": "$49.00",
        "Discount (RIDE10)": "-$4.90",
        "Shipping": "Express: $14.99",
        "Tax": "$0.00",
        "Total": "$59.09",
    }
    shot(site, f"checkout-express-{width}")
    axe_clean(site)
    no_sideways_scroll(site)

    press(site.get_by_role("button", name="Place order"))
    expect(site).to_have_url(ORDER_PAGE)
    booking = Booking.objects.get(user=shopper)
    order = site.get_by_role("region", name=f"Order #{booking.pk}")
    expect(order).to_be_visible()
    on_the_order = breakdown(order)
    assert {label: on_the_order.get(label) for label in shown} == shown
    expect(order).to_contain_text(SAVED_LINE)
    no_sideways_scroll(site)
    shot(site, f"ordered-with-voucher-{width}")
    assert (booking.total_price, booking.voucher_code, booking.shipping_method) == (
        Decimal("59.09"),
        "RIDE10",
        "Express",
    )


def test_a_country_no_method_delivers_to_says_so_and_a_new_address_is_saved(axe_page):
    site = axe_page
    demo_methods(countries=("US",))
    shopper = UserFactory(name="Ola Nordmann")
    a_cart(shopper)
    sign_in(site, shopper)
    site.goto("/checkout")

    # No saved address: the form at once, "Save this address" ticked.
    expect(ship_to(site).get_by_role("radio")).to_have_count(0)
    save = site.get_by_label("Save this address")
    expect(save).to_be_checked()
    place = site.get_by_role("button", name="Place order")
    expect(place).to_be_enabled()

    site.get_by_label("Country").select_option(label="Norway")
    expect(site.get_by_text("We do not deliver to Norway.")).to_be_visible()
    expect(delivery(site).get_by_role("radio")).to_have_count(0)
    expect(place).to_be_disabled()
    shot(site, "checkout-no-delivery")
    axe_clean(site)  # the new address form, and no method

    site.get_by_label("Country").select_option(label="United States of America")
    expect(delivery(site).get_by_role("radio", name=re.compile(r"^Standard"))).to_be_checked()
    expect(site.get_by_text("We do not deliver to Norway.")).to_have_count(0)
    expect(place).to_be_enabled()

    for label, value in {
        "Full name": "Ola Nordmann",
        "Address line 1": "1 Main St",
        "Address line 2": "Apt 2",
        "City": "Springfield",
        "State / region": "IL",
        "Postcode": "6270",  # not a US ZIP code
        "Phone": "+1 217 555 0100",
    }.items():
        site.get_by_label(label, exact=True).fill(value)
    place.click()
    postcode = site.get_by_label("Postcode")
    expect(postcode).to_be_focused()
    expect(postcode).to_have_attribute("aria-invalid", "true")
    expect(postcode).to_have_accessible_description(re.compile("ZIP", re.IGNORECASE))
    assert not Booking.objects.exists()
    axe_clean(site)  # a field's error

    postcode.fill("62701")
    place.click()
    expect(site).to_have_url(ORDER_PAGE)
    [address] = Address.objects.filter(owner=shopper)
    assert (address.full_name, address.line1, address.line2, address.city) == (
        "Ola Nordmann",
        "1 Main St",
        "Apt 2",
        "Springfield",
    )
    assert (address.region, address.postcode, address.country.code) == ("IL", "62701", "US")
    booking = Booking.objects.get(user=shopper)
    assert booking.address == (
        "Ola Nordmann, 1 Main St, Apt 2, Springfield, IL 62701, United States of America"
    )


def test_a_new_address_not_to_save_is_not_saved(site):
    demo_methods()
    shopper = UserFactory()
    saved_address(shopper)
    a_cart(shopper)
    sign_in(site, shopper)
    site.goto("/checkout")
    ship_to(site).get_by_role("radio", name="New address").check()
    expect(site.get_by_label("Save this address")).not_to_be_checked()
    for label, value in {
        "Full name": "Kari Nordmann",
        "Address line 1": "Storgata 1",
        "City": "London",
        "Postcode": "SW1A 1AA",
        "Phone": "+442079460000",
    }.items():
        site.get_by_label(label, exact=True).fill(value)
    site.get_by_label("Country").select_option(label="United Kingdom")
    expect(delivery(site).get_by_role("radio", name=re.compile(r"^Standard"))).to_be_checked()
    site.get_by_role("button", name="Place order").click()
    expect(site).to_have_url(ORDER_PAGE)
    assert Address.objects.filter(owner=shopper).count() == 1
    assert Booking.objects.get(user=shopper).address.startswith("Kari Nordmann, Storgata 1")


def test_checkout_by_keyboard_alone(site):
    demo_methods()
    shopper = UserFactory()
    saved_address(shopper)
    a_cart(shopper)
    sign_in(site, shopper)
    site.goto("/checkout")

    saved = ship_to(site).get_by_role("radio", name=SAVED_LINE)
    new = ship_to(site).get_by_role("radio", name="New address")
    saved.focus()  # where the keyboard enters Ship to
    expect(saved).to_be_focused()
    site.keyboard.press("ArrowDown")
    expect(new).to_be_checked()
    expect(site.get_by_label("Full name")).to_be_visible()
    site.keyboard.press("Tab")
    expect(site.get_by_label("Full name")).to_be_focused()
    site.keyboard.press("Shift+Tab")
    expect(new).to_be_focused()
    site.keyboard.press("ArrowUp")
    expect(saved).to_be_checked()
    expect(site.get_by_label("Full name")).to_have_count(0)

    site.keyboard.press("Tab")
    standard = delivery(site).get_by_role("radio", name=re.compile(r"^Standard"))
    express = delivery(site).get_by_role("radio", name=re.compile(r"^Express"))
    expect(standard).to_be_focused()
    site.keyboard.press("ArrowDown")
    expect(express).to_be_checked()
    expect(total_of(order_total(site))).to_have_text("$63.99")  # 49.00 + 14.99
    site.keyboard.press("ArrowUp")
    expect(standard).to_be_checked()
    expect(total_of(order_total(site))).to_have_text("$49.00")
    site.keyboard.press("ArrowDown")
    expect(express).to_be_focused()
    site.keyboard.press("Space")
    expect(express).to_be_checked()

    site.keyboard.press("Tab")
    place = site.get_by_role("button", name="Place order")
    expect(place).to_be_focused()
    expect(place).to_be_enabled()  # the methods of the saved address's region, asked again
    site.keyboard.press("Enter")
    expect(site).to_have_url(ORDER_PAGE)
    assert Booking.objects.get(user=shopper).total_price == Decimal("63.99")


def test_a_voucher_that_needs_more_says_how_much_and_remove_takes_it_off(site):
    factories.voucher("BIG20", kind="fixed", value="20", min_subtotal=Decimal("64.00"))
    shopper = UserFactory()
    a_cart(shopper)  # $49.00
    sign_in(site, shopper)
    site.goto("/cart")
    code = site.get_by_label("Voucher code")
    type_into(code, "big20")
    press(site.get_by_role("button", name="Apply"))
    expect(site.get_by_text("Spend $15.00 more to use this code.")).to_be_visible()
    expect(code).to_have_accessible_description("Spend $15.00 more to use this code.")
    expect(site.get_by_text("Code applied")).to_have_count(0)

    row = site.get_by_role("listitem").filter(has_text="Sintered brake pads")
    type_into(row.get_by_label("Quantity"), "3")  # $73.50
    press(row.get_by_role("button", name="Update"))
    expect(total_of(site.locator("main"))).to_have_text("$73.50")
    press(site.get_by_role("button", name="Apply"))
    expect(site.get_by_text("Code applied: BIG20")).to_be_visible()
    expect(total_of(site.locator("main"))).to_have_text("$53.50")

    voucher = site.get_by_role("region", name="Voucher")
    press(voucher.get_by_role("button", name="Remove"))
    expect(site.get_by_text("Code applied")).to_have_count(0)
    expect(total_of(site.locator("main"))).to_have_text("$73.50")
    expect(code).to_be_focused()


def test_the_purchase_form_offers_delivery_and_its_total(site):
    demo_methods()
    shopper = UserFactory()
    part = PartFactory(
        name="Chain kit", price=Decimal("50.00"), minimum_order_quantity=1, available_quantity=9
    )
    sign_in(site, shopper)
    site.goto(f"/purchaseintent/{part.pk}")
    form = site.get_by_role("form", name="Purchase form")
    methods = form.get_by_role("group", name="Delivery")
    standard = methods.get_by_role("radio", name=re.compile(r"^Standard · Free"))
    express = methods.get_by_role("radio", name=re.compile(r"^Express · \$14\.99"))
    expect(standard).to_be_checked()
    expect(form.get_by_text("Total: $50.00")).to_be_visible()

    express.check()
    expect(form.get_by_text("Total: $64.99")).to_be_visible()
    type_into(form.get_by_label(re.compile(r"^Quantity")), "2")
    expect(form.get_by_text("Total: $114.99")).to_be_visible()  # asked again for 2
    expect(express).to_be_checked()

    form.get_by_label("Phone").fill("0123456789")
    form.get_by_label("Address").fill("7 Gear Lane, Springfield")
    form.get_by_role("button", name="Submit").click()
    expect(site).to_have_url(ORDER_PAGE)
    booking = Booking.objects.get(user=shopper)
    assert (booking.shipping_method, booking.total_price) == ("Express", Decimal("114.99"))


def test_a_region_with_its_own_tax_shows_what_the_total_includes(site):
    demo_methods()
    factories.tax_rate("US", "10", region="IL", name="Sales tax")
    shopper = UserFactory()
    a_cart(shopper)  # $49.00
    sign_in(site, shopper)
    site.goto("/checkout")
    totals = order_total(site)
    expect(total_of(totals)).to_have_text("$49.00")
    assert breakdown(totals)["Tax"] == "$0.00"

    site.get_by_label("State / region").press_sequentially("IL")  # asked once typing stops
    expect(totals.get_by_text("Includes $4.45 tax")).to_be_visible()  # 49.00 × 10 / 110
    expect(total_of(totals)).to_have_text("$49.00")  # the prices include it
    site.get_by_label("State / region").fill("")
    expect(totals.get_by_text("Includes $4.45 tax")).to_have_count(0)


def test_a_voucher_switched_off_before_place_order_is_said_and_the_total_shown_again(site):
    demo_methods()
    voucher = factories.voucher("RIDE10", kind="percent", value="10")
    shopper = UserFactory()
    saved_address(shopper)
    a_cart(shopper)  # $49.00
    sign_in(site, shopper)
    site.goto("/cart")
    type_into(site.get_by_label("Voucher code"), "RIDE10")
    press(site.get_by_role("button", name="Apply"))
    expect(site.get_by_text("Code applied: RIDE10")).to_be_visible()
    press(site.get_by_role("link", name="Checkout"))
    expect(total_of(order_total(site))).to_have_text("$44.10")
    type(voucher).objects.filter(pk=voucher.pk).update(active=False)  # the owner, meanwhile

    press(site.get_by_role("button", name="Place order"))
    expect(site.get_by_role("alert")).to_have_text("This code is not valid.")
    expect(total_of(order_total(site))).to_have_text("$49.00")
    expect(site.get_by_text("RIDE10: This code is not valid.")).to_be_visible()
    assert not Booking.objects.exists()

    site.goto("/cart")
    code = site.get_by_label("Voucher code")
    expect(code).to_have_accessible_description("This code is not valid.")
    press(site.get_by_role("region", name="Voucher").get_by_role("button", name="Remove"))
    expect(site.get_by_text("Code applied")).to_have_count(0)
    press(site.get_by_role("link", name="Checkout"))
    press(site.get_by_role("button", name="Place order"))
    expect(site).to_have_url(ORDER_PAGE)
    assert Booking.objects.get(user=shopper).total_price == Decimal("49.00")
