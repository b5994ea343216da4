"""Who may do what: every API operation and every page of the shop, for every kind of caller.

One row per API operation (API.md) and per page (SPEC.md §4 and §6), with the answer each
caller gets: an anonymous visitor, the user (who owns the objects involved), another user and
a shop admin. The requests are valid, so the status says what the caller may do, not whether
the input was right. The tables must name every operation the schema and the URL resolver know
and every page route: an endpoint or page added without a row fails the test.
"""

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from decimal import Decimal
from functools import cached_property
from typing import Any

import pytest
from django.test import Client
from django.utils.timezone import now
from rest_framework.test import APIClient
from rest_framework_simplejwt.tokens import RefreshToken

from accounts.addresses import address_create
from accounts.tests.factories import TEST_PASSWORD
from accounts.tokens import token_pair_for_user
from catalog.images import image_clean, image_save
from catalog.models import GarageBike, Vehicle
from catalog.tests.factories import PartFactory
from catalog.tests.pictures import png_bytes, upload
from conftest import bearer_client
from orders import services as order_services
from orders.models import Cart
from orders.tests.factories import BookingFactory, CartLineFactory
from orders.tests.stripe_helpers import intent_id_of, pay
from pricing.tests import factories as pricing_factories
from reviews.tests.factories import PartReviewFactory, ReviewFactory
from tests.routes import page_routes, resolver_api_operations, schema_api_operations

CALLERS = ["anonymous", "user", "other", "admin"]


@dataclass(frozen=True)
class World:
    """The objects the rows act on: `user` owns the part's orders and is the `{email}`."""

    user: Any
    other: Any
    admin: Any
    part: Any
    booking: Any  # unpaid
    paid_booking: Any
    review: Any
    image: Any  # a part image as stored in the media folder: `<path:path>` is its name
    address: Any  # the user's saved address (their default)

    @cached_property
    def card_paid_booking(self):
        """Paid by card on the fake Stripe, so it can be refunded there: five calls to Stripe,
        made only for the rows that act on it (the refund's), not for the 300 others."""
        return card_paid(self.user, self.part)

    @cached_property
    def part_review(self):
        """The user's review of a part of its own (the World's part is left to be reviewed)."""
        return PartReviewFactory(user=self.user)

    @cached_property
    def reviewed_part(self):
        return self.part_review.part

    @cached_property
    def shipped_booking(self):
        """Paid (outside Stripe) and shipped: a return may be asked of it."""
        return BookingFactory(
            user=self.user, part=self.part, shipped=True, shipped_at=now(), transaction_id=""
        )

    @cached_property
    def requested_return(self):
        return order_services.return_request(
            booking=self.shipped_booking, lines=return_request(self)["lines"], reason="other"
        )

    @cached_property
    def approved_return(self):
        return order_services.return_decide(ret=self.requested_return, state="approved")

    @cached_property
    def sold_out_part(self):
        """Out of stock: riders may ask to be e-mailed when it is back."""
        return PartFactory(available_quantity=0)

    @cached_property
    def shipping_method(self):
        return pricing_factories.method("Standard", bands=[(2000, "6.95")])

    @cached_property
    def tax_rate(self):
        return pricing_factories.tax_rate("DE", "19")

    @cached_property
    def voucher(self):
        return pricing_factories.voucher("RIDE10")

    @cached_property
    def guest_booking(self):
        """A guest's order (no account): its pages are opened by its key (`<str:key>`)."""
        return BookingFactory(guest=True, part=self.part)

    @cached_property
    def guest_shipped_booking(self):
        """A guest's order, paid (outside Stripe) and shipped: its key asks for a return."""
        return BookingFactory(
            guest=True, part=self.part, shipped=True, shipped_at=now(), transaction_id=""
        )

    @cached_property
    def guest_paid_booking(self):
        return BookingFactory(guest=True, part=self.part, paid_order=True)


def return_request(world: World) -> dict:
    return {"lines": [{"partId": world.part.pk, "quantity": 1}], "reason": "doesnt_fit"}


