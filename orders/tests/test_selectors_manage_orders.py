"""Manage Orders (the owner's): GET /api/bookings with its filters, the CSV export
GET /api/bookings.csv, and the page /dashboard/manageorders, all on one filter
(orders.selectors.booking_search)."""

import csv
import io
from datetime import timedelta
from decimal import Decimal

import pytest
from django.core.cache import cache, caches
from django.http import StreamingHttpResponse
from django.utils import timezone

from accounts.tests.factories import UserFactory
from catalog.tests.factories import PartFactory
from core.tests.islands import island_props, page_text
from orders.exports import HEADER
from orders.models import Booking
from orders.serializers import SEARCH_TOO_LONG, STATE_UNKNOWN
from orders.tests.factories import BookingFactory
from orders.tests.test_services_placing_lines import place_lines

pytestmark = pytest.mark.django_db

LIST, CSV, PAGE = "/api/bookings", "/api/bookings.csv", "/dashboard/manageorders"


def placed(minutes_ago: int, **fields) -> Booking:
    """An order placed `minutes_ago` minutes ago (newest first is by that moment)."""
    booking = BookingFactory(**fields)
    booking.created_at = timezone.now() - timedelta(minutes=minutes_ago)
    booking.save(update_fields=["created_at"])
    return booking


@pytest.fixture
def orders(db):
    """One order in each state, the newest first in this dict's order."""
    refunded = placed(50, paid_order=True, name="Rita Refund", parts_name="Fork seals")
    Booking.objects.filter(pk=refunded.pk).update(refunded_at=timezone.now())
    return {
        "unpaid": placed(10, name="Una Unpaid", email="una@example.com", parts_name="Chain kit"),
        "pending": placed(20, paid_order=True, name="Penny Paid", parts_name="Brake pads"),
        "shipped": placed(30, shipped=True, name="Sam Shipped", parts_name="Air filter"),
        "expired": placed(40, lapsed=True, name="Ezra Late", parts_name="Spark plug"),
        "refunded": refunded,
    }


def ids(response) -> list[int]:
    return [order["_id"] for order in response.json()]


def csv_rows(response) -> list[list[str]]:
    body = b"".join(response.streaming_content).decode()
    return list(csv.reader(io.StringIO(body)))


# --- Who may -------------------------------------------------------------------------------


@pytest.mark.parametrize("path", [LIST, CSV, f"{LIST}/", f"{CSV}/"])
def test_only_shop_admins_may_list_or_export_orders(anon, as_user, as_admin, path):
    assert anon.get(path).status_code == 401
    assert as_user.get(path).status_code == 403
    assert as_admin.get(path).status_code == 200


def test_a_signed_in_admin_page_session_may_download_the_csv(client, admin_user, orders):
    """The page's "Download CSV" link is followed with the session cookie, no token."""
    client.force_login(admin_user)
    assert client.get(CSV).status_code == 200


# --- GET /api/bookings ----------------------------------------------------------------------


def test_every_order_newest_first_with_the_total_count(as_admin, orders):
    response = as_admin.get(LIST)

    assert response.status_code == 200
    assert ids(response) == [order.pk for order in orders.values()]
    assert response["X-Total-Count"] == "5"


@pytest.mark.parametrize("state", list(Booking.State.values))
def test_state_filter(as_admin, orders, state):
    response = as_admin.get(LIST, {"state": state})

    assert ids(response) == [orders[state].pk]
    assert response.json()[0]["state"] == state
    assert response["X-Total-Count"] == "1"


@pytest.mark.parametrize(
    ("q", "who"),
    [
        ("una@example.com", "unpaid"),  # e-mail
        ("UNA@EXAMPLE", "unpaid"),  # case does not matter, part of it is enough
        ("penny", "pending"),  # name
        ("air filter", "shipped"),  # part name
        ("  spark  ", "expired"),  # spaces around are dropped
    ],
)
def test_search_matches_email_name_or_part(as_admin, orders, q, who):
    assert ids(as_admin.get(LIST, {"q": q})) == [orders[who].pk]


@pytest.mark.parametrize("form", ["{id}", "#{id}", "Order #{id}", "order {id}"])
def test_search_finds_an_order_by_its_number(as_admin, orders, form):
    wanted = orders["shipped"]

    found = ids(as_admin.get(LIST, {"q": form.format(id=wanted.pk)}))

    assert wanted.pk in found


