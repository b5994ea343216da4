"""The Content-Security-Policy in Chromium: every kind of page runs with zero violations and
zero script errors, and what the policy forbids (inline script) is really refused.

Violations are caught twice: a `securitypolicyviolation` listener that an init script installs
in every document before the page's own scripts, and Chromium's console messages about the
"Content Security Policy"."""

import pytest
from playwright.sync_api import expect

from accounts.tests.factories import TEST_PASSWORD, AdminFactory, UserFactory
from catalog.tests.factories import PartFactory
from orders.tests.factories import BookingFactory
from reviews.tests.factories import ReviewFactory
from tests.e2e import test_payment
from tests.e2e.conftest import shot, sign_in
from tests.e2e.test_payment import GOOD_CARD, PAID, enter_card, pay_button

LISTEN = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__cspViolations.push(
    `${event.violatedDirective} refused ${event.blockedURI || "inline"}` +
      ` (${event.sourceFile}:${event.lineNumber})`,
  );
});
"""

paying = test_payment.paying  # fixture: the page, with card payments on the fake Stripe

PUBLIC = [
    "/",
    "/allparts",
    "/blogs",
    "/myportfolio",
    "/login",
    "/signup",
    "/accounts/password/reset/",
    "/no/such/page",
]
SHOPPER = ["/dashboard", "/dashboard/profile", "/dashboard/myorder", "/dashboard/review"]
ADMIN = [
    "/dashboard/manageorders",
    "/dashboard/manageparts",
    "/dashboard/addparts",
    "/dashboard/users",
]


class Watch:
    """What went wrong in the browser page: CSP violations and uncaught script errors."""

    def __init__(self, page):
        self.page = page
        self.console: list[str] = []
        self.errors: list[str] = []
        page.add_init_script(LISTEN)
        page.on("console", self.on_console)
        page.on("pageerror", lambda error: self.errors.append(str(error)))

    def on_console(self, message):
        if "Content Security Policy" in message.text or "Content-Security-Policy" in message.text:
            self.console.append(message.text)

    def violations(self) -> list[str]:
        return self.page.evaluate("() => window.__cspViolations || []") + self.console

    def visit(self, path: str) -> None:
        """Open `path`, let its scripts and calls settle, and check nothing was refused."""
        self.page.goto(path)
        self.page.wait_for_load_state("networkidle")
        self.assert_clean(path)

    def assert_clean(self, where: str) -> None:
        assert self.violations() == [], where
        assert self.errors == [], where


@pytest.fixture
def watch(site):
    return Watch(site)


@pytest.fixture
def catalog():
    part = PartFactory(name="Chain kit 520", img="https://images.example.com/chain.png")
    ReviewFactory(review="Great chain, smooth ride.")
    return part


def test_public_pages(watch, catalog):
    for path in [*PUBLIC, f"/purchaseintent/{catalog.pk}"]:
        watch.visit(path)


def test_shopper_pages(site, watch, catalog):
    user = UserFactory()
    BookingFactory(user=user, part=catalog)
    sign_in(site, user)
    for path in [*SHOPPER, f"/purchaseintent/{catalog.pk}"]:
        watch.visit(path)


def test_admin_pages(site, watch, catalog):
    BookingFactory(part=catalog)
    sign_in(site, AdminFactory())
    for path in ADMIN:
        watch.visit(path)


def test_signing_in_through_the_form_and_a_toast(site, watch):
    """The sign-in form posts and redirects; the next page shows a toast (react-toastify)."""
    user = UserFactory(name="Tess Toast")
    watch.visit("/login")
    site.get_by_label("Email").fill(user.email)
    site.get_by_label("Password").fill(TEST_PASSWORD)
    site.get_by_role("button", name="Login").click()
    expect(site.get_by_role("button", name="Tess Toast (Sign Out)")).to_be_visible()
    site.goto("/dashboard/profile")
    site.get_by_label("Education").fill("Mechanics")
    site.get_by_label("Location").fill("Leeds")
    site.get_by_label("Phone").fill("0123456789")
    site.get_by_label("LinkedIn").fill("https://www.linkedin.com/in/tess")
    site.get_by_role("button", name="Update profile").click()
    expect(site.get_by_text("user updated")).to_be_visible()
    site.wait_for_load_state("networkidle")
    watch.assert_clean("profile update with a toast")
    shot(site, "toast-under-csp")


def test_paying_by_card_with_stripe_js(paying):
    """The payment page loads Stripe.js (the fake one, from its own origin) and pays."""
    site = paying
    watch = Watch(site)
    user = UserFactory()
    booking = BookingFactory(user=user)
    sign_in(site, user)
    watch.visit(f"/dashboard/payment/{booking.pk}")
    expect(pay_button(site)).to_be_enabled()
    enter_card(site, GOOD_CARD)
    pay_button(site).click()
    expect(site.get_by_text(PAID)).to_be_visible()
    watch.assert_clean("after paying")


def test_api_docs(site, watch):
    watch.visit("/api/docs")
    expect(site.get_by_text("/api/allparts").first).to_be_visible()
    watch.assert_clean("/api/docs rendered")


def test_django_admin(site, watch):
    # Django admin's sign-in is the shop's /login, which comes back to /admin/.
    watch.visit("/admin/login/")
    expect(site).to_have_url(f"{site.base_url}/login?next=/admin/")
    staff = AdminFactory(is_staff=True, is_superuser=True)
    site.get_by_label("Email").fill(staff.email)
    site.get_by_label("Password").fill(TEST_PASSWORD)
    site.get_by_role("button", name="Login", exact=True).click()
    expect(site.get_by_role("link", name="Parts").first).to_be_visible()
    watch.assert_clean("/admin/")
    for path in ("/admin/orders/booking/", "/admin/catalog/part/add/", "/admin/accounts/user/"):
        watch.visit(path)


def test_inline_script_is_refused_and_reported(site, watch):
    """The watch is not blind: a script injected into the page does not run, and is seen."""
    watch.visit("/")
    site.evaluate(
        """() => {
            const script = document.createElement("script");
            script.textContent = "window.__ran = true";
            document.head.append(script);
        }"""
    )
    site.wait_for_function("() => window.__cspViolations.length > 0")
    assert site.evaluate("() => window.__ran") is None
    assert any(v.startswith("script-src") for v in watch.violations()), watch.violations()
