"""The owner's tools at scale (issue 14's targets): Manage Orders, a filtered
`GET /api/bookings` page and `GET /api/stats` with 100 and with 100,000 orders (at most 5 SQL
queries each, requests/s within 20%), and the CSV export's memory at 10,000 and 100,000 orders
(flat: it streams). Import after db.setup(); the catalog (10,000 parts) is already there.

The orders are a shop's history, made in bulk: spread over the last two years (ten minutes
apart, the newest now), mostly shipped, some refunded, pending or expired (none still held);
each names one of the catalog's parts and one of 1,000 customers. They are removed at the
end (every order after the last one that was there before), so the sections after this one
measure the shop as it was.
"""

import time
import tracemalloc
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass
from decimal import Decimal

from django.conf import settings
from django.core.cache import cache, caches
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from accounts.models import User
from bench.lib.data import one_line_each, token_of
from bench.lib.reads import Paired, Reads, Target, errors
from bench.lib.report import Row, Section, table
from catalog.models import Part
from orders.models import Booking, BookingLine
from shop import demo_data

SMALL, CSV_SMALL, LARGE = 100, 10_000, 100_000
CUSTOMERS = 1_000
MINUTES_APART = 10  # 100,000 orders × 10 minutes: about 23 months of orders
BATCH = 5_000
MAX_QUERIES = 5
TOLERANCE = 0.2
CSV_GROWTH = 1.5  # the export's peak memory at LARGE orders, at most this × the CSV_SMALL one

MANAGE = "/dashboard/manageorders"
FILTERED = "/api/bookings?state=shipped&limit=50"
STATS = "/api/stats"
SEARCHED = "/dashboard/manageorders?q=customer7&state=shipped"  # counted, not timed
CSV = "/api/bookings.csv"
PATHS = [MANAGE, FILTERED, STATS]
COUNTED = [*PATHS, SEARCHED]
ADDRESS, PHONE = "1 Bench Street, Leeds", "+441130000000"

# (share of the orders, how the order stands): by the order's number modulo 100.
KINDS = [(85, "shipped"), (5, "refunded"), (5, "expired"), (5, "pending")]


def _kind(n: int) -> str:
    bound = 0
    for share, kind in KINDS:
        bound += share
        if n % 100 < bound:
            return kind
    return "shipped"


def customers() -> list[User]:
    """CUSTOMERS shoppers the generated orders belong to (made once)."""
    have = list(User.objects.filter(email__startswith="customer", email__endswith="@example.com"))
    if len(have) >= CUSTOMERS:
        return have[:CUSTOMERS]
    made = [
        User(email=f"customer{n}@example.com", name=f"Customer {n}")
        for n in range(len(have), CUSTOMERS)
    ]
    for user in made:
        user.set_unusable_password()
    return have + User.objects.bulk_create(made)


def _line(n: int, part: tuple) -> tuple:
    """(part id, name, unit price, quantity) of generated order `n`'s one line."""
    part_id, name, price = part
    return part_id, name, price, 1 + n % 4


def _order(n: int, line: tuple, customer: User) -> Booking:
    _, _, price, quantity = line
    kind = _kind(n)
    paid = kind != "expired"
    return Booking(
        user=customer,
        email=customer.email,
        name=customer.name,
        total_price=price * quantity,
        subtotal=price * quantity,
        address=ADDRESS,
        phone=PHONE,
        paid=paid,
        status=Booking.Status.APPROVED if kind == "shipped" else None,
        transaction_id=f"pi_bench_{n}" if paid else "",
        payment_intent_id=f"pi_bench_{n}" if paid else "",
        refund_id=f"re_bench_{n}" if kind == "refunded" else "",
    )


def last_order_id() -> int:
    return Booking.objects.order_by("-id").values_list("id", flat=True).first() or 0


def add_orders(total: int, *, after: int) -> int:
    """Generated orders made in bulk until there are `total` of them; how many were added. The generated orders
    are those after order `after`; their dates are set by one UPDATE afterwards (bulk_create
    stamps created_at with now)."""
    # Counted among the generated ones: the orders placed by the steps before are not "the
    # 100 orders" (they are unpaid, so a filtered page of shipped ones would be nearly empty).
    missing = total - Booking.objects.filter(pk__gt=after).count()
    if missing <= 0:
        return 0
    parts = list(Part.objects.order_by("id").values_list("id", "name", "price"))
    people = customers()
    first = last_order_id() + 1
    for start in range(0, missing, BATCH):
        numbers = range(first + start, first + min(start + BATCH, missing))
        lines = [_line(n, parts[n % len(parts)]) for n in numbers]
        made = Booking.objects.bulk_create(
            # Customers in turn from the first generated order, whatever came before it: the
            # searched customers have orders at 100 orders as at 100,000.
            _order(n, line, people[(n - after) % len(people)])
            for n, line in zip(numbers, lines, strict=True)
        )
        one_line_each(made, lines)
    _date_the_history(after)
    cache.clear()  # bulk writes send no signals; the cache is the benchmark's own (a Redis db)
    caches["local"].clear()
    return missing