def test_filters_combine(as_admin, orders):
    assert ids(as_admin.get(LIST, {"state": "pending", "q": "penny"})) == [orders["pending"].pk]
    assert ids(as_admin.get(LIST, {"state": "shipped", "q": "penny"})) == []


def test_no_match_is_an_empty_list(as_admin, orders):
    response = as_admin.get(LIST, {"q": "no such rider"})

    assert (response.json(), response["X-Total-Count"]) == ([], "0")


def test_limit_and_offset_slice_the_list_and_the_count_is_all_matches(as_admin, orders):
    everything = [order.pk for order in orders.values()]

    response = as_admin.get(LIST, {"limit": 2, "offset": 1})

    assert ids(response) == everything[1:3]
    assert response["X-Total-Count"] == "5"
    assert ids(as_admin.get(LIST, {"offset": 4})) == everything[4:]


def test_the_count_follows_new_and_deleted_orders(as_admin, orders):
    assert as_admin.get(LIST)["X-Total-Count"] == "5"
    BookingFactory()
    assert as_admin.get(LIST)["X-Total-Count"] == "6"
    orders["expired"].delete()
    assert as_admin.get(LIST, {"state": "expired"})["X-Total-Count"] == "0"


FILTER_ERRORS = [
    ({"state": "lost"}, "state", STATE_UNKNOWN),
    ({"state": "Shipped"}, "state", STATE_UNKNOWN),
    ({"q": "x" * 201}, "q", SEARCH_TOO_LONG),
    ({"q": "brake\x00"}, "q", None),
]
PAGE_ERRORS = [
    ({"limit": "0"}, "limit", None),
    ({"limit": "501"}, "limit", None),
    ({"limit": "ten"}, "limit", None),
    ({"offset": "-1"}, "offset", None),
    ({"offset": "9" * 40}, "offset", None),
]


@pytest.mark.parametrize(
    ("path", "query", "field", "message"),
    [(LIST, *error) for error in FILTER_ERRORS + PAGE_ERRORS]
    + [(CSV, *error) for error in FILTER_ERRORS],  # the export is every match: no limit
)
def test_bad_filters_are_a_400_on_the_field(as_admin, orders, path, query, field, message):
    response = as_admin.get(path, query)

    assert response.status_code == 400
    assert response["Content-Type"] == "application/json"
    body = response.json()
    assert list(body) == [field]
    if message:
        assert body[field] == [message]


def test_state_message_names_every_state():
    assert STATE_UNKNOWN == "State must be one of: unpaid, pending, shipped, expired, refunded"


def uncached(client, url: str):
    """GET `url` with nothing cached (the counts of orders included): the worst case."""
    cache.clear()
    caches["local"].clear()
    return client.get(url)


def test_a_filtered_page_reads_few_queries_whatever_the_number_of_orders(
    as_admin, orders, django_assert_max_num_queries
):
    url = f"{LIST}?state=shipped&q=a&limit=50"
    as_admin.get(url)
    with django_assert_max_num_queries(5) as few:
        uncached(as_admin, url)
    BookingFactory.create_batch(30, shipped=True)
    with django_assert_max_num_queries(len(few)):
        assert len(uncached(as_admin, url).json()) == 31


# --- GET /api/bookings.csv ------------------------------------------------------------------


def test_csv_is_a_streamed_file_with_a_header_row_and_a_row_per_order(as_admin, orders):
    response = as_admin.get(CSV)

    assert response.status_code == 200
    assert isinstance(response, StreamingHttpResponse)
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="orders.csv"'
    rows = csv_rows(response)
    assert rows[0] == HEADER
    assert [int(row[0]) for row in rows[1:]] == [order.pk for order in orders.values()]


def test_csv_header_is_api_md_s_wording():
    assert HEADER == [
        "number",
        "date",
        "e-mail",
        "name",
        "part",
        "quantity",
        "unit price",
        "total",
        "state",
        "transaction id",
        "address",
        "phone",
        "subtotal",
        "discount",
        "shipping",
        "tax",
        "voucher",
        "shipping method",
        "order total",
    ]


