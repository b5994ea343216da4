"""Accessibility in Chromium: axe-core (npm, frontend/node_modules) over every kind of page, as
a visitor, a shopper and an admin, at a desktop and a phone width: no serious or critical
finding. axe is injected as a script, so these pages run with CSP bypassed (tests/e2e/test_csp.py
checks the policy itself)."""

import pytest

from accounts.tests.factories import AdminFactory, UserFactory
from catalog.models import Part
from catalog.tests.factories import PartFactory
from orders.models import Cart
from orders.tests.factories import BookingFactory, CartLineFactory
from reviews.tests.factories import PartReviewFactory, ReviewFactory
from tests.e2e.conftest import demo_methods, findings, saved_address, sign_in

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
    "/parts/{part}",  # with "Write a review"
    "/parts/{part}/review",
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
    PartReviewFactory(part=part, rating=4, fits=True)  # the part page's reviews and stars
    demo_methods()  # /checkout's Delivery offers Standard and Express
    saved_address(shopper)  # and its Ship to this address or a new one
    BookingFactory(user=shopper, part=part)
    BookingFactory(user=shopper, part=part, paid_order=True)
    # A cart to check out, one of its lines with a problem (the part is out of stock).
    cart = Cart.objects.create(user=shopper)
    CartLineFactory(cart=cart, part=part, quantity=2)
    CartLineFactory(cart=cart, part=Part.objects.get(name="Spark plug"), quantity=4)
    return {"part": part.pk, "order": shopper.bookings.first().pk, "shopper": shopper}


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
