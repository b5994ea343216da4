"""Script injection in Chromium: text that shoppers and admins type (names, reviews, profiles,
part names and descriptions, order addresses) is shown as text on every page that shows it,
in server templates and React islands alike, and never runs; javascript: URLs are refused.

The payloads are stored straight through the ORM, bypassing every form and serializer, as if an
older version or a database tool had let them in."""

import pytest
from playwright.sync_api import expect

from accounts.tests.factories import TEST_PASSWORD, AdminFactory, UserFactory
from accounts.validators import LINKEDIN_INVALID
from catalog.tests.factories import PartFactory
from orders.tests.factories import BookingFactory
from reviews.tests.factories import ReviewFactory
from tests.e2e.conftest import shot, sign_in

SCRIPT = "<script>window.__xss=1</script>"
IMG = '<img src=x onerror="window.__xss=1">'
SVG = '"><svg onload=window.__xss=1>'
JS_URL = "javascript:window.__xss=1"

# Markup that only an injection would have put there: the shop's templates and islands have
# no inline script (json_script data blocks aside) and no inline event handlers.
INJECTED = (
    "script:not([src]):not([type='application/json']), [onerror], [onload], [onclick],"
    " a[href^='javascript:' i], iframe[src^='javascript:' i]"
)
# A second chance for a payload: after the page settled, and after the page's own scripts
# (islands) re-rendered the data.
SETTLED = "networkidle"


@pytest.fixture
def stored(db):
    """A shopper, a part, a review and an order, each carrying payloads."""
    shopper = UserFactory(
        name=f"{IMG} Rider",
        education=SCRIPT,
        location=SVG,
        phone="0123456789",
        linkedin="https://www.linkedin.com/in/rider",
    )
    part = PartFactory(name=f"{SVG} chain", description=f"{IMG} {SCRIPT}", img=JS_URL)
    review = ReviewFactory(user=shopper, name=SCRIPT, review=f"{IMG} {SVG}")
    booking = BookingFactory(user=shopper, part=part, address=f"{SCRIPT} {IMG}")
    return {"shopper": shopper, "part": part, "review": review, "booking": booking}


def assert_inert(page, where: str) -> None:
    page.wait_for_load_state(SETTLED)
    assert page.evaluate("() => window.__xss") is None, where
    assert page.locator(INJECTED).count() == 0, where


def assert_shown_as_text(page, texts: list[str], where: str) -> None:
    for text in texts:
        expect(page.get_by_text(text).filter(visible=True).first, where).to_be_visible()


def visit(page, path: str, texts: list[str]) -> None:
    page.goto(path)
    assert_inert(page, path)
    assert_shown_as_text(page, texts, path)
    assert_inert(page, path)


def test_shopper_pages_show_the_payloads_as_text(site, stored, stripe_on):
    shopper, part = stored["shopper"], stored["part"]
    review, booking = stored["review"], stored["booking"]
    # Signing in through the form also shows the name in allauth's toast.
    site.goto("/login")
    site.get_by_label("Email").fill(shopper.email)
    site.get_by_label("Password").fill(TEST_PASSWORD)
    site.get_by_role("button", name="Login").click()
    expect(site.get_by_role("button", name=f"{shopper.name} (Sign Out)")).to_be_visible()
    assert_inert(site, "after signing in")

    pages = {
        "/": [part.name, part.description, review.name, review.review, shopper.name],
        "/allparts": [part.name, part.description],
        f"/purchaseintent/{part.pk}": [part.name, part.description],
        "/dashboard/review": [],
        "/dashboard/profile": [shopper.name, shopper.education, shopper.location],
        "/dashboard/myorder": [booking.parts_name],
        f"/dashboard/orders/{booking.pk}": [booking.parts_name],
        f"/dashboard/payment/{booking.pk}": [f"Hello, {shopper.name}", booking.parts_name],
    }
    for path, texts in pages.items():
        visit(site, path, texts)
    shot(site, "xss-payment")


def test_admin_pages_show_the_payloads_as_text(site, stored):
    part, booking = stored["part"], stored["booking"]
    sign_in(site, AdminFactory(is_staff=True, is_superuser=True))
    pages = {
        f"/admin/orders/booking/{booking.pk}/change/": [booking.name],
        f"/admin/catalog/part/{part.pk}/change/": [],
        "/admin/reviews/review/": [],
        "/dashboard/users": [stored["shopper"].email],
        "/dashboard/manageparts": [part.name],
        "/dashboard/manageorders": [booking.name, booking.parts_name],
    }
    for path, texts in pages.items():
        visit(site, path, texts)
    shot(site, "xss-manageorders")


def test_a_javascript_url_is_refused_as_linkedin(site, stored):
    shopper = stored["shopper"]
    sign_in(site, shopper)
    site.goto("/dashboard/profile")
    site.get_by_label("Education").fill("Mechanics")
    site.get_by_label("Location").fill("Leeds")
    site.get_by_label("Phone").fill("0123456789")
    site.get_by_label("LinkedIn").fill(JS_URL)
    site.get_by_role("button", name="Update profile").click()
    expect(site.get_by_text(LINKEDIN_INVALID)).to_be_visible()
    assert_inert(site, "profile form refused")
    shopper.refresh_from_db()
    assert shopper.linkedin == "https://www.linkedin.com/in/rider"


def test_a_javascript_url_is_refused_as_part_image(as_admin, stored):
    body = {
        "name": "Chain",
        "img": JS_URL,
        "price": 10,
        "minimumOrderQuantity": 1,
        "availableQuantity": 5,
    }
    response = as_admin.post("/api/allparts", body, format="json")
    assert response.status_code == 400
    assert "img" in response.json()