def test_csv_row_holds_the_order(as_admin, db):
    order = BookingFactory(
        paid_order=True,
        email="rider@example.com",
        name="Rosa Rider",
        parts_name="Chain kit, 520",
        price_per_unit=Decimal("149.5"),
        quantity=2,
        total_price=Decimal("299"),
        transaction_id="pi_123",
        address='7 Fell Road, "Top flat"\nKendal',
        phone="5550100",
        discount=Decimal("29.9"),
        shipping_price=Decimal("14.99"),
        tax=Decimal("45.26"),
        voucher_code="RIDE10",
        shipping_method="=Express",  # a name the owner typed: defused as every text
    )

    rows = csv_rows(as_admin.get(CSV))

    assert rows[1] == [
        str(order.pk),
        order.created_at.isoformat(),
        "rider@example.com",
        "Rosa Rider",
        "Chain kit, 520",
        "2",
        "149.50",
        "299.00",
        "pending",
        "pi_123",
        '7 Fell Road, "Top flat"\nKendal',
        "5550100",
        "299.00",
        "29.90",
        "14.99",
        "45.26",
        "RIDE10",
        "'=Express",
        "299.00",
    ]


def test_csv_gives_an_orders_breakdown_once_whatever_its_lines(as_admin, db):
    parts = [
        PartFactory(price=Decimal("10"), available_quantity=5, minimum_order_quantity=1)
        for _ in range(2)
    ]
    order = place_lines(UserFactory(), *[(part, 1) for part in parts])
    Booking.objects.filter(pk=order.pk).update(
        shipping_method="Standard", shipping_price=Decimal("6.95"), total_price=Decimal("26.95")
    )

    rows = [row for row in csv_rows(as_admin.get(CSV)) if row[0] == str(order.pk)]

    assert [row[12:] for row in rows] == [
        ["20.00", "0.00", "6.95", "0.00", "", "Standard", "26.95"],
        [""] * 7,
    ]


def test_csv_takes_the_same_filters(as_admin, orders):
    rows = csv_rows(as_admin.get(CSV, {"state": "expired"}))
    assert [(row[0], row[8]) for row in rows[1:]] == [(str(orders["expired"].pk), "expired")]

    rows = csv_rows(as_admin.get(CSV, {"q": "penny"}))
    assert [row[3] for row in rows[1:]] == ["Penny Paid"]

    assert csv_rows(as_admin.get(CSV, {"q": "nobody"})) == [HEADER]


def test_csv_states_are_the_api_s(as_admin, orders):
    rows = csv_rows(as_admin.get(CSV))
    by_number = {int(row[0]): row[8] for row in rows[1:]}

    assert by_number == {order.pk: state for state, order in orders.items()}


@pytest.mark.parametrize(
    ("typed", "written"),
    [
        (
            '=HYPERLINK("http://evil.example","Click")',
            '\'=HYPERLINK("http://evil.example","Click")',
        ),
        ("+1+cmd|' /C calc'!A0", "'+1+cmd|' /C calc'!A0"),
        ("-2+3", "'-2+3"),
        ("@SUM(1+1)", "'@SUM(1+1)"),
        ("\t=1+1", "'\t=1+1"),
        ("Plain Name", "Plain Name"),
        ("Ann = Bob", "Ann = Bob"),  # only a cell that begins with one is a formula
    ],
)
def test_csv_defuses_formulas(as_admin, db, typed, written):
    BookingFactory(name=typed, parts_name=typed, address=typed)

    row = csv_rows(as_admin.get(CSV))[1]

    assert (row[3], row[4], row[10]) == (written, written, written)


def test_csv_escapes_a_phone_number_that_begins_with_plus(as_admin, db):
    BookingFactory(phone="+441130000000")

    assert csv_rows(as_admin.get(CSV))[1][11] == "'+441130000000"


def test_csv_whatever_the_client_accepts(as_admin, orders):
    response = as_admin.get(CSV, HTTP_ACCEPT="text/csv")
    assert response.status_code == 200
    assert len(csv_rows(response)) == 6

    refused = as_admin.get(CSV, {"state": "lost"}, HTTP_ACCEPT="text/csv")
    assert (refused.status_code, refused.json()) == (400, {"state": [STATE_UNKNOWN]})