def paid_intent(world: World) -> dict:
    """The body of the owner's PATCH: a PaymentIntent for the order, paid on the fake Stripe."""
    secret = order_services.booking_start_payment(booking=world.booking)
    intent_id = intent_id_of(secret)
    pay(intent_id)
    return {"transactionId": intent_id}


# --- The API --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Api:
    """The status each caller gets. `on` names the World object whose id fills `{id}`
    (`{email}` is always the user's); `body` and `query` build the request from the World."""

    anonymous: int
    user: int
    other: int
    admin: int
    on: str | None = None
    body: Callable[[World], Any] | None = None
    query: Callable[[World], dict] | None = None


def new_part(world: World) -> dict:
    return {
        "name": "Chain kit 520",
        "minimumOrderQuantity": 1,
        "description": "O-ring chain with sprockets.",
        "availableQuantity": 12,
        "price": "89.90",
        "img": "https://example.com/chain.jpg",
    }


def shipping_method(world: World) -> dict:
    return {"name": "Express", "bands": [{"upToGrams": 5000, "price": "14.99"}], "eta": "1 day"}


def tax_rate(world: World) -> dict:
    return {"country": "FR", "name": "TVA", "rate": "20"}


def voucher(world: World) -> dict:
    return {"code": "FREESHIP", "kind": "shipping"}


def profile(world: World) -> dict:
    return {
        "education": "BSc Mechanical Engineering",
        "location": "Leeds",
        "phone": "+441130000000",
        "linkedin": "https://www.linkedin.com/in/rider",
    }


def order(world: World) -> dict:
    return {
        "partId": world.part.pk,
        "quantity": world.part.minimum_order_quantity,
        "address": "12 Harbour Road, Leeds",
        "phone": "+441130000000",
    }


def saved_bike(world: World) -> dict:
    """A bike saved in each account's garage (a visitor's new session holds none)."""
    vehicle = Vehicle.objects.get_or_create(make="Yamaha", model="MT-07", year=2019)[0]
    for account in (world.user, world.other, world.admin):
        GarageBike.objects.get_or_create(user=account, vehicle=vehicle)
    return {"active": vehicle.pk}


def to_cart(world: World) -> dict:
    return {"partId": world.part.pk, "quantity": world.part.minimum_order_quantity}


def where_to(world: World) -> dict:
    return {"address": "12 Harbour Road, Leeds", "phone": "+441130000000"}


def where_to_as_guest(world: World) -> dict:
    """A visitor checks out as a guest (with an e-mail; an account's checkout ignores it)."""
    return {**where_to(world), "email": "guest@example.com"}


def ship_to(world: World) -> dict:
    return {
        "fullName": "Jane Rider",
        "line1": "1 Main St",
        "city": "Springfield",
        "postcode": "62701",
        "country": "US",
        "phone": "+12175550100",
    }


def unsigned_event(world: World) -> dict:
    return {"id": "evt_forged", "type": "payment_intent.succeeded", "data": {"object": {}}}


