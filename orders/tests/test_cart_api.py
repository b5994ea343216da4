"""The cart API (API.md "Cart and checkout"): a visitor's by session, an account's on every
device, every 400 and 404, the problems and notices of each line, private answers; a visitor's
cart made by the first addition only; visitors' writes limited per client address."""

import re
from datetime import timedelta
from decimal import Decimal

import pytest
from django.conf import settings
from django.contrib.sessions.models import Session
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient

from catalog.models import Part
from catalog.tests.factories import PartFactory
from conftest import bearer_client
from orders import periodic
from orders.models import Cart, CartLine
from orders.tests.factories import EMPTY_CART
from pricing.tests import factories as pricing_factories

LINE_FIELDS = {
    "partId",
    "name",
    "img",
    "url",
    "price",
    "quantity",
    "lineTotal",
    "minimumOrderQuantity",
    "availableQuantity",
    "problem",
    "priceWhenAdded",  # API.md "Checking out at the price you saw"
    "notice",
    "warning",  # a part that does not fit the active bike (tests: test_selectors_cart.py)
}


@pytest.fixture
def part(db):
    return PartFactory(price=Decimal("40.00"), minimum_order_quantity=2, available_quantity=10)


@pytest.fixture
def other_part(db):
    return PartFactory(price=Decimal("5.50"), minimum_order_quantity=1, available_quantity=3)


def add(client, part, quantity):
    return client.post("/api/cart", {"partId": part.pk, "quantity": quantity}, format="json")


def private(response) -> bool:
    control = {item.strip() for item in response["Cache-Control"].split(",")}
    return {"private", "no-store"} <= control


class TestReading:
    def test_a_visitor_without_a_cart_reads_an_empty_one_privately(self, anon):
        response = anon.get("/api/cart")
        assert response.status_code == 200
        assert response.json() == EMPTY_CART
        assert private(response)
        assert not response.cookies  # reading makes no session

    def test_lines_in_the_order_added_with_prices_and_totals(self, anon, part, other_part):
        add(anon, other_part, 2)
        body = add(anon, part, 3).json()
        assert [line["partId"] for line in body["lines"]] == [other_part.pk, part.pk]
        first, second = body["lines"]
        assert set(first) == LINE_FIELDS
        assert second == {
            "partId": part.pk,
            "name": part.name,
            "img": part.img,
            "url": f"/parts/{part.pk}",
            "price": 40.0,
            "priceWhenAdded": 40.0,
            "quantity": 3,
            "lineTotal": 120.0,
            "minimumOrderQuantity": 2,
            "availableQuantity": 10,
            "problem": None,
            "notice": None,
            "warning": None,
        }
        assert body["count"] == 5
        assert body["total"] == 131.0

    @pytest.mark.parametrize(
        ("available", "minimum", "quantity", "problem"),
        [
            (1, 2, 3, "This part is out of stock"),
            (4, 2, 6, "Only 4 left"),
            (10, 5, 3, "The minimum order is 5"),
        ],
    )
    def test_a_line_that_cannot_be_ordered_says_why(
        self, anon, part, available, minimum, quantity, problem
    ):
        add(anon, part, 3)
        CartLine.objects.update(quantity=quantity)
        part.available_quantity, part.minimum_order_quantity = available, minimum
        part.save()
        assert anon.get("/api/cart").json()["lines"][0]["problem"] == problem

    def test_a_deleted_part_leaves_every_cart(self, anon, as_user, part, other_part):
        add(anon, part, 2)
        add(as_user, part, 2)
        add(as_user, other_part, 1)
        part.delete()
        assert anon.get("/api/cart").json()["lines"] == []
        assert [line["partId"] for line in as_user.get("/api/cart").json()["lines"]] == [
            other_part.pk
        ]

    def test_a_price_changed_since_the_line_was_added_is_noticed(self, anon, part):
        add(anon, part, 2)
        Part.objects.filter(pk=part.pk).update(price=Decimal("400.00"))

        (line,) = anon.get("/api/cart").json()["lines"]

        assert line["priceWhenAdded"] == 40.0
        assert line["price"] == 400.0
        assert line["lineTotal"] == 800.0
        assert line["notice"] == "The price went from $40.00 to $400.00 since you added it."
        assert line["problem"] is None

    def test_adding_again_at_the_new_price_clears_the_notice(self, anon, part):
        add(anon, part, 2)
        Part.objects.filter(pk=part.pk).update(price=Decimal("45.00"))

        (line,) = add(anon, part, 2).json()["lines"]

        assert (line["priceWhenAdded"], line["notice"]) == (45.0, None)