def test_csv_reads_in_chunks_of_a_server_side_cursor(as_admin, db, django_assert_max_num_queries):
    """Many orders, a few queries: the rows come from .iterator(chunk_size=…), not one query
    per order (and never all in memory at once)."""
    BookingFactory.create_batch(40)
    response = as_admin.get(CSV)
    with django_assert_max_num_queries(5):
        assert len(csv_rows(response)) == 41


# --- The page --------------------------------------------------------------------------------


@pytest.fixture
def admin_client(client, admin_user):
    client.force_login(admin_user)
    return client


def test_the_page_gives_its_island_each_orders_breakdown(admin_client, db):
    order = BookingFactory(
        subtotal=Decimal("100"),
        discount=Decimal("10"),
        voucher_code="RIDE10",
        shipping_method="Express",
        shipping_price=Decimal("14.99"),
        shipping_eta="1–2 business days",
        total_price=Decimal("104.99"),
    )

    (row,) = island_props(admin_client.get(PAGE), "manage-orders")["orders"]

    assert row["_id"] == order.pk
    assert (row["subtotal"], row["discount"], row["voucher"]) == (100.0, 10.0, "RIDE10")
    assert row["shipping"] == {"method": "Express", "price": 14.99, "eta": "1–2 business days"}
    assert (row["tax"], row["taxIncluded"], row["totalPrice"]) == (0.0, True, 104.99)


def test_the_page_shows_the_filters_and_the_orders_as_the_api_does(admin_client, as_admin, orders):
    response = admin_client.get(PAGE, {"state": "pending", "q": "penny"})

    assert response.status_code == 200
    props = island_props(response, "manage-orders")
    assert props["orders"] == as_admin.get(LIST, {"state": "pending", "q": "penny"}).json()
    assert (props["first"], props["searching"]) == (1, True)
    html = response.content.decode()
    assert 'name="q" value="penny"' in html
    assert '<option value="pending" selected>Pending</option>' in html
    assert 'href="/api/bookings.csv?state=pending&amp;q=penny"' in html
    text = page_text(response)
    assert "1 order found" in text
    assert "Download CSV" in text


def test_without_filters_the_csv_link_is_every_order(admin_client, orders):
    response = admin_client.get(PAGE)

    assert 'href="/api/bookings.csv"' in response.content.decode()
    assert island_props(response, "manage-orders")["searching"] is False
    assert "5 orders" in page_text(response)


def test_fifty_orders_a_page_with_links_that_keep_the_filters(admin_client, db):
    BookingFactory.create_batch(120, name="Rider")
    BookingFactory.create_batch(3, name="Someone else")

    first = admin_client.get(PAGE, {"q": "rider"})
    second = admin_client.get(PAGE, {"q": "rider", "page": "2"})
    last = admin_client.get(PAGE, {"q": "rider", "page": "99"})  # beyond the end: the last

    assert len(island_props(first, "manage-orders")["orders"]) == 50
    assert island_props(second, "manage-orders")["first"] == 51
    assert len(island_props(last, "manage-orders")["orders"]) == 20
    html = first.content.decode()
    assert 'href="?q=rider&amp;page=2"' in html
    assert 'href="?q=rider&amp;page=3"' in html
    assert "120 orders found, page 1 of 3" in page_text(first)
    assert 'href="/dashboard/manageorders?q=rider"' in second.content.decode()  # back to 1


def test_a_bad_filter_is_said_on_the_page_and_every_order_shown(admin_client, orders):
    response = admin_client.get(PAGE, {"state": "lost"})

    assert response.status_code == 200
    assert STATE_UNKNOWN in page_text(response)
    assert len(island_props(response, "manage-orders")["orders"]) == 5


def test_the_page_reads_few_queries_whatever_the_number_of_orders(
    admin_client, orders, django_assert_max_num_queries
):
    url = f"{PAGE}?state=shipped&q=a&page=2"
    admin_client.get(url)
    with django_assert_max_num_queries(5) as few:
        uncached(admin_client, url)
    BookingFactory.create_batch(60, shipped=True)
    with django_assert_max_num_queries(len(few)):
        response = uncached(admin_client, url)
    assert len(island_props(response, "manage-orders")["orders"]) == 11