API = {
    # Auth and accounts
    ("POST", "/api/signup"): Api(
        201,
        201,
        201,
        201,
        body=lambda w: {
            "name": "New Rider",
            "email": "newrider@example.com",
            "password": "hunter22",
        },
    ),
    ("POST", "/api/token"): Api(
        200, 200, 200, 200, body=lambda w: {"email": w.user.email, "password": TEST_PASSWORD}
    ),
    ("POST", "/api/token/refresh"): Api(
        200, 200, 200, 200, body=lambda w: {"refresh": str(RefreshToken.for_user(w.user))}
    ),
    # Anyone holding a refresh token may revoke it (its family with it).
    ("POST", "/api/token/revoke"): Api(
        200, 200, 200, 200, body=lambda w: {"refresh": token_pair_for_user(w.user)["refresh"]}
    ),
    ("GET", "/api/user"): Api(401, 403, 403, 200),
    ("GET", "/api/user/me"): Api(401, 200, 200, 200),
    # The spec's e-mail-for-token exchange: only ever for the caller, admins included.
    ("PUT", "/api/user/{email}"): Api(401, 200, 403, 403, body=lambda w: {}),
    ("PUT", "/api/users/{email}"): Api(401, 200, 403, 200, body=profile),
    ("PUT", "/api/user/admin/{email}"): Api(401, 403, 403, 200),
    # Taking the role back, and removing the account: admins only (409 for their own e-mail).
    ("DELETE", "/api/user/admin/{email}"): Api(401, 403, 403, 200),
    ("DELETE", "/api/users/{email}"): Api(401, 403, 403, 200),
    ("GET", "/api/admin/{email}"): Api(401, 200, 403, 200),
    # The address book: one's own addresses; anyone else's is not found, for admins too.
    ("GET", "/api/addresses"): Api(401, 200, 200, 200),
    ("POST", "/api/addresses"): Api(401, 201, 201, 201, body=ship_to),
    ("PUT", "/api/addresses/{id}"): Api(401, 200, 404, 404, on="address", body=ship_to),
    ("DELETE", "/api/addresses/{id}"): Api(401, 200, 404, 404, on="address"),
    # Parts
    ("GET", "/api/allparts"): Api(200, 200, 200, 200),
    ("POST", "/api/allparts"): Api(401, 403, 403, 201, body=new_part),
    ("GET", "/api/allparts/{id}"): Api(200, 200, 200, 200, on="part"),
    ("GET", "/api/categories"): Api(200, 200, 200, 200),
    ("GET", "/api/allparts/facets"): Api(200, 200, 200, 200),
    ("PATCH", "/api/allparts/{id}"): Api(
        401, 403, 403, 200, on="part", body=lambda w: {"price": "30.00"}
    ),
    ("DELETE", "/api/allparts/{id}"): Api(401, 403, 403, 200, on="part"),
    ("POST", "/api/allparts/{id}/stock"): Api(
        401, 403, 403, 200, on="part", body=lambda w: {"change": 5, "reason": "Received"}
    ),
    # The owner's shipping methods, tax rates and vouchers
    ("POST", "/api/shipping-methods"): Api(401, 403, 403, 201, body=shipping_method),
    ("PUT", "/api/shipping-methods/{id}"): Api(
        401, 403, 403, 200, on="shipping_method", body=shipping_method
    ),
    ("DELETE", "/api/shipping-methods/{id}"): Api(401, 403, 403, 200, on="shipping_method"),
    ("GET", "/api/tax-rates"): Api(401, 403, 403, 200),
    ("POST", "/api/tax-rates"): Api(401, 403, 403, 201, body=tax_rate),
    ("PUT", "/api/tax-rates/{id}"): Api(401, 403, 403, 200, on="tax_rate", body=tax_rate),
    ("DELETE", "/api/tax-rates/{id}"): Api(401, 403, 403, 200, on="tax_rate"),
    ("GET", "/api/vouchers"): Api(401, 403, 403, 200),
    ("POST", "/api/vouchers"): Api(401, 403, 403, 201, body=voucher),
    ("PUT", "/api/vouchers/{id}"): Api(401, 403, 403, 200, on="voucher", body=voucher),
    ("DELETE", "/api/vouchers/{id}"): Api(401, 403, 403, 200, on="voucher"),
    # Bikes and fitment
    ("GET", "/api/vehicles"): Api(200, 200, 200, 200),
    ("GET", "/api/search/suggest"): Api(200, 200, 200, 200),
    ("GET", "/api/vehicles/makes"): Api(200, 200, 200, 200),
    ("GET", "/api/allparts/{id}/fitment"): Api(200, 200, 200, 200, on="part"),
    ("PUT", "/api/allparts/{id}/fitment"): Api(
        401, 403, 403, 200, on="part", body=lambda w: {"universal": True, "vehicles": []}
    ),
    # A part's other numbers (admins set them; every <part> shows them)
    ("PUT", "/api/allparts/{id}/numbers"): Api(
        401, 403, 403, 200, on="part", body=lambda w: [{"number": "X-1", "kind": "oem"}]
    ),
    # Orders: other users' orders are not found, not forbidden (their existence is not told).
    ("GET", "/api/booking"): Api(401, 200, 403, 200, query=lambda w: {"email": w.user.email}),
    ("POST", "/api/booking"): Api(401, 201, 201, 201, body=order),
    ("GET", "/api/bookings"): Api(401, 403, 403, 200),
    ("GET", "/api/bookings.csv"): Api(401, 403, 403, 200),
    ("GET", "/api/booking/{id}"): Api(401, 200, 404, 200, on="booking"),
    ("PUT", "/api/booking/{id}"): Api(
        401, 403, 403, 200, on="paid_booking", body=lambda w: {"status": "approved"}
    ),
    ("DELETE", "/api/booking/{id}"): Api(401, 200, 404, 200, on="booking"),
    # Money records are never deleted, whoever asks.
    ("DELETE", "/api/booking/{id}#paid"): Api(401, 409, 404, 409, on="paid_booking"),
    ("POST", "/api/booking/{id}/refund"): Api(401, 403, 403, 200, on="card_paid_booking"),
    # Returns: the shopper of a shipped order asks; anyone else's order is not found, for
    # admins too. The shop (admins) lists, decides and receives them.
    ("POST", "/api/booking/{id}/returns"): Api(
        401, 201, 404, 404, on="shipped_booking", body=return_request
    ),
    # A guest's order: its key asks, whoever sends it.
    ("POST", "/api/booking/{id}/returns#guest key"): Api(
        201,
        201,
        201,
        201,
        on="guest_shipped_booking",
        body=return_request,
        query=lambda w: {"key": w.guest_shipped_booking.guest_key},
    ),
    ("POST", "/api/booking/{id}/returns#guest, no key"): Api(
        401, 404, 404, 404, on="guest_shipped_booking", body=return_request
    ),
    ("GET", "/api/returns"): Api(401, 403, 403, 200),
    ("PUT", "/api/returns/{id}"): Api(
        401, 403, 403, 200, on="requested_return", body=lambda w: {"state": "approved"}
    ),
    ("POST", "/api/returns/{id}/receive"): Api(
        401, 403, 403, 200, on="approved_return", body=lambda w: {"restock": True}
    ),
    ("POST", "/api/booking/{id}/notes"): Api(
        401, 403, 403, 201, on="booking", body=lambda w: {"text": "Packed today."}
    ),
    # Payments: only the owner pays, admins included in "not the owner".
    ("PATCH", "/api/booking/{id}"): Api(401, 200, 404, 404, on="booking", body=paid_intent),
    ("POST", "/api/create-payment-intent"): Api(
        401, 200, 404, 404, body=lambda w: {"booking": w.booking.pk}
    ),
    # A guest's order: its key (`?key=`) reads it and pays it, whoever sends it; without the
    # key, a shop admin alone sees it; the key deletes nothing.
    ("GET", "/api/booking/{id}#guest, its key"): Api(
        200, 200, 200, 200, on="guest_booking", query=lambda w: {"key": w.guest_booking.guest_key}
    ),
    ("GET", "/api/booking/{id}#guest, no key"): Api(401, 404, 404, 200, on="guest_booking"),
    ("POST", "/api/create-payment-intent#guest, its key"): Api(
        200,
        200,
        200,
        200,
        body=lambda w: {"booking": w.guest_booking.pk},
        query=lambda w: {"key": w.guest_booking.guest_key},
    ),
    ("DELETE", "/api/booking/{id}#guest, its key"): Api(
        404, 404, 404, 200, on="guest_booking", query=lambda w: {"key": w.guest_booking.guest_key}
    ),
    # Only Stripe's signature is trusted, whoever calls.
    ("POST", "/api/stripe/webhook"): Api(400, 400, 400, 400, body=unsigned_event),
    # Shop figures
    ("GET", "/api/stats"): Api(401, 403, 403, 200),
    # The cart: everyone has their own (a visitor's by session); each account's holds the part
    # (world), the anonymous caller's is empty. Checkout: signed in, one's own cart.
    ("GET", "/api/cart"): Api(200, 200, 200, 200),
    ("POST", "/api/cart"): Api(200, 200, 200, 200, body=to_cart),
    ("PUT", "/api/cart/{id}"): Api(404, 200, 200, 200, on="part", body=to_cart),
    ("DELETE", "/api/cart/{id}"): Api(200, 200, 200, 200, on="part"),
    # A voucher on one's own cart; the methods that deliver one's own cart, priced for it.
    ("POST", "/api/cart/voucher"): Api(
        200, 200, 200, 200, body=lambda w: {"code": w.voucher.code.lower()}
    ),
    ("DELETE", "/api/cart/voucher"): Api(200, 200, 200, 200),
    ("GET", "/api/shipping-methods"): Api(200, 200, 200, 200),
    # A visitor's is a guest's order of its own cart (the anonymous caller's is empty: 400).
    ("POST", "/api/checkout"): Api(400, 201, 201, 201, body=where_to_as_guest),
    # Reviews
    ("GET", "/api/review"): Api(200, 200, 200, 200),
    ("POST", "/api/review"): Api(
        401,
        201,
        201,
        201,
        body=lambda w: {"name": "Rider", "review": "Fits my bike.", "ratings": 5},
    ),
    # Part reviews: anyone reads them; each account writes its own (once), and changes only
    # its own (anyone else has none of this part: 404); admins hide one.
    ("GET", "/api/allparts/{id}/reviews"): Api(200, 200, 200, 200, on="part"),
    ("POST", "/api/allparts/{id}/reviews"): Api(
        401,
        201,
        201,
        201,
        on="part",
        body=lambda w: {"rating": 5, "title": "Good", "body": "Fits."},
    ),
    ("PUT", "/api/allparts/{id}/reviews/mine"): Api(
        401,
        200,
        404,
        404,
        on="reviewed_part",
        body=lambda w: {"rating": 4, "title": "Still good", "body": "Fits."},
    ),
    ("PUT", "/api/part-reviews/{id}"): Api(
        401, 403, 403, 200, on="part_review", body=lambda w: {"hidden": True}
    ),
    # My Garage: everyone has one (a visitor's in the session), each their own.
    ("GET", "/api/garage"): Api(200, 200, 200, 200),
    ("POST", "/api/garage"): Api(
        200, 200, 200, 200, body=lambda w: {"vehicle": saved_bike(w)["active"]}
    ),
    # 400 for the visitor: a bike not saved in their garage cannot be made active.
    ("PUT", "/api/garage"): Api(400, 200, 200, 200, body=saved_bike),
    # Any id: a bike that is not saved is not there to remove (on: a part's id will do).
    ("DELETE", "/api/garage/{id}"): Api(200, 200, 200, 200, on="part"),
    # Back-in-stock alerts: anyone (signed in: for the account's own address).
    ("POST", "/api/allparts/{id}/alerts"): Api(
        201, 201, 201, 201, on="sold_out_part", body=lambda w: {"email": "rider@example.com"}
    ),
    # Saved parts: everyone has theirs (a visitor's in the session), each their own.
    ("GET", "/api/saved"): Api(200, 200, 200, 200),
    ("POST", "/api/saved"): Api(200, 200, 200, 200, body=lambda w: {"partId": w.part.pk}),
    # Any id: a part that is not saved is not there to remove.
    ("DELETE", "/api/saved/{id}"): Api(200, 200, 200, 200, on="part"),
}


