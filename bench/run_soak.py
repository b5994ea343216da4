"""The load run: a fresh shop on PostgreSQL behind gunicorn, locust's shoppers, a reconciliation.

1. creates an empty PostgreSQL database (on the server of DATABASE_URL, or 127.0.0.1:5432),
   migrates it, collects the static files and imports SOAK_PARTS (known stock) with `manage.py import_parts`;
2. starts gunicorn on a free loopback port (scripts/servers.py: DEBUG=0, the API's throttle
   rates raised so the shoppers of one address are not refused);
3. runs locust headless with bench/locustfile.py: USERS shoppers, RATE a second, SECONDS s,
   its statistics per route in bench/out/soak_*.csv (the totals come back in its ledger);
4. reconciles in the database: for every part, remaining stock + the quantities its orders
   still hold (those whose hold has not lapsed and been released) = the stock imported (none
   below zero), and the orders are exactly those
   the shoppers were told were placed and not cancelled; audits the fair holds (API.md, "Fair
   holds"): replaying each part's stock movements in the order its row lock let them through,
   no account ever held more than its MAX_HELD_SHARE when an order of it was placed, and no
   order placed while the same account's earlier hold of that part ran expires later than
   that hold (deleting and ordering again renews nothing); counts the tracebacks in
   gunicorn's log; stops gunicorn and drops the database.

    python -m bench.run_soak --users 50 --seconds 60      # make soak

Exit status 0 only when there was no 5xx, no failed connection, no traceback, the
reconciliation is exact and the fair-hold audit finds nothing.
"""

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
from decimal import Decimal
from pathlib import Path

import psycopg

from scripts.servers import ROOT, Gunicorn, fresh_database, manage, postgres_server, shop_env

OUT = ROOT / "bench" / "out"
MAX_USERS, MAX_SECONDS = 500, 900
HELD_SHARE = "0.5"  # MAX_HELD_SHARE of the shop under load (its default), for the audit
HIGH_RATE = "1000000/minute"
# The API's throttles (each app's throttles.py), raised: every shopper comes from 127.0.0.1.
THROTTLES_OFF = dict.fromkeys(
    ("THROTTLE_SIGNUP", "THROTTLE_TOKEN", "THROTTLE_TOKEN_REFRESH", "THROTTLE_ORDERS"), HIGH_RATE
)
# Two parts with little stock (shoppers race for the last units), the rest plenty.
SOAK_PARTS = [
    {
        "name": f"Soak part {n}",
        "description": "A part for the soak run.",
        "price": f"{5 + 3 * n}.50",
        "minimumOrderQuantity": 1 + n % 3,
        "availableQuantity": 25 if n < 2 else 100_000,
        "img": "",
    }
    for n in range(8)
]


def run_locust(
    url: str, users: int, rate: float, seconds: int, ledger: Path, csv_prefix: Path
) -> None:
    csv_prefix.parent.mkdir(parents=True, exist_ok=True)
    command = [sys.executable, "-m", "locust", "-f", str(ROOT / "bench" / "locustfile.py")]
    command += ["--headless", "-u", str(users), "-r", str(rate), "-t", f"{seconds}s"]
    command += ["--host", url, "--csv", str(csv_prefix), "--only-summary"]
    # Shoppers finish the step in hand when time is up: no order placed and left untold.
    command += ["--stop-timeout", "30", "--ledger", str(ledger), "--loglevel", "WARNING"]
    # locust's own exit status counts failures; the verdict below counts them too, and more.
    subprocess.run(command, cwd=ROOT, timeout=seconds + 120, check=False)


def released_holds(database_url: str) -> int:
    """How many orders' holds lapsed and went back on the shelf during the run."""
    with psycopg.connect(database_url) as conn:
        query = "SELECT COUNT(*) FROM orders_booking WHERE released_at IS NOT NULL"
        return conn.execute(query).fetchone()[0]


def reconcile(database_url: str, open_orders: dict[str, list[int]]) -> tuple[list, list]:
    """(stock mismatches, order mismatches) found in the database."""
    stock_query = """
        SELECT p.name, p.available_quantity,
               COALESCE(SUM(l.quantity) FILTER (WHERE b.released_at IS NULL), 0)
        FROM catalog_part p
        LEFT JOIN orders_bookingline l ON l.part_id = p.id
        LEFT JOIN orders_booking b ON b.id = l.booking_id
        GROUP BY p.id, p.name, p.available_quantity
    """
    with psycopg.connect(database_url) as conn:
        rows = {name: (stock, ordered) for name, stock, ordered in conn.execute(stock_query)}
        stored = {
            str(pk): [part, quantity]
            for pk, part, quantity in conn.execute(
                # As <booking> shows an order: its line's part (none for several), its units.
                "SELECT booking_id, CASE WHEN COUNT(*) = 1 THEN MIN(part_id) END, SUM(quantity) "
                "FROM orders_bookingline GROUP BY booking_id"
            )
        }
    stock = []
    for part in SOAK_PARTS:
        have, ordered = rows.get(part["name"], (None, 0))
        if have is None or have < 0 or have + ordered != part["availableQuantity"]:
            stock.append(
                f"{part['name']}: stock {have} + ordered {ordered} != {part['availableQuantity']}"
            )
    orders = [
        f"order {pk} was answered 201 but is missing" for pk in open_orders.keys() - stored.keys()
    ]
    orders += [
        f"order {pk} exists but no shopper was told" for pk in stored.keys() - open_orders.keys()
    ]
    orders += [
        f"order {pk} is {stored[pk]}, placed as {open_orders[pk]}"
        for pk in stored.keys() & open_orders.keys()
        if stored[pk] != open_orders[pk]
    ]
    return stock, orders


