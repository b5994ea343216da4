"""Reads of orders. An order belongs to the account that placed it (the user link); the
e-mail and name on it are a snapshot, never used to decide whose it is."""

import functools
import hashlib
import hmac
import re
from collections.abc import Collection, Iterable, Iterator
from itertools import islice

from django.db.models import (
    Exists,
    OuterRef,
    Prefetch,
    Q,
    QuerySet,
    Sum,
    prefetch_related_objects,
)
from django.utils import timezone

from core.api import MAX_ID
from core.caching import versions
from core.caching.statements import STAND_IN_TIME, Statement, stand_in_numbers
from core.paging import ListPage, page_of

from ..models import Booking, BookingLine, Return, ReturnLine, lapsed_lines

CACHE = "orders"  # made stale by the services that change an order (services.common)
# Counts and figures are kept at most this long: an unpaid order becomes expired when its hold
# lapses, with no write that would make them stale.
FRESH_SECONDS = 60
ORDERS_PER_PAGE = 50  # Manage Orders
EXPORT_CHUNK = 2000  # rows the CSV export reads at a time (memory flat in the number of orders)
# "42", "#42", "Order #42", "order 42": an order number (at most 18 digits: a bigint).
ORDER_NUMBER = re.compile(r"(?:order\s*)?#?\s*(\d{1,18})", re.IGNORECASE)


def booking_list() -> QuerySet[Booking]:
    """Every order, newest first (shop admins), with its lines (one query for them all)."""
    return Booking.objects.prefetch_related("lines").order_by("-created_at", "-id")


def booking_list_of(*, user) -> QuerySet[Booking]:
    """The orders `user` placed, newest first; none when there is no such account."""
    if user is None:
        return Booking.objects.none()
    return booking_list().filter(user=user)


def last_ship_to(*, user) -> dict:
    """Where the account's last order went, as a new address's fields (API names): its copy of
    the address; for the spec's free text, that text as line 1 and its phone; {} for none."""
    last = (
        Booking.objects.filter(user=user)
        .order_by("-created_at", "-id")
        .values("ship_to", "address", "phone")
        .first()
    )
    if last is None:
        return {}
    return dict(last["ship_to"] or {"line1": last["address"][:200], "phone": last["phone"]})


def lapsed_holds_of_parts_exist(*, part_ids: Collection[int]) -> bool:
    """Whether a lapsed hold of one of `part_ids` waits to go back on the shelf
    (BookingQuerySet.lapsed_of_parts): what every order asks first, and mostly no. One
    statement, compiled once per process and count of parts."""
    found = _lapsed_of_parts(len(part_ids)).run(part_ids=sorted(part_ids), now=timezone.now())
    return bool(found)


@functools.lru_cache(maxsize=64)
def _lapsed_of_parts(count: int) -> Statement:
    def lapsed(part_ids, now):
        return lapsed_lines(part_ids, now).order_by().values("booking_id")[:1]

    return Statement.of(lapsed, part_ids=stand_in_numbers(count), now=STAND_IN_TIME)


def booking_visible_to(user) -> QuerySet[Booking]:
    """The orders `user` may see: all for shop admins, their own for everybody else."""
    bookings = Booking.objects.prefetch_related("lines")
    return bookings if user.is_shop_admin else bookings.filter(user=user)


def booking_owned_by(user) -> QuerySet[Booking]:
    """The orders `user` placed: only the owner pays for an order."""
    return Booking.objects.prefetch_related("lines").filter(user=user)


# What a key is compared with when there is no guest's order of that id: a missing order and a
# wrong key take the same time as a right one (the length of a real key: token_urlsafe(24)).
_NO_KEY = b"-" * 32


def booking_for(*, user, pk: int, key: str | None = None, own: bool = False) -> Booking | None:
    """The order `pk` as the request asks for it, with its lines; None when the asker may not
    have it (the pages and endpoints answer 404, so its existence is not revealed).

    With `key` (a guest's private key, from the page's path or `?key=`): the guest's order of
    that key, whoever asks (its key is compared in constant time, and an order that is missing,
    or no guest's, is compared too). Without: booking_visible_to `user` (its own orders, all of
    them for shop admins), or with `own` only its own (only the owner pays).
    The one rule of "the order of this request, by owner or key": every per-order page and
    endpoint asks it."""
    in_range = 0 < pk <= MAX_ID  # ids beyond the database's range name no order
    if key is not None:
        # One statement whether or not the order is there; its lines only for the right key.
        booking = Booking.objects.filter(pk=pk).first() if in_range else None
        stored = booking.guest_key if booking is not None and booking.guest_key else None
        matches = hmac.compare_digest(
            stored.encode() if stored else _NO_KEY, key.encode("utf-8", "replace")
        )
        if not (matches and stored):
            return None
        prefetch_related_objects([booking], "lines")
        return booking
    if not in_range or user is None or not user.is_authenticated:
        return None
    bookings = booking_owned_by(user) if own else booking_visible_to(user)
    return bookings.filter(pk=pk).first()