class TestNothingMadeByReading:
    """A visitor's cart (and session) is made by the first addition only: reading, or
    changing a cart that is not there, makes neither."""

    def test_reading_changing_and_removing_on_no_cart_make_no_cart_and_no_session(self, anon, part):
        answers = [
            anon.get("/api/cart"),
            anon.put(f"/api/cart/{part.pk}", {"quantity": 2}, format="json"),
            anon.delete(f"/api/cart/{part.pk}"),
            anon.get("/cart"),
        ]

        assert [a.status_code for a in answers] == [200, 404, 200, 200]
        assert not any(a.cookies.get(settings.SESSION_COOKIE_NAME) for a in answers)
        assert not Cart.objects.exists()
        assert not Session.objects.exists()

    @pytest.mark.parametrize("quantity", [1, 11, "x"])
    def test_a_refused_addition_makes_no_cart_and_no_session(self, anon, part, quantity):
        response = add(anon, part, quantity)

        assert response.status_code == 400
        assert not response.cookies.get(settings.SESSION_COOKIE_NAME)
        assert not Cart.objects.exists()
        assert not Session.objects.exists()

    def test_the_first_addition_makes_one_cart_and_its_session(self, anon, part):
        add(anon, part, 2)
        add(anon, part, 2)

        assert Cart.objects.count() == 1
        assert Session.objects.count() == 1
        assert CartLine.objects.get().quantity == 4


class TestAdding:
    def test_a_visitor_adds_and_gets_a_session_cart(self, anon, part):
        response = add(anon, part, 2)
        assert response.status_code == 200
        assert private(response)
        assert response.cookies["sessionid"].value
        assert response.cookies["cart_units"].value == "2"
        assert anon.get("/api/cart").json()["count"] == 2
        assert APIClient().get("/api/cart").json()["count"] == 0  # another visitor

    def test_adding_again_adds_to_the_line(self, anon, part):
        add(anon, part, 2)
        body = add(anon, part, 3).json()
        assert [(line["partId"], line["quantity"]) for line in body["lines"]] == [(part.pk, 5)]
        assert CartLine.objects.count() == 1

    def test_the_account_cart_is_the_same_on_every_device(self, user, as_user, part):
        add(as_user, part, 2)
        elsewhere = bearer_client(user)
        assert elsewhere.get("/api/cart").json()["count"] == 2
        assert Cart.objects.get().user == user

    def test_signed_in_by_session_needs_the_csrf_header(self, user, part):
        client = APIClient(enforce_csrf_checks=True)
        client.force_login(user)
        assert add(client, part, 2).status_code == 403

    def test_unknown_part_is_404(self, anon, db):
        for part_id in (987654, 0, -1, 2**70):
            response = anon.post("/api/cart", {"partId": part_id, "quantity": 1}, format="json")
            assert response.status_code == 404, part_id

    @pytest.mark.parametrize(
        ("payload", "field", "message"),
        [
            ({"quantity": 2}, "partId", "Choose a part to order"),
            ({"partId": "abc", "quantity": 2}, "partId", "partId must be a whole number"),
            ({"partId": "PART"}, "quantity", "Quantity is required"),
            ({"partId": "PART", "quantity": "x"}, "quantity", "Quantity must be a whole number"),
        ],
    )
    def test_bad_input_is_a_field_message(self, anon, part, payload, field, message):
        payload = {k: part.pk if v == "PART" else v for k, v in payload.items()}
        response = anon.post("/api/cart", payload, format="json")
        assert response.status_code == 400
        assert response.json() == {field: [message]}

    def test_numbers_sent_as_strings_are_accepted(self, anon, part):
        response = anon.post("/api/cart", {"partId": str(part.pk), "quantity": "2"}, format="json")
        assert response.json()["count"] == 2

    def test_below_the_minimum_is_a_400(self, anon, part):
        response = add(anon, part, 1)
        assert response.status_code == 400
        assert response.json() == {
            "quantity": ["Quantity must be at least 2 (the minimum order quantity)"]
        }
        assert not CartLine.objects.exists()

    @pytest.mark.parametrize("quantity", [0, -3])
    def test_adding_nothing_or_less_is_a_400(self, anon, part, quantity):
        add(anon, part, 4)
        response = add(anon, part, quantity)
        assert response.status_code == 400
        assert "quantity" in response.json()
        assert CartLine.objects.get().quantity == 4

    def test_passing_the_stock_is_a_400_and_the_line_stays(self, anon, part):
        add(anon, part, 6)
        response = add(anon, part, 5)
        assert response.status_code == 400
        assert response.json() == {"quantity": ["Only 10 units are available"]}
        assert CartLine.objects.get().quantity == 6

    def test_a_huge_quantity_is_a_400_not_a_500(self, anon, part):
        assert add(anon, part, 10**30).status_code == 400

    def test_a_full_cart_takes_no_new_part(self, anon, settings, part, other_part):
        settings.CART_MAX_LINES = 1
        add(anon, part, 2)
        response = add(anon, other_part, 1)
        assert response.status_code == 400
        assert response.json() == {
            "partId": ["Your cart can hold at most 1 part: check out or remove it first."]
        }
        assert add(anon, part, 2).json()["count"] == 4  # the line already there still grows


