"""The cart in Chromium, by keyboard alone: a visitor fills a cart from a card and a part page,
signs in at checkout, places one order of both parts and lands on its page (at a desktop and a
phone width, axe clean); a line that can no longer be had sends the shopper back to the cart;
a price raised between the cart and "Place order" is shown, with nothing held; the same cart on
two devices; a visitor's page kept for everyone never shows a cart count; a line for another
bike is warned of."""

import re
from decimal import Decimal

import pytest
from playwright.sync_api import expect

from accounts.tests.factories import TEST_PASSWORD, UserFactory
from catalog.models import Fitment, GarageBike, Part, Vehicle
from catalog.tests.factories import PartFactory
from orders.models import Booking, Cart, CartLine
from orders.tests.factories import BookingFactory, CartLineFactory
from tests.e2e.conftest import (
    SAVED_LINE,
    axe_findings,
    demo_methods,
    saved_address,
    shot,
    sign_in,
    total_of,
)

pytestmark = pytest.mark.sqlite  # a journey `make test-sqlite` runs on SQLite too

WIDTHS = [1366, 390]


def press(locator, key: str = "Enter") -> None:
    """Reach a control as the keyboard does (focus) and press a key on it."""
    locator.focus()
    expect(locator).to_be_focused()
    locator.press(key)


def type_into(locator, text: str) -> None:
    locator.focus()
    locator.press("ControlOrMeta+a")
    locator.press_sequentially(text)


def cart_link(page):
    return page.locator("header [data-cart-link]")


def axe_clean(page) -> None:
    blocking = axe_findings(page)
    assert not blocking, "\n".join(blocking)


def cart_total(page):
    return total_of(page.locator("main"))


def checkout_total(page):
    return total_of(page.get_by_role("region", name="Order total"))


def no_sideways_scroll(page) -> None:
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"{page.url} is {width}px wide"


@pytest.mark.parametrize("width", WIDTHS)
def test_a_visitor_fills_a_cart_signs_in_at_checkout_and_orders(axe_page, width):
    site = axe_page
    site.set_viewport_size({"width": width, "height": 900})
    pads = PartFactory(name="Sintered brake pads", price=Decimal("24.50"), minimum_order_quantity=2)
    fluid = PartFactory(name="DOT 4 brake fluid", price=Decimal("9.00"), minimum_order_quantity=1)
    demo_methods()
    shopper = UserFactory(name="Rosa Rider")
    saved_address(shopper)
    earlier = BookingFactory(
        user=shopper,
        part=fluid,
        address="7 Gear Lane, Leeds",
        phone="+441130000001",
        paid_order=True,
    )

    site.goto("/allparts")
    card = site.locator("article").filter(has_text="Sintered brake pads")
    press(card.get_by_role("button", name="Add to cart"))
    expect(site.get_by_text("Added to cart")).to_be_visible()
    expect(cart_link(site)).to_have_attribute("aria-label", "Cart, 2 items")

    site.goto(f"/parts/{fluid.pk}")
    type_into(site.get_by_label("Quantity"), "3")
    press(site.get_by_role("button", name="Add to cart"))
    expect(cart_link(site)).to_have_attribute("aria-label", "Cart, 5 items")
    axe_clean(site)
    no_sideways_scroll(site)

    press(cart_link(site))
    expect(site).to_have_url(f"{site.base_url}/cart")
    lines = site.get_by_role("list", name="Parts in your cart").get_by_role("listitem")
    expect(lines).to_have_count(2)
    expect(cart_total(site)).to_have_text("$76.00")  # 2 × 24.50 + 3 × 9.00
    type_into(site.get_by_label("Quantity").first, "4")
    press(site.get_by_role("button", name="Update").first)
    expect(cart_total(site)).to_have_text("$125.00")
    expect(cart_link(site)).to_have_attribute("aria-label", "Cart, 7 items")
    shot(site, f"cart-{width}")
    axe_clean(site)
    no_sideways_scroll(site)

    press(site.get_by_role("link", name="Checkout"))
    expect(site).to_have_url(f"{site.base_url}/checkout")  # sign in, sign up or a guest's order
    press(site.get_by_role("link", name="Sign in"))
    expect(site).to_have_url(f"{site.base_url}/login?next=/checkout")
    type_into(site.get_by_label("Email"), shopper.email)
    type_into(site.get_by_label("Password"), TEST_PASSWORD)
    site.get_by_label("Password").press("Enter")

    expect(site).to_have_url(f"{site.base_url}/checkout")
    expect(site.get_by_role("radio", name=SAVED_LINE)).to_be_checked()
    expect(site.get_by_role("radio", name=re.compile(r"^Standard · Free"))).to_be_checked()
    expect(checkout_total(site)).to_have_text("$125.00")
    shot(site, f"checkout-{width}")
    axe_clean(site)
    no_sideways_scroll(site)
    press(site.get_by_role("button", name="Place order"))

    expect(site).to_have_url(re.compile(r"/dashboard/orders/\d+$"))
    booking = Booking.objects.exclude(pk=earlier.pk).get(user=shopper)
    expect(site.get_by_role("heading", name=f"Order #{booking.pk}")).to_be_visible()
    assert sorted(booking.lines.values_list("part_id", "quantity")) == sorted(
        [(pads.pk, 4), (fluid.pk, 3)]
    )
    assert not CartLine.objects.exists()
    expect(cart_link(site)).to_have_attribute("aria-label", "Cart, 0 items")
    shot(site, f"ordered-from-cart-{width}")