def return_list(*, state: str = "") -> QuerySet[Return]:
    """Every return, newest first (shop admins), in `state` when given, with its order and
    lines (one query each)."""
    lines = Prefetch("lines", queryset=ReturnLine.objects.select_related("booking_line"))
    returns = Return.objects.select_related("booking").prefetch_related(lines)
    returns = returns.order_by("-created_at", "-id")
    return returns.filter(state=state) if state else returns


def returns_of(*, booking: Booking) -> list[Return]:
    """The returns of one order, newest first, with their lines (two queries); none read for
    an order that never shipped (it has none)."""
    if booking.shipped_at is None:
        return []
    return list(return_list().filter(booking=booking))


def return_units_out(booking_id: int, *, states: Iterable[str] = Return.HOLDING) -> dict[int, int]:
    """Units of each line of the order (by BookingLine id) in its returns in `states`: by
    default those counted as returned (requested, approved, refunded)."""
    rows = (
        ReturnLine.objects.filter(ret__booking_id=booking_id, ret__state__in=list(states))
        .values("booking_line_id")
        .annotate(units=Sum("quantity"))
    )
    return {row["booking_line_id"]: row["units"] for row in rows}


def booking_matching(q: str) -> Q:
    """Orders whose e-mail, name or the part name of one of whose lines holds `q` (case does
    not matter), or whose number it is ("42", "#42", "Order #42")."""
    on_a_line = BookingLine.objects.filter(booking=OuterRef("pk"), parts_name__icontains=q)
    match = Q(email__icontains=q) | Q(name__icontains=q) | Q(Exists(on_a_line))
    if number := ORDER_NUMBER.fullmatch(q):
        match |= Q(pk=int(number[1]))
    return match


def booking_search(*, state: str = "", q: str = "", now=None) -> QuerySet[Booking]:
    """Every order, newest first, narrowed to one state (Booking.State) and to those that
    match `q`: the one filter of Manage Orders, GET /api/bookings and the CSV export."""
    bookings = booking_list()
    if state:
        bookings = bookings.in_state(state, now)
    if q := q.strip():
        bookings = bookings.filter(booking_matching(q))
    return bookings


def booking_count(*, state: str = "", q: str = "") -> int:
    """How many orders booking_search finds, from the cache until an order changes (at most
    FRESH_SECONDS): counting 100,000 orders costs more than reading a page of them."""
    digest = hashlib.sha256(q.strip().encode()).hexdigest()[:24]
    return versions.get_or_set(
        f"orders:count:{state}:{digest}",
        lambda: booking_search(state=state, q=q).count(),
        FRESH_SECONDS,
        names=[CACHE],
    )


def booking_page(*, state: str = "", q: str = "", page: object = 1) -> ListPage:
    """One page of booking_search (ORDERS_PER_PAGE orders) and its place among the pages."""
    return page_of(
        booking_search(state=state, q=q),
        page=page,
        per_page=ORDERS_PER_PAGE,
        count=lambda: booking_count(state=state, q=q),
    )


# An order's fields in the CSV: the number, date, e-mail and name, then (LINE_FIELDS) its
# line's, then the rest.
EXPORT_FIELDS = (
    "id",
    "created_at",
    "email",
    "name",
    "state_now",
    "transaction_id",
    "address",
    "phone",
    "subtotal",
    "discount",
    "shipping_price",
    "tax",
    "voucher_code",
    "shipping_method",
    "total_price",
)
BREAKDOWN = 7  # the last of EXPORT_FIELDS: the order's, on its first line's row only
LINE_FIELDS = ("parts_name", "quantity", "price_per_unit", "line_total")


def booking_export(*, state: str = "", q: str = "") -> Iterator[tuple]:
    """One tuple per line of booking_search's orders (the order's number, date, e-mail and
    name, the line's part, quantity, unit price and total, then the order's state, transaction
    id, address and phone, and its subtotal, discount, shipping, tax, voucher code, shipping
    method and total on its first line's row, None on the others), newest order first; read EXPORT_CHUNK orders at a time (a
    server-side cursor on PostgreSQL), with one query for the lines of each chunk: memory
    stays flat whatever the number of orders."""
    now = timezone.now()
    rows = booking_search(state=state, q=q, now=now).prefetch_related(None).with_state(now)
    orders = rows.values_list(*EXPORT_FIELDS).iterator(chunk_size=EXPORT_CHUNK)
    while chunk := list(islice(orders, EXPORT_CHUNK)):
        lines: dict[int, list[tuple]] = {}
        found = BookingLine.objects.filter(booking_id__in=[row[0] for row in chunk])
        for booking_id, *line in found.order_by("id").values_list("booking_id", *LINE_FIELDS):
            lines.setdefault(booking_id, []).append(tuple(line))
        for row in chunk:
            breakdown = row[-BREAKDOWN:]
            for line in lines.get(row[0], []):
                yield (*row[:4], *line, *row[4:-BREAKDOWN], *breakdown)
                breakdown = (None,) * BREAKDOWN  # once per order: the columns add up