class TestChanging:
    def test_set_a_quantity(self, anon, part):
        add(anon, part, 2)
        response = anon.put(f"/api/cart/{part.pk}", {"quantity": 7}, format="json")
        assert response.status_code == 200
        assert response.json()["count"] == 7
        assert private(response)

    def test_set_zero_removes_the_line(self, anon, part):
        add(anon, part, 2)
        response = anon.put(f"/api/cart/{part.pk}/", {"quantity": "0"}, format="json")
        assert response.json() == EMPTY_CART
        assert response.cookies["cart_units"].value == ""  # the navbar's hint goes

    @pytest.mark.parametrize(
        ("quantity", "message"),
        [
            (1, "Quantity must be at least 2 (the minimum order quantity)"),
            (-1, "Quantity must be at least 2 (the minimum order quantity)"),
            (11, "Only 10 units are available"),
            ("lots", "Quantity must be a whole number"),
        ],
    )
    def test_set_out_of_bounds_is_a_400(self, anon, part, quantity, message):
        add(anon, part, 2)
        response = anon.put(f"/api/cart/{part.pk}", {"quantity": quantity}, format="json")
        assert response.status_code == 400
        assert response.json() == {"quantity": [message]}
        assert CartLine.objects.get().quantity == 2

    def test_set_a_part_not_in_the_cart_is_404(self, anon, part, other_part):
        assert anon.put(f"/api/cart/{part.pk}", {"quantity": 2}, format="json").status_code == 404
        add(anon, part, 2)
        response = anon.put(f"/api/cart/{other_part.pk}", {"quantity": 2}, format="json")
        assert response.status_code == 404
        assert response.json() == {"detail": "This part is not in your cart."}

    def test_someone_elses_line_is_not_yours(self, anon, as_user, part):
        add(as_user, part, 2)
        assert anon.put(f"/api/cart/{part.pk}", {"quantity": 3}, format="json").status_code == 404
        assert anon.delete(f"/api/cart/{part.pk}").json()["count"] == 0
        assert as_user.get("/api/cart").json()["count"] == 2

    def test_delete_removes_the_line(self, as_user, part, other_part):
        add(as_user, part, 2)
        add(as_user, other_part, 1)
        response = as_user.delete(f"/api/cart/{part.pk}")
        assert response.status_code == 200
        assert [line["partId"] for line in response.json()["lines"]] == [other_part.pk]
        assert private(response)

    def test_delete_of_a_part_not_there_answers_the_cart(self, anon, part):
        response = anon.delete(f"/api/cart/{part.pk}")
        assert response.status_code == 200
        assert response.json()["count"] == 0


class TestPruning:
    def test_visitors_carts_idle_past_a_session_go_accounts_carts_stay(self, anon, as_user, part):
        add(anon, part, 2)
        add(as_user, part, 2)
        assert periodic.prune_visitor_carts() == 0  # in use
        Cart.objects.update(updated_at=timezone.now() - timedelta(days=15))
        assert periodic.prune_visitor_carts() == 1
        assert Cart.objects.get().user is not None
        assert anon.get("/api/cart").json()["count"] == 0

    def test_a_change_keeps_a_visitors_cart_in_use(self, anon, part):
        add(anon, part, 2)
        Cart.objects.update(updated_at=timezone.now() - timedelta(days=15))
        anon.put(f"/api/cart/{part.pk}", {"quantity": 3}, format="json")
        assert periodic.prune_visitor_carts() == 0


THROTTLED = re.compile(r"^Request was throttled\. Expected available in \d+ seconds?\.$")


def visitor_writes_allowed() -> int:
    rate = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["visitor_writes"]
    assert rate == "60/minute"  # the default (API.md), which these tests are about
    return 60