# --- The pages ------------------------------------------------------------------------------

OK = "200"
NOT_FOUND = "404"
TO_LOGIN = "302 to /login?next=<page>"
SIGNED_OUT = "302 to /login, signed out"
TO_HOME = "302 to /"
TO_CART = "302 to /cart"
TO_MANAGE_PARTS = "302 to /dashboard/manageparts"
TO_ADDRESSES = "302 to /dashboard/addresses"
TO_SHIPPING = "302 to /dashboard/shipping"
TO_VOUCHERS = "302 to /dashboard/vouchers"
TO_RETURNS = "302 to /dashboard/returns"
TO_THE_ORDER = "302 to the order's page"
TO_THE_PART = "302 to the part's page"


@dataclass(frozen=True)
class Page:
    """What each caller gets from a page route; `on` names the World object of `<id:pk>`."""

    anonymous: str
    user: str
    other: str
    admin: str
    on: str | None = None
    method: str = "get"


PUBLIC = Page(OK, OK, OK, OK)
SIGNED_IN = Page(TO_LOGIN, OK, OK, OK)
ADMIN_ONLY = Page(TO_LOGIN, SIGNED_OUT, SIGNED_OUT, OK)

PAGES = {
    # django-health-check's status page (database, cache): for load balancers, no sign-in.
    "health": PUBLIC,
    "": PUBLIC,
    "blogs": PUBLIC,
    "myportfolio": PUBLIC,
    "allparts": PUBLIC,
    "parts/<id:pk>": Page(OK, OK, OK, OK, on="part"),
    # A part's review form (each signed-in account's own review of it).
    "parts/<id:pk>/review": Page(TO_LOGIN, OK, OK, OK, on="part"),
    "garage": PUBLIC,
    # "Email me when it's back" (anyone; a visitor without an e-mail is told so there) and
    # the link mailed to a visitor (a friendly page whatever it holds).
    "parts/<id:pk>/alerts": Page(
        TO_THE_PART, TO_THE_PART, TO_THE_PART, TO_THE_PART, on="sold_out_part", method="post"
    ),
    "alerts/confirm/<str:token>": PUBLIC,
    "saved": PUBLIC,
    "shipping-returns": PUBLIC,
    "privacy": PUBLIC,
    "terms": PUBLIC,
    "contact": PUBLIC,
    "login": Page(OK, TO_HOME, TO_HOME, TO_HOME),
    "signup": Page(OK, TO_HOME, TO_HOME, TO_HOME),
    "logout": Page(TO_HOME, OK, OK, OK),
    "dashboard": SIGNED_IN,
    "dashboard/profile": SIGNED_IN,
    "dashboard/myorder": SIGNED_IN,
    "dashboard/review": SIGNED_IN,
    "dashboard/addreview": SIGNED_IN,
    # The address book: one's own addresses; anyone else's is not found, for admins too.
    "dashboard/addresses": SIGNED_IN,
    "dashboard/addresses/<id:pk>/edit": Page(TO_LOGIN, OK, NOT_FOUND, NOT_FOUND, on="address"),
    "dashboard/addresses/<id:pk>/default": Page(
        TO_LOGIN, TO_ADDRESSES, NOT_FOUND, NOT_FOUND, on="address", method="post"
    ),
    "dashboard/addresses/<id:pk>/delete": Page(
        TO_LOGIN, TO_ADDRESSES, NOT_FOUND, NOT_FOUND, on="address", method="post"
    ),
    "purchaseintent/<id:pk>": Page(TO_LOGIN, OK, OK, OK, on="part"),
    # Someone else's order is not found, for admins too: only the owner pays.
    "dashboard/payment/<id:pk>": Page(TO_LOGIN, OK, NOT_FOUND, NOT_FOUND, on="booking"),
    # An order's page: its owner and shop admins; anyone else is told it does not exist.
    "dashboard/orders/<id:pk>": Page(TO_LOGIN, OK, NOT_FOUND, OK, on="booking"),
    # Its invoice (a paid order's): the same callers.
    "dashboard/orders/<id:pk>/invoice": Page(TO_LOGIN, OK, NOT_FOUND, OK, on="paid_booking"),
    # Its Timeline's "Add note": shop admins only.
    "dashboard/orders/<id:pk>/notes": Page(
        TO_LOGIN, SIGNED_OUT, SIGNED_OUT, TO_THE_ORDER, on="booking", method="post"
    ),
    "cart": PUBLIC,
    # A visitor may check out as a guest; the anonymous caller's cart is empty (back to it).
    "checkout": Page(TO_CART, OK, OK, OK),
    # A guest's order's page and its invoice: whoever has its key (`on`: the order, its key).
    "orders/<id:pk>/<str:key>": Page(OK, OK, OK, OK, on="guest_booking"),
    "orders/<id:pk>/<str:key>/invoice": Page(OK, OK, OK, OK, on="guest_paid_booking"),
    # Its "Return items": whoever has its key, back to its page.
    "orders/<id:pk>/<str:key>/returns": Page(
        TO_THE_ORDER,
        TO_THE_ORDER,
        TO_THE_ORDER,
        TO_THE_ORDER,
        on="guest_shipped_booking",
        method="post",
    ),
    "orders/find": PUBLIC,
    "dashboard/overview": ADMIN_ONLY,
    "dashboard/users": ADMIN_ONLY,
    "dashboard/manageparts": ADMIN_ONLY,
    "dashboard/addparts": ADMIN_ONLY,
    "dashboard/manageorders": ADMIN_ONLY,
    # Return items (an order's page): its shopper only, back to the order page.
    "dashboard/orders/<id:pk>/returns": Page(
        TO_LOGIN, TO_THE_ORDER, NOT_FOUND, NOT_FOUND, on="shipped_booking", method="post"
    ),
    "dashboard/returns": ADMIN_ONLY,
    **{
        f"dashboard/returns/<id:pk>/{action}": Page(
            TO_LOGIN, SIGNED_OUT, SIGNED_OUT, TO_RETURNS, on="requested_return", method="post"
        )
        for action in ("approve", "reject", "receive")
    },
    # The owner's shipping methods, tax rates and vouchers (pricing).
    "dashboard/shipping": ADMIN_ONLY,
    "dashboard/shipping/methods/<id:pk>/edit": Page(
        TO_LOGIN, SIGNED_OUT, SIGNED_OUT, OK, on="shipping_method"
    ),
    **{
        f"dashboard/shipping/methods/<id:pk>/{action}": Page(
            TO_LOGIN, SIGNED_OUT, SIGNED_OUT, TO_SHIPPING, on="shipping_method", method="post"
        )
        for action in ("default", "switch", "delete")
    },
    "dashboard/shipping/rates": ADMIN_ONLY,
    "dashboard/shipping/rates/<id:pk>/edit": Page(
        TO_LOGIN, SIGNED_OUT, SIGNED_OUT, OK, on="tax_rate"
    ),
    "dashboard/shipping/rates/<id:pk>/delete": Page(
        TO_LOGIN, SIGNED_OUT, SIGNED_OUT, TO_SHIPPING, on="tax_rate", method="post"
    ),
    "dashboard/vouchers": ADMIN_ONLY,
    "dashboard/vouchers/<id:pk>/edit": Page(TO_LOGIN, SIGNED_OUT, SIGNED_OUT, OK, on="voucher"),
    "dashboard/vouchers/<id:pk>/switch": Page(
        TO_LOGIN, SIGNED_OUT, SIGNED_OUT, TO_VOUCHERS, on="voucher", method="post"
    ),
    "dashboard/parts/<id:pk>/edit": Page(TO_LOGIN, SIGNED_OUT, SIGNED_OUT, OK, on="part"),
    "dashboard/parts/<id:pk>/stock": Page(TO_LOGIN, SIGNED_OUT, SIGNED_OUT, OK, on="part"),
    "dashboard/manageparts/<id:pk>/delete": Page(
        TO_LOGIN, SIGNED_OUT, SIGNED_OUT, TO_MANAGE_PARTS, on="part", method="post"
    ),
    # Uploaded part images, public like the parts that show them (`on`: a stored image).
    "media/<path:path>": Page(OK, OK, OK, OK, on="image"),
}