def _date_the_history(after: int) -> None:
    """Every generated order MINUTES_APART minutes after the one before, the newest now;
    paid five minutes after it was placed, refunded a day later, expired after its hold."""
    with connection.cursor() as cursor:
        cursor.execute(
            """
            UPDATE orders_booking AS b
               SET created_at = now() - (last.id - b.id) * %(apart)s * interval '1 minute'
              FROM (SELECT max(id) AS id FROM orders_booking) AS last
             WHERE b.id > %(after)s
            """,
            {"apart": MINUTES_APART, "after": after},
        )
        cursor.execute(
            """
            UPDATE orders_booking
               SET paid_at = CASE WHEN paid THEN created_at + interval '5 minutes' END,
                   expires_at = created_at + interval '30 minutes',
                   released_at = CASE WHEN NOT paid THEN created_at + interval '30 minutes' END,
                   refunded_at = CASE WHEN refund_id <> '' THEN created_at + interval '1 day' END
             WHERE id > %(after)s
            """,
            {"after": after},
        )
        # As autovacuum would, some time after: the two UPDATEs left a dead copy of every
        # generated order, all dated "now", at the head of the newest-first indexes; and the
        # orders' lines, bulk-made, have statistics (without them PostgreSQL reads every line
        # for a page's 50 orders).
        cursor.execute("VACUUM ANALYZE orders_booking, orders_bookingline")


def remove_orders(*, after: int) -> None:
    """The generated orders (those after order `after`) gone, their lines first (only the
    lines refer to them)."""
    with connection.cursor() as cursor:
        cursor.execute("DELETE FROM orders_bookingline WHERE booking_id > %s", [after])
        cursor.execute("DELETE FROM orders_booking WHERE id > %s", [after])
    cache.clear()
    caches["local"].clear()


@dataclass(frozen=True)
class Admin:
    """How the shop admin is signed in: the session cookie for pages, a bearer token for the
    API (as the islands call it)."""

    session: str
    token: str

    @classmethod
    def of(cls, session: str) -> "Admin":
        admin = User.objects.get(email=demo_data.ADMIN.email)
        return cls(session=session, token=token_of(admin))

    def headers(self, path: str) -> dict[str, str]:
        if path.startswith("/api/"):
            return {"Authorization": f"Bearer {self.token}"}
        return {"Cookie": f"{settings.SESSION_COOKIE_NAME}={self.session}"}

    def client(self, path: str) -> Client:
        client = Client(SERVER_NAME="localhost")
        if path.startswith("/api/"):
            client.defaults["HTTP_AUTHORIZATION"] = f"Bearer {self.token}"
        else:
            client.cookies[settings.SESSION_COOKIE_NAME] = self.session
        return client


def count_queries(admin: Admin) -> dict[str, int]:
    """SQL queries of each path, as pages.count_queries counts them (after a first request,
    with the cache emptied)."""
    counts = {}
    for path in COUNTED:
        client = admin.client(path)
        client.get(path)
        cache.clear()
        caches["local"].clear()
        with CaptureQueriesContext(connection) as queries:
            response = client.get(path)
        if response.status_code != 200:
            raise RuntimeError(f"admin GET {path}: {response.status_code}, not 200")
        counts[path] = len(queries)
    return counts


@dataclass(frozen=True)
class Export:
    orders: int
    rows: int
    size: int  # bytes
    seconds: float
    peak: int  # bytes: tracemalloc's peak while the whole export streamed


def export(admin: Admin) -> Export:
    """GET /api/bookings.csv streamed to the end in this process, chunk by chunk, under
    tracemalloc: the peak of Python memory while it ran."""
    client = admin.client(CSV)
    orders = Booking.objects.count()
    lines = BookingLine.objects.count()  # the CSV has a row per line
    warm_up = client.get(CSV, {"state": "unpaid"})  # first use: imports, URL resolver, …
    b"".join(warm_up.streaming_content)
    warm_up.close()
    tracemalloc.start()
    started = time.monotonic()
    response = client.get(CSV)
    rows = size = 0
    for chunk in response.streaming_content:
        size += len(chunk)
        rows += chunk.count(b"\n")
    seconds = time.monotonic() - started
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    response.close()
    if response.status_code != 200 or rows != lines + 1:
        raise RuntimeError(f"GET {CSV}: {response.status_code}, {rows} rows for {lines} lines")
    return Export(orders=orders, rows=rows - 1, size=size, seconds=seconds, peak=peak)