def test_a_line_that_cannot_be_had_sends_the_shopper_back_to_the_cart(site):
    demo_methods()
    shopper = UserFactory()
    saved_address(shopper)
    part = PartFactory(name="Chain kit 520", minimum_order_quantity=1, available_quantity=10)
    other = PartFactory(name="Sprocket", minimum_order_quantity=1, available_quantity=10)
    cart = Cart.objects.create(user=shopper)
    CartLineFactory(cart=cart, part=part, quantity=4)
    CartLineFactory(cart=cart, part=other, quantity=1)
    sign_in(site, shopper)
    site.goto("/checkout")
    expect(site.get_by_role("radio", name=SAVED_LINE)).to_be_checked()
    Part.objects.filter(pk=part.pk).update(available_quantity=3)  # someone else bought some
    press(site.get_by_role("button", name="Place order"))

    expect(site).to_have_url(f"{site.base_url}/cart")
    row = site.get_by_role("listitem").filter(has_text="Chain kit 520")
    expect(row.get_by_text("Only 3 left")).to_be_visible()
    expect(site.get_by_role("button", name="Checkout")).to_be_disabled()
    assert not Booking.objects.exists()
    type_into(row.get_by_label("Quantity"), "3")
    press(row.get_by_role("button", name="Update"))
    expect(site.get_by_role("link", name="Checkout")).to_be_visible()
    shot(site, "cart-after-refused-checkout")