def test_every_api_operation_has_a_row():
    operations = {(method, path.split("#")[0]) for method, path in API}
    assert schema_api_operations() == operations
    assert resolver_api_operations() == operations


def test_every_page_has_a_row():
    assert page_routes() == set(PAGES)


# --- The checks -----------------------------------------------------------------------------


def card_paid(user, part):
    booking = BookingFactory(user=user, part=part)
    intent_id = intent_id_of(order_services.booking_start_payment(booking=booking))
    pay(intent_id)
    return order_services.booking_confirm_payment(booking=booking, transaction_id=intent_id)


@pytest.fixture
def world(user, other_user, admin_user, stripe_on) -> World:
    part = PartFactory(available_quantity=100, minimum_order_quantity=2, price=Decimal("25.50"))
    for account in (user, other_user, admin_user):  # what PUT changes and checkout orders
        cart = Cart.objects.create(user=account)
        CartLineFactory(cart=cart, part=part, quantity=part.minimum_order_quantity)
    return World(
        user=user,
        other=other_user,
        admin=admin_user,
        part=part,
        booking=BookingFactory(user=user, part=part),
        paid_booking=BookingFactory(user=user, part=part, paid_order=True),
        review=ReviewFactory(user=other_user),
        image=StoredImage(image_save(image=image_clean(file=upload(png_bytes())))),
        address=address_create(
            owner=user,
            full_name="Jane Rider",
            line1="1 Main St",
            city="Springfield",
            postcode="62701",
            country="US",
            phone="+12175550100",
        ),
    )