MOVES_QUERY = """
    SELECT m.part_id, m.order_id, m.change, m.stock_after, m.by_id, m.created_at,
           p.minimum_order_quantity, h.expires_at
    FROM catalog_stockmovement m
    JOIN catalog_part p ON p.id = m.part_id
    LEFT JOIN (SELECT id, MAX(expires_at) AS expires_at FROM orders_historicalbooking
               GROUP BY id) h ON h.id = m.order_id
    WHERE m.order_id IS NOT NULL
    ORDER BY m.part_id, m.id
"""
# Every order ever placed (deleted ones too: django-simple-history kept them), in order, once
# per part it held: the parts from the stock it took (an order of several lines has no single
# part, and a deleted order's lines are gone; its stock movements stay).
ORDERS_QUERY = """
    SELECT h.id, h.user_id, m.part_id, h.created_at, h.expires_at
    FROM (SELECT id, MIN(user_id) AS user_id, MIN(created_at) AS created_at,
                 MAX(expires_at) AS expires_at
          FROM orders_historicalbooking GROUP BY id) h
    JOIN (SELECT DISTINCT order_id, part_id FROM catalog_stockmovement
          WHERE order_id IS NOT NULL AND change < 0) m ON m.order_id = h.id
    ORDER BY h.created_at, h.id, m.part_id
"""


def held_past_share(rows, share: Decimal) -> list[str]:
    """Each order placed, replayed in its part's lock order (movement ids): the units its
    account held right after it against that account's share (the shelf plus what it holds;
    taking units moves them from one to the other, so the sum is the same as before).

    An order counts as held from its movement until its release's, unless its hold had
    lapsed by then (the shop counts lapsed holds out before their units go back). That
    can only count fewer units than the shop did, never more, so a finding is a real one.
    """
    problems, holds = [], {}  # holds: order id -> (part, account, units, expires at)
    for part, order, change, after, account, at, minimum, expires in rows:
        if change > 0:  # the order's units went back (deleted or lapsed)
            holds.pop(order, None)
            continue
        if account is None:  # a payment that took an expired order's units again
            continue
        holds[order] = (part, account, -change, expires)
        held = sum(
            units
            for p, a, units, until in holds.values()
            if (p, a) == (part, account) and (until is None or until > at)
        )
        limit = max(minimum, math.floor(share * (after + held)))
        if held > limit:
            problems.append(f"part {part}, order {order}: account {account} held {held} > {limit}")
    return problems


def renewed_holds(rows) -> list[str]:
    """Orders that expire later than a hold of the same part that the same account placed
    earlier and that was still running when they were placed: a renewed hold."""
    problems, running = [], {}  # (account, part) -> the deadline of its hold
    for order, account, part, created, expires in rows:
        earlier = running.get((account, part))
        if earlier is not None and earlier > created and expires > earlier:
            problems.append(f"order {order} expires {expires}, its account's hold {earlier}")
        if earlier is None or earlier <= created:
            running[(account, part)] = expires
    return problems


def audit_fair_holds(database_url: str, share: Decimal) -> tuple[list, list, int]:
    """(orders past the share, renewed holds, orders audited) found in the database."""
    with psycopg.connect(database_url) as conn:
        moves = conn.execute(MOVES_QUERY).fetchall()
        orders = conn.execute(ORDERS_QUERY).fetchall()
    return held_past_share(moves, share), renewed_holds(orders), len({row[0] for row in orders})