class TestVisitorLimit:
    """Visitors' writes are limited per client address (THROTTLE_VISITOR_WRITES, 60/minute):
    past it, 429 {"detail"} and nothing changes; another address, a read and a signed-in
    account are not limited by it."""

    @pytest.fixture
    def stock(self, db):
        return PartFactory(price=Decimal("1.00"), minimum_order_quantity=1, available_quantity=999)

    def test_the_61st_addition_in_a_minute_from_one_address_is_a_429(self, stock):
        browser = APIClient()
        for _ in range(visitor_writes_allowed()):
            assert add(browser, stock, 1).status_code == 200

        refused = add(browser, stock, 1)

        assert refused.status_code == 429
        assert THROTTLED.match(refused.json()["detail"])
        assert int(refused["Retry-After"]) > 0
        assert CartLine.objects.get().quantity == 60  # the refused one added nothing
        assert browser.get("/api/cart").json()["count"] == 60  # reading is not limited

    def test_another_address_is_not_affected(self, stock):
        for _ in range(visitor_writes_allowed() + 1):
            add(APIClient(), stock, 1)  # 61 strangers' carts from one address

        elsewhere = APIClient(REMOTE_ADDR="203.0.113.9")

        assert add(elsewhere, stock, 1).status_code == 200
        assert Cart.objects.count() == 61

    def test_changes_and_removals_count_as_writes(self, anon, stock):
        add(anon, stock, 1)
        for _ in range(visitor_writes_allowed() - 2):
            assert (
                anon.put(f"/api/cart/{stock.pk}", {"quantity": 2}, format="json").status_code == 200
            )
        assert anon.delete(f"/api/cart/{stock.pk}").status_code == 200

        assert anon.put(f"/api/cart/{stock.pk}", {"quantity": 2}, format="json").status_code == 429
        assert anon.delete(f"/api/cart/{stock.pk}").status_code == 429

    def test_a_signed_in_account_is_not_limited_by_it(self, as_user, stock):
        for _ in range(visitor_writes_allowed() + 5):
            assert add(as_user, stock, 1).status_code == 200

    def test_the_schema_documents_the_429_on_writes_only(self):
        paths = SchemaGenerator().get_schema(public=True)["paths"]
        assert "429" in paths["/api/cart"]["post"]["responses"]
        assert "429" not in paths["/api/cart"]["get"]["responses"]
        for method in ("put", "delete"):
            assert "429" in paths["/api/cart/{id}"][method]["responses"]


class TestQueries:
    def test_reading_a_cart_of_many_lines_takes_a_few_queries(
        self, as_user, django_assert_max_num_queries
    ):
        for _ in range(10):
            add(as_user, PartFactory(minimum_order_quantity=1, available_quantity=5), 1)
        with django_assert_max_num_queries(6):
            assert as_user.get("/api/cart").json()["count"] == 10

    def test_a_checkout_with_a_voucher_a_method_and_a_tax_rate_is_23_sql_statements(
        self, as_user, django_assert_max_num_queries
    ):
        """The token's user; the cart's parts and their lapsed holds (before its lock: any
        are put back on their own, cart_checkout); the cart's lock (with its voucher), its
        lines, emptying it and its voucher; the parts; the account's and the
        address's lock in one statement, the holds of both, kept deadlines, the parts' lock;
        the voucher's lock and its uses (pricing's methods, bands and rates are kept); the
        order, its history, its lines, the voucher's use; the stock and its movements; the
        placed mail (its row in the outbox, composed from the order in hand); the checkout's
        savepoint (here, inside the test's transaction; its own transaction in a server: the
        order is placed in it, no savepoint of its own); the answer's lines. (Before
        vouchers, shipping and tax: 20; issue 30 allows 23.)"""
        pricing_factories.method("Standard", bands=[(2000, "6.95")])
        pricing_factories.tax_rate("US", "7.25")
        pricing_factories.voucher("RIDE10", usage_limit=1000, once_per_customer=False)
        where = {"address": "1 Road", "phone": "12345"}
        parts = [PartFactory(minimum_order_quantity=1, available_quantity=5) for _ in range(4)]
        add(as_user, parts[0], 1)
        as_user.post("/api/checkout", where, format="json")  # the account's first order
        for part in parts[1:]:
            add(as_user, part, 1)
        as_user.post("/api/cart/voucher", {"code": "RIDE10"}, format="json")
        with django_assert_max_num_queries(23):
            response = as_user.post("/api/checkout", where, format="json")
            assert (response.status_code, response.json()["voucher"]) == (201, "RIDE10")

    def test_a_checkout_of_three_lines_takes_as_many_queries_as_one_of_one(self, as_user):
        """The parts are locked in one statement, their stock and movements written in one
        each: what the parts' locks are held for does not grow with the lines."""
        where = {"address": "1 Road", "phone": "12345"}
        parts = [PartFactory(minimum_order_quantity=1, available_quantity=5) for _ in range(4)]
        add(as_user, parts[0], 1)
        as_user.post("/api/checkout", where, format="json")  # the account's first order
        queries = []
        for lines in (parts[1:2], parts[1:]):
            for part in lines:
                add(as_user, part, 1)
            with CaptureQueriesContext(connection) as checkout:
                assert as_user.post("/api/checkout", where, format="json").status_code == 201
            queries.append(len(checkout.captured_queries))
        assert queries[0] == queries[1] > 0