@dataclass(frozen=True)
class StoredImage:
    url: str

    @property
    def pk(self) -> str:  # what fills the route's `<path:path>`
        return self.url.removeprefix("/media/")


def caller_of(world: World, caller: str):
    return None if caller == "anonymous" else getattr(world, caller)


@pytest.mark.parametrize("caller", CALLERS)
@pytest.mark.parametrize("operation", list(API), ids=" ".join)
def test_api(operation, caller, world, stripe_on):
    method, path = operation
    path = path.split("#")[0]  # "#…" tells two rows of one endpoint apart
    row = API[operation]
    url = path.replace("{email}", world.user.email)
    if row.on:
        url = url.replace("{id}", str(getattr(world, row.on).pk))
    if row.query:
        url += "?" + "&".join(f"{k}={v}" for k, v in row.query(world).items())
    account = caller_of(world, caller)
    client = bearer_client(account) if account else APIClient()
    body = row.body(world) if row.body else None

    response = getattr(client, method.lower())(url, body, format="json")

    assert response.status_code == getattr(row, caller), response.content


def assert_page_answer(response, expected: str, url: str, client: Client) -> None:
    if expected in (OK, NOT_FOUND):
        assert response.status_code == int(expected)
    elif expected == TO_LOGIN:
        assert (response.status_code, response["Location"]) == (302, f"/login?next={url}")
    elif expected == SIGNED_OUT:
        assert (response.status_code, response["Location"]) == (302, "/login")
        assert "_auth_user_id" not in client.session
    elif expected == TO_THE_ORDER:
        order_page = url.removesuffix("/notes").removesuffix("/returns")
        assert (response.status_code, response["Location"]) == (302, order_page)
    elif expected == TO_THE_PART:
        part_page = url.removesuffix("/alerts") + "#back-in-stock"
        assert (response.status_code, response["Location"]) == (302, part_page)
    else:
        location = expected.removeprefix("302 to ")
        assert (response.status_code, response["Location"]) == (302, location)


@pytest.mark.parametrize("caller", CALLERS)
@pytest.mark.parametrize("route", list(PAGES), ids=lambda route: f"/{route}")
def test_page(route, caller, world, stripe_on):
    row = PAGES[route]
    url = "/" + route
    if row.on:
        target = getattr(world, row.on)
        filled = str(target.pk)
        url = url.replace("<id:pk>", filled).replace("<path:path>", filled)
        url = url.replace("<str:key>", str(getattr(target, "guest_key", "")))
    client = Client()
    account = caller_of(world, caller)
    if account:
        client.force_login(account)

    send = getattr(client, row.method)
    response = off_the_event_loop(send, url) if route == "health" else send(url)

    assert_page_answer(response, getattr(row, caller), url, client)


def off_the_event_loop(call, *args):
    """`call(*args)` in a thread of its own, as a server thread runs it. /health/ is an async
    view, which Django runs through async_to_sync: that refuses a thread whose event loop is
    running, as the test thread's may be once a browser test (Playwright's sync API) ran.
    (Only for /health/: another thread has its own database connection, which cannot see the
    test's uncommitted rows, and /health/ needs none.)"""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(call, *args).result()
