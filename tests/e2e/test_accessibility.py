"""Accessibility in Chromium: axe-core (npm, frontend/node_modules) over every kind of page, as
a visitor, a shopper and an admin, at a desktop and a phone width: no serious or critical
finding. axe is injected as a script, so these pages run with CSP bypassed (tests/e2e/test_csp.py
checks the policy itself)."""

from pathlib import Path

import pytest
from django.conf import settings

from accounts.tests.factories import AdminFactory, UserFactory
from catalog.models import Part
from catalog.tests.factories import PartFactory
from orders.models import Cart, CartLine
from orders.tests.factories import BookingFactory
from reviews.tests.factories import ReviewFactory
from tests.e2e.conftest import sign_in

AXE = Path(settings.BASE_DIR) / "frontend" / "node_modules" / "axe-core" / "axe.min.js"
BLOCKING = {"serious", "critical"}
WIDTHS = [1366, 390]

VISITOR = [
    "/",
    "/allparts",
    "/allparts?q=chain&inStock=true",
    "/parts/{part}",
    "/blogs",
    "/myportfolio",
    "/login",
    "/login?next=/dashboard",
    "/signup",
    "/shipping-returns",
    "/contact",
    "/cart",
    "/no/such/page",
    "/accounts/password/reset/",
    "/accounts/password/reset/done/",
    "/accounts/confirm-email/not-a-key/",
]
SHOPPER = [
    "/dashboard",
    "/dashboard/myorder",
    "/dashboard/review",
    "/purchaseintent/{part}",
    "/dashboard/payment/{order}",
    "/dashboard/orders/{order}",
    "/dashboard/profile",
    "/cart",
    "/checkout",
    "/accounts/password/change/",
    "/accounts/email/",
]
ADMIN = [
    "/dashboard/overview",
    "/dashboard/manageorders",
    "/dashboard/manageparts",
    "/dashboard/addparts",
    "/dashboard/parts/{part}/edit",
    "/dashboard/users",
]


@pytest.fixture
def shop(transactional_db):
    part = PartFactory(name="Chain kit")
    PartFactory(name="Spark plug", available_quantity=1, minimum_order_quantity=4)
    ReviewFactory()
    shopper = UserFactory(name="Sam Shopper")
    BookingFactory(user=shopper, part=part)
    BookingFactory(user=shopper, part=part, paid_order=True)
    # A cart to check out, one of its lines with a problem (the part is out of stock).
    cart = Cart.objects.create(user=shopper)
    CartLine.objects.create(cart=cart, part=part, quantity=2)
    CartLine.objects.create(cart=cart, part=Part.objects.get(name="Spark plug"), quantity=4)
    return {"part": part.pk, "order": shopper.bookings.first().pk, "shopper": shopper}


@pytest.fixture
def axe_page(browser, base_url):
    """A page whose context bypasses CSP, so axe's script can be injected."""
    context = browser.new_context(bypass_csp=True, base_url=base_url)
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.base_url = base_url
    yield page
    context.close()


def findings(page, path: str, width: int) -> list[str]:
    """axe's serious and critical findings on `path` at `width` px, one line each."""
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(path)
    page.wait_for_load_state("networkidle")
    page.add_script_tag(path=str(AXE))
    results = page.evaluate("async () => await axe.run(document)")
    return [
        f"{path} @{width}px: {v['id']} ({v['impact']}): {v['help']} — "
        + "; ".join(node["target"][0] for node in v["nodes"][:3])
        for v in results["violations"]
        if v["impact"] in BLOCKING
    ]


def check(page, paths: list[str], names: dict) -> None:
    problems = [
        line
        for path in paths
        for width in WIDTHS
        for line in findings(page, path.format(**names), width)
    ]
    assert not problems, "\n".join(problems)


def test_visitor_pages(axe_page, shop):
    check(axe_page, VISITOR, shop)


def test_shopper_pages(axe_page, shop):
    sign_in(axe_page, shop["shopper"])
    check(axe_page, SHOPPER, shop)


def test_admin_pages(axe_page, shop):
    sign_in(axe_page, AdminFactory())
    check(axe_page, ADMIN, shop)