@contextmanager
def generated_orders():
    """Yields the id after which orders are the benchmark's own; they are removed on the way
    out (also on failure)."""
    after = last_order_id()
    try:
        yield after
    finally:
        remove_orders(after=after)


def section(
    base_url: str, *, reads: Reads, admin_session: str, rounds: int, log: Callable
) -> Section:
    """Top the orders up to SMALL, measure, to CSV_SMALL (export), to LARGE (measure,
    export); then the generated orders are removed. `reads` alternates with the baselines."""
    admin = Admin.of(admin_session)
    targets = [Target(path, base_url + path, headers=admin.headers(path)) for path in PATHS]
    with generated_orders() as after:
        add_orders(SMALL, after=after)
        log(f"owner: {Booking.objects.count():,} orders")
        small = reads.measure(f"{SMALL} orders", targets, rounds)
        small_queries = count_queries(admin)
        add_orders(CSV_SMALL, after=after)
        small_export = export(admin)
        log(f"owner: {Booking.objects.count():,} orders; export {small_export}")
        add_orders(LARGE, after=after)
        log(f"owner: {Booking.objects.count():,} orders")
        large = reads.measure(f"{LARGE:,} orders", targets, rounds)
        large_queries = count_queries(admin)
        large_export = export(admin)
        log(f"owner: export {large_export}")
    return report(small, large, (small_queries, large_queries), (small_export, large_export))


def report(
    small: dict[str, Paired],
    large: dict[str, Paired],
    queries: tuple[dict[str, int], dict[str, int]],
    exports: tuple[Export, Export],
) -> Section:
    rows = []
    for path in PATHS:
        before, got = small[path], large[path]
        change = got.share() / before.share() - 1
        rows.append(
            Row(
                f"{LARGE:,} orders: admin `{path}`, req/s",
                f"{got.rps:,.0f} ({got.share():.0%} of bare; at {SMALL} orders "
                f"{before.rps:,.0f}, {before.share():.0%}): {change:+.0%}{errors(got)}",
                f"within {TOLERANCE:.0%} of the {SMALL}-order figure",
                change >= -TOLERANCE and not got.errors and not before.errors,
                bare=f"{got.bare_rps():,.0f}",
            )
        )
    few, many = queries
    most = max(*few.values(), *many.values())
    changed = [f"`{path}`" for path in few if few[path] != many[path]]
    rows.append(
        Row(
            f"SQL queries of the owner's reads ({len(few)} paths)",
            f"at most {most}; "
            + ("the same" if not changed else "changed: " + ", ".join(changed))
            + f" at {SMALL} and {LARGE:,} orders",
            f"≤ {MAX_QUERIES}, constant in the number of orders",
            most <= MAX_QUERIES and not changed,
        )
    )
    small_export, large_export = exports
    growth = large_export.peak / small_export.peak
    rows.append(
        Row(
            f"`GET {CSV}` memory (streamed), peak",
            f"{mb(large_export.peak)} for {large_export.orders:,} orders, "
            f"{mb(small_export.peak)} for {small_export.orders:,} ({growth:.2f}×)",
            f"flat: ≤ {CSV_GROWTH:g}× the {CSV_SMALL:,}-order peak",
            growth <= CSV_GROWTH,
        )
    )
    details = [
        "## The owner's tools at scale",
        "",
        f"Orders made in bulk ({MINUTES_APART} minutes apart, mostly shipped); the admin "
        "signed in by session cookie on pages, by bearer token on the API. Queries counted as above; the CSV export streamed to the "
        "end with Django's test client in the benchmark's process, its peak Python memory "
        "measured by tracemalloc.",
        "",
        *table(
            ["path", f"queries, {SMALL} orders", f"queries, {LARGE:,} orders"],
            [[f"`{path}`", few[path], many[path]] for path in few],
        ),
        "",
        *table(
            ["CSV export", "rows", "size", "time", "peak memory"],
            [
                [
                    f"{e.orders:,} orders",
                    f"{e.rows:,}",
                    mb(e.size),
                    f"{e.seconds:.1f} s",
                    mb(e.peak),
                ]
                for e in exports
            ],
        ),
    ]
    return Section(rows, details)


def mb(size: int) -> str:
    return f"{Decimal(size) / 1024 / 1024:.1f} MB"