def test_a_price_raised_before_place_order_is_shown_and_nothing_is_held(site):
    demo_methods()
    shopper = UserFactory()
    saved_address(shopper)
    pads = PartFactory(name="Sintered brake pads", price=Decimal("24.50"), available_quantity=10)
    CartLineFactory(cart=Cart.objects.create(user=shopper), part=pads, quantity=2)
    sign_in(site, shopper)
    site.goto("/cart")
    expect(cart_total(site)).to_have_text("$49.00")
    press(site.get_by_role("link", name="Checkout"))
    expect(checkout_total(site)).to_have_text("$49.00")
    Part.objects.filter(pk=pads.pk).update(price=Decimal("245.00"))  # the owner, meanwhile

    press(site.get_by_role("button", name="Place order"))

    expect(site.get_by_role("alert")).to_have_text(
        "Prices changed since you looked: please check your order again."
    )
    notice = "The price went from $24.50 to $245.00 since you added it."
    expect(site.get_by_text(notice)).to_be_visible()
    expect(checkout_total(site)).to_have_text("$490.00")
    expect(site).to_have_url(f"{site.base_url}/checkout")
    shot(site, "checkout-prices-changed")
    assert not Booking.objects.exists()
    assert Part.objects.get(pk=pads.pk).available_quantity == 10  # nothing held
    assert list(CartLine.objects.values_list("part_id", "quantity")) == [(pads.pk, 2)]

    site.goto("/cart")
    row = site.get_by_role("listitem").filter(has_text="Sintered brake pads")
    expect(row.get_by_text(notice)).to_be_visible()
    expect(site.get_by_role("link", name="Checkout")).to_be_visible()  # a notice, not a block

    press(site.get_by_role("link", name="Checkout"))
    expect(checkout_total(site)).to_have_text("$490.00")
    press(site.get_by_role("button", name="Place order"))
    expect(site).to_have_url(re.compile(r"/dashboard/orders/\d+$"))  # no card payments here
    assert Booking.objects.get().total_price == Decimal("490.00")


def test_the_same_cart_on_two_devices(browser, base_url):
    shopper = UserFactory()
    part = PartFactory(name="Air filter", minimum_order_quantity=1, available_quantity=10)
    devices = [browser.new_context(base_url=base_url) for _ in range(2)]
    phone, laptop = (context.new_page() for context in devices)
    for page in (phone, laptop):
        page.base_url = base_url
        sign_in(page, shopper)
    phone.goto(f"/parts/{part.pk}")
    press(phone.get_by_role("button", name="Add to cart"))
    expect(cart_link(phone)).to_have_attribute("aria-label", "Cart, 1 item")
    laptop.goto("/")
    expect(cart_link(laptop)).to_have_attribute("aria-label", "Cart, 1 item")
    laptop.goto("/cart")
    expect(laptop.get_by_role("link", name="Air filter")).to_be_visible()
    for context in devices:
        context.close()


def test_a_kept_visitors_page_never_shows_another_visitors_count(browser, base_url):
    part = PartFactory(name="Spark plug", minimum_order_quantity=2, available_quantity=10)
    first, second = (browser.new_context(base_url=base_url) for _ in range(2))
    filling, looking = first.new_page(), second.new_page()
    filling.goto("/")
    press(
        filling.locator("article")
        .filter(has_text="Spark plug")
        .get_by_role("button", name="Add to cart")
    )
    expect(cart_link(filling)).to_have_attribute("aria-label", "Cart, 2 items")
    filling.goto("/")  # with a session now: not the visitors' kept page
    expect(cart_link(filling)).to_have_attribute("aria-label", "Cart, 2 items")

    looking.goto("/")  # the page kept for visitors (the first visitor's before their cart)
    looking.goto("/")
    expect(cart_link(looking)).to_have_attribute("aria-label", "Cart, 0 items")
    expect(cart_link(looking).locator("[data-cart-count]")).to_be_hidden()
    assert part.pk
    first.close()
    second.close()


def test_the_purchase_form_adds_to_the_cart_and_remove_empties_it(site):
    shopper = UserFactory()
    part = PartFactory(name="Clutch cable", minimum_order_quantity=2, available_quantity=10)
    sign_in(site, shopper)
    site.goto(f"/purchaseintent/{part.pk}")
    type_into(site.get_by_label(re.compile(r"^Quantity")), "1")
    press(site.get_by_role("button", name="Add to cart"))
    expect(
        site.get_by_text("Quantity must be at least 2 (the minimum order quantity)")
    ).to_be_visible()
    type_into(site.get_by_label(re.compile(r"^Quantity")), "3")
    press(site.get_by_role("button", name="Add to cart"))
    expect(site.get_by_text("Added to cart")).to_be_visible()
    expect(cart_link(site)).to_have_attribute("aria-label", "Cart, 3 items")

    site.goto("/cart")
    press(site.get_by_role("button", name="Remove"))
    expect(site.get_by_text("Your cart is empty.")).to_be_visible()
    press(site.get_by_role("link", name="All Parts").last)
    expect(site).to_have_url(f"{site.base_url}/allparts")
    expect(cart_link(site)).to_have_attribute("aria-label", "Cart, 0 items")