def run(
    users: int,
    seconds: int,
    rate: float,
    workers: int,
    csv_prefix: Path,
    database_url: str | None = None,
    hold_seconds: int = 1800,
) -> dict:
    if not (1 <= users <= MAX_USERS and 0 < seconds <= MAX_SECONDS):
        raise SystemExit(f"soak: 1 to {MAX_USERS} users, 1 to {MAX_SECONDS} seconds")
    name = f"shop_soak_{os.getpid()}"
    with (
        tempfile.TemporaryDirectory() as tmp,
        fresh_database(postgres_server(database_url), name) as url,
    ):
        # A short hold lets holds lapse during the run: they go back on the shelf as shoppers order.
        # Each shopper sends an address of its own as a proxy would (bench/locustfile.py).
        env = shop_env(
            url,
            **THROTTLES_OFF,
            ORDER_HOLD_SECONDS=str(hold_seconds),
            MAX_HELD_SHARE=HELD_SHARE,
            TRUSTED_PROXY_COUNT="1",
        )
        manage("migrate", "--noinput", env=env)
        # Pages name their static files through the manifest collectstatic writes (DEBUG off).
        manage("collectstatic", "--noinput", "-v", "0", env=env)
        parts_file = Path(tmp) / "parts.json"
        parts_file.write_text(json.dumps(SOAK_PARTS))
        manage("import_parts", str(parts_file), env=env)
        ledger_file = Path(tmp) / "ledger.json"
        with Gunicorn(env=env, log=Path(tmp) / "gunicorn.log", workers=workers) as server:
            run_locust(server.url, users, rate, seconds, ledger_file, csv_prefix)
        log = server.log_text()
        if "Traceback" in log:
            print(log[-5000:], file=sys.stderr)
        for line in log.splitlines():  # a 503's cause (core.middleware logs it in one line)
            if "Database unavailable" in line:
                print(line, file=sys.stderr)
        ledger = json.loads(ledger_file.read_text())
        stock, orders = reconcile(url, ledger["open_orders"])
        released = released_holds(url)
        past_share, renewed, audited = audit_fair_holds(url, Decimal(HELD_SHARE))
    statuses = ledger["statuses"]
    figures = {
        "users": users,
        "seconds": seconds,
        "hold_seconds": hold_seconds,
        "holds_released": released,
        **{
            key: ledger[key] for key in ("requests", "requests_per_s", "p50_ms", "p95_ms", "max_ms")
        },
        "statuses": dict(sorted(statuses.items())),
        "server_errors": sum(n for status, n in statuses.items() if int(status) >= 500),
        "failed_connections": statuses.get("0", 0),
        "orders_placed": ledger.get("placed", 0),
        "orders_cancelled": ledger.get("cancelled", 0),
        "orders_refused": ledger.get("refused", 0),
        "orders_refused_share": ledger.get("refused_share", 0),
        "orders_reordered": ledger.get("reordered", 0),
        "orders_checked_out": ledger.get("checked_out", 0),
        "orders_audited": audited,
        "held_past_share": past_share,
        "renewed_holds": renewed,
        "parts_checked": len(SOAK_PARTS),
        "stock_mismatches": stock,
        "order_mismatches": orders,
        "tracebacks": log.count("Traceback"),
    }
    clean = not (figures["server_errors"] or figures["failed_connections"] or figures["tracebacks"])
    exact = not (stock or orders or past_share or renewed)
    figures["verdict"] = "pass" if clean and exact else "fail"
    return figures


def report(f: dict) -> str:
    return "\n".join(
        [
            f"Soak run (locust): {f['users']} users for {f['seconds']} s",
            f"  requests            {f['requests']} ({f['requests_per_s']}/s)",
            f"  statuses            {', '.join(f'{k}: {v}' for k, v in f['statuses'].items())}",
            f"  5xx answers         {f['server_errors']}",
            f"  failed connections  {f['failed_connections']}",
            f"  orders              {f['orders_placed']} placed, {f['orders_cancelled']} cancelled, "
            f"{f['orders_refused']} refused (stock, the unpaid-order cap or the fair-hold share: "
            f"{f['orders_refused_share']}); {f['orders_reordered']} ordered again right after "
            f"a cancel; {f['orders_checked_out']} carts checked out",
            f"  holds               {f['hold_seconds']} s each; {f['holds_released']} lapsed and went back on the shelf",
            f"  latency             p50 {f['p50_ms']} ms, p95 {f['p95_ms']} ms, max {f['max_ms']} ms",
            f"  reconciliation      {'exact' if not f['stock_mismatches'] + f['order_mismatches'] else 'MISMATCH'}: "
            f"{f['parts_checked']} parts (stock + held = imported), orders as the shoppers were told",
            *(f"    {problem}" for problem in f["stock_mismatches"] + f["order_mismatches"]),
            f"  fair holds          {f['orders_audited']} orders audited: "
            f"{len(f['held_past_share'])} held past the share of {HELD_SHARE}, "
            f"{len(f['renewed_holds'])} renewed a running hold",
            *(f"    {problem}" for problem in f["held_past_share"] + f["renewed_holds"]),
            f"  server tracebacks   {f['tracebacks']}",
            f"  verdict             {f['verdict'].upper()}",
        ]
    )


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--users", type=int, default=50)
    parser.add_argument("--seconds", type=int, default=60)
    parser.add_argument("--rate", type=float, default=10, help="shoppers started a second")
    parser.add_argument("--workers", type=int, default=4, help="gunicorn workers")
    parser.add_argument("--database-url", help="a PostgreSQL URL on the server to use")
    parser.add_argument(
        "--hold-seconds", type=int, default=1800, help="ORDER_HOLD_SECONDS of the shop under load"
    )
    parser.add_argument("--csv", type=Path, default=OUT / "soak", help="locust's CSV prefix")
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args(argv)
    figures = run(
        args.users,
        args.seconds,
        args.rate,
        args.workers,
        args.csv,
        args.database_url,
        hold_seconds=args.hold_seconds,
    )
    print(report(figures))
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=2))
    return 0 if figures["verdict"] == "pass" else 1


if __name__ == "__main__":
    sys.exit(main())
