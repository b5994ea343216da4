"""Placing orders with 10,000 lapsed holds in the table against none, in the same run: within
10% (issue 11: releasing holds must not slow ordering). Import after db.setup().

Runs alternate A B B A A B (none, lapsed, ...) so a drift in the machine's speed weighs on
both alike. Before each "lapsed" run the table gets LAPSED unpaid orders whose hold lapsed,
ON_PART of them on the part being ordered (the first order releases those, as a shopper's
would; their units are taken off its shelf) and the rest spread evenly over the rest of the
catalog, however small (their units are left on those shelves: only the two parts ordered are
reconciled); before each "none" run the unreleased ones are taken out again (the ordered
part's units given back), so that run orders with no lapsed hold anywhere.
"""

import json
from datetime import timedelta
from decimal import Decimal

from django.db import connection, transaction
from django.db.models import F, Sum
from django.utils import timezone

from accounts.models import User
from bench.lib import data, load
from bench.lib.orders import order
from bench.lib.report import Row, Section
from catalog.models import Part
from orders.models import Booking, BookingLine

STOCK = 1_000_000
LAPSED, ON_PART = 10_000, 100
TOLERANCE = 0.10
# Each lapsed run starts by releasing ON_PART holds (a one-off cost, as a shopper's first order
# after them pays it) and the difference sought is small: runs of at least 5 s, 4 of each, so
# neither the one-off cost nor the machine's drift decides the verdict (2 s runs: ±10% noise).
MIN_SECONDS, MIN_ROUNDS = 5, 4


def measure(base_url: str, *, tokens: list[str], seconds: int, rounds: int) -> Section:
    url = base_url + "/api/booking"
    seconds, rounds = max(seconds, MIN_SECONDS), max(rounds, MIN_ROUNDS)
    parts = {"none": data.new_part(stock=STOCK), "lapsed": data.new_part(stock=STOCK)}
    owner = User.objects.create(email="lapsed@bench.example.com", name="Lapsed Holds")
    runs: dict[str, list[load.Load]] = {"none": [], "lapsed": []}
    for n in range(rounds):
        for case in ("none", "lapsed") if n % 2 == 0 else ("lapsed", "none"):
            if case == "lapsed":
                _add_lapsed(owner=owner, part_id=parts["lapsed"])
            else:
                _clear_lapsed(part_id=parts["lapsed"])
            body = json.dumps(order(parts[case]))
            runs[case].append(load.wrk(url, seconds=seconds, post=(body, tokens)))
    _clear_lapsed(part_id=parts["lapsed"])
    none, lapsed = (_rate(runs[case]) for case in ("none", "lapsed"))
    change = lapsed / none - 1 if none else -1.0
    errors = sum(run.errors for case in runs.values() for run in case)
    reconciled = all(_reconciled(part_id) for part_id in parts.values())
    row = Row(
        f"`POST /api/booking` with {LAPSED:,} lapsed holds in the table vs none",
        f"{lapsed:,.0f} orders/s against {none:,.0f}: {change:+.0%}; {errors} errors; "
        f"stock {'reconciled' if reconciled else '**not reconciled**'}",
        f"within {TOLERANCE:.0%}",
        abs(change) <= TOLERANCE and errors == 0 and reconciled,
    )
    details = [
        "## Orders with lapsed holds",
        "",
        f"- {rounds} runs of each, {seconds} s, {len(tokens)} shoppers, alternating; before "
        f"each lapsed run {LAPSED:,} unpaid orders past their hold ({ON_PART} on the part "
        f"ordered, the rest spread evenly over the other parts); before each other run none.",
        "",
        "| run | orders/s | p99 |",
        "|---|---|---|",
        *(
            f"| {case} | {run.rps:,.0f} | {run.p99_ms:.0f} ms |"
            for case, case_runs in runs.items()
            for run in case_runs
        ),
    ]
    return Section([row], details)


def _rate(runs: list[load.Load]) -> float:
    seconds = sum(run.seconds for run in runs)
    return sum(run.requests - run.status_errors for run in runs) / seconds if seconds else 0.0


@transaction.atomic
def _add_lapsed(*, owner: User, part_id: int) -> None:
    """LAPSED orders of 1 unit past their hold: ON_PART on `part_id`, their units taken off
    its shelf as an order takes them, the rest spread evenly over the other parts."""
    others = list(Part.objects.exclude(pk=part_id).order_by("pk").values_list("pk", flat=True))
    spread = [others[n % len(others)] for n in range(LAPSED - ON_PART)]
    part_ids = [part_id] * ON_PART + spread
    lapsed_at = timezone.now() - timedelta(seconds=1)
    names = dict(Part.objects.filter(pk__in=set(part_ids)).values_list("pk", "name"))
    made = Booking.objects.bulk_create(
        Booking(
            user=owner,
            email=owner.email,
            name=owner.name,
            total_price=1,
            subtotal=1,
            address=data.ADDRESS,
            phone=data.PHONE,
            expires_at=lapsed_at,
        )
        for _ in part_ids
    )
    data.one_line_each(made, [(pk, names[pk], Decimal(1), 1) for pk in part_ids])
    _give_back(part_id, -ON_PART)
    # A shop's holds lapse over ORDER_HOLD_SECONDS, not in one instant: PostgreSQL's
    # autovacuum has counted them by then (the planner's statistics), as it is made to here.
    transaction.on_commit(_analyze)


def _analyze() -> None:
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE orders_booking, orders_bookingline")


@transaction.atomic
def _clear_lapsed(*, part_id: int) -> None:
    """Take out the lapsed orders no order has released yet, those of `part_id` with their
    units back on its shelf."""
    due = Booking.objects.filter(
        paid=False, released_at__isnull=True, expires_at__lte=timezone.now()
    )
    on_part = due.of_parts([part_id]).count()
    due.delete()
    _give_back(part_id, on_part)


def _give_back(part_id: int, units: int) -> None:
    Part.objects.filter(pk=part_id).update(available_quantity=F("available_quantity") + units)


def _reconciled(part_id: int) -> bool:
    """Stock left + units still held by orders == the stock the part started with."""
    data.stock_check(part_id)  # waits for the orders in flight
    held = BookingLine.objects.filter(part_id=part_id, booking__released_at__isnull=True).aggregate(
        units=Sum("quantity", default=0)
    )["units"]
    return Part.objects.get(pk=part_id).available_quantity + held == STOCK