def test_a_line_for_another_bike_is_warned_of_but_checks_out(site):
    shopper = UserFactory()
    mt07 = Vehicle.objects.create(make="Yamaha", model="MT-07", year=2019)
    other = Vehicle.objects.create(make="Honda", model="CB500F", year=2019)
    part = PartFactory(name="CB500F chain guard", minimum_order_quantity=1, available_quantity=5)
    Fitment.objects.create(part=part, vehicle=other)
    GarageBike.objects.create(user=shopper, vehicle=mt07, active=True)
    CartLineFactory(cart=Cart.objects.create(user=shopper), part=part, quantity=1)
    sign_in(site, shopper)
    site.goto("/cart")

    row = site.get_by_role("listitem").filter(has_text="CB500F chain guard")
    expect(row.get_by_text("Does not fit your 2019 Yamaha MT-07")).to_be_visible()
    expect(site.get_by_role("link", name="Checkout")).to_be_visible()  # a warning, not a block


def test_a_quantity_error_on_the_part_page_replaces_the_added_to_cart_toast(site):
    """No "Added to cart" stays beside a later refusal: the page would say both."""
    part = PartFactory(name="Chain lube", minimum_order_quantity=1, available_quantity=5)
    site.goto(f"/parts/{part.pk}")
    form = site.get_by_role("form", name="Add to cart")
    quantity = form.get_by_label("Quantity")
    type_into(quantity, "2")
    press(form.get_by_role("button", name="Add to cart"))
    added = site.get_by_text("Added to cart")
    expect(added).to_be_visible()

    type_into(quantity, "4")  # 2 + 4 of 5
    press(form.get_by_role("button", name="Add to cart"))

    expect(form.get_by_text("Only 5 units are available")).to_be_visible()
    expect(added).to_have_count(0, timeout=2000)  # gone at once, not when it times out (5 s)
    expect(quantity).to_have_attribute("aria-invalid", "true")


def test_add_to_cart_on_the_purchase_form_says_why_a_quantity_cannot_be_had(site):
    shopper = UserFactory()
    part = PartFactory(name="Brake pads", minimum_order_quantity=1, available_quantity=10)
    sign_in(site, shopper)
    site.goto(f"/purchaseintent/{part.pk}")
    form = site.get_by_role("form", name="Purchase form")
    quantity = form.get_by_label(re.compile(r"^Quantity"))

    type_into(quantity, "11")  # above the stock
    press(form.get_by_role("button", name="Add to cart"))
    expect(form.get_by_text("Only 10 units are available")).to_be_visible()

    type_into(quantity, "6")
    press(form.get_by_role("button", name="Add to cart"))
    added = site.get_by_text("Added to cart")
    expect(added).to_be_visible()
    expect(form.get_by_text("Only 10 units are available")).to_have_count(0)

    type_into(quantity, "6")  # 6 in the cart already: the server refuses the sum
    press(form.get_by_role("button", name="Add to cart"))
    expect(form.get_by_text("Only 10 units are available")).to_be_visible()
    expect(added).to_have_count(0, timeout=2000)  # gone at once, not when it times out (5 s)

    type_into(quantity, "4")
    press(form.get_by_role("button", name="Add to cart"))
    expect(added).to_be_visible()
    type_into(quantity, "11")  # refused before asking the server: the toast goes too
    press(form.get_by_role("button", name="Add to cart"))
    expect(form.get_by_text("Only 10 units are available")).to_be_visible()
    expect(added).to_have_count(0, timeout=2000)
