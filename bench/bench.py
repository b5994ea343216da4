"""`make bench`: the shop measured the way its users feel it, against the best this machine
can do, in one go. Writes bench/results.md and prints it; exit status 1 when a target fails.

1. A fresh PostgreSQL database (shop_bench), migrated; collectstatic (whitenoise serves the
   compressed, hashed files); a Redis database of its own as the cache.
2. The demo data, a catalog of 100 parts, the demo shopper with 20 orders, 20 shoppers with
   tokens; gunicorn (deploy/gunicorn.conf.py: DEBUG off, 2 sync workers) on loopback.
3. wrk, 20 connections, after a warm-up: the pages and API reads of the issue's table, each
   in rounds alternating with a bare Django view (shop/bench_views.py: the same middleware,
   a short text); SQL queries per route; page weight; Lighthouse on /, /allparts, /login.
4. The catalog grown to 10,000 parts: the catalog's first page and API page again; queries.
5. The owner's tools with 100 then 100,000 orders (bench/lib/owner.py); those orders removed.
6. POST /api/booking from 20 shoppers at once: orders/s, then a race for the last 60 units
   of a part; the stock reconciled after each; then orders/s with 10,000 lapsed holds in the
   table against none (bench/lib/holds.py).

    python -m bench.bench [--seconds 2] [--rounds 3] [--warmup 2] [--no-lighthouse]

BENCH_DATABASE_URL and BENCH_REDIS_URL choose another database (it is dropped and created)
and Redis database (it is emptied).
"""

import argparse
import os
import signal
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

from bench.lib import db, lighthouse, load
from bench.lib.reads import Reads, latency_rows, scale_rows, throughput_rows
from bench.lib.report import render
from scripts.servers import ROOT, Gunicorn

OUT = ROOT / "bench" / "out"
RESULTS = ROOT / "bench" / "results.md"

SMALL, LARGE = 100, 10_000
ORDERS, SHOPPERS = 20, 20

DATABASE_URL = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/shop_bench")
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/9")
ENV = {
    **os.environ,
    "DJANGO_SETTINGS_MODULE": "shop.settings",
    "DEBUG": "0",
    "SECRET_KEY": "bench-only-secret-key-not-for-production-0123456789abcdef",
    "SECURE_SSL_REDIRECT": "0",
    "ALLOWED_HOSTS": "127.0.0.1,localhost",
    "DATABASE_URL": DATABASE_URL,
    "REDIS_URL": REDIS_URL,
    "BENCH_BARE_VIEW": "1",
    "LOG_LEVEL": "WARNING",
    "THROTTLE_ORDERS": "1000000/minute",  # 20 shoppers ordering flat out
    "MAX_UNPAID_ORDERS": "1000000",  # ... without paying: the cap would refuse them after 5
    "STRIPE_SECRET_KEY": "",
    "STRIPE_PUBLISHABLE_KEY": "",
}

HOME, ALLPARTS, API, API_PAGE, MYORDER = (
    "/",
    "/allparts",
    "/api/allparts",
    "/api/allparts?limit=24",
    "/dashboard/myorder",
)
# (what, path, share of the bare view's requests/s it must reach)
THROUGHPUT = [
    (f"anonymous `{HOME}`", HOME, 0.6),
    (f"anonymous `{ALLPARTS}` ({SMALL} parts)", ALLPARTS, 0.6),
    (f"`GET {API}` ({SMALL} parts)", API, 0.5),
    (f"signed-in `{MYORDER}` with {ORDERS} orders", MYORDER, 0.3),
]
P99_FACTOR = 4
LARGE_TOLERANCE = 0.2
LIGHTHOUSE_PAGES = [HOME, ALLPARTS, "/login"]
LIGHTHOUSE_MIN = {"performance": 95, "accessibility": 95, "best-practices": 95, "seo": 90}


def log(message: str) -> None:
    print(f"[bench {time.strftime('%H:%M:%S')}] {message}", flush=True)


def machine() -> str:
    cpu = next(
        (
            line.split(":", 1)[1].strip()
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if line.startswith("model name")
        ),
        "CPU",
    )
    load_1, load_5, _ = os.getloadavg()
    return f"{os.cpu_count()} × {cpu}; load average {load_1:.1f} (1 min), {load_5:.1f} (5 min) at the start"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=2, help="seconds of each measured run")
    parser.add_argument("--rounds", type=int, default=3, help="measured runs per path")
    parser.add_argument("--warmup", type=int, default=2, help="seconds of warm-up per path")
    parser.add_argument("--no-lighthouse", action="store_true")
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # unwinds: gunicorn is stopped
    OUT.mkdir(exist_ok=True)
    started, host = time.monotonic(), machine()

    log(f"fresh database {DATABASE_URL}; migrate; collectstatic")
    db.create_database(DATABASE_URL)
    db.manage("migrate", "--noinput", env=ENV)
    db.manage("collectstatic", "--noinput", env=ENV)
    db.setup(ENV)
    from django.conf import settings

    from bench.lib import data, holds, orders, owner, pages  # they need Django set up

    db.redis_clear(REDIS_URL)
    shop = data.seed(parts=SMALL, orders=ORDERS, shoppers=SHOPPERS)
    log(f"seeded: {SMALL} parts, a shopper with {ORDERS} orders, {SHOPPERS} more shoppers")

    with Gunicorn(env=ENV, log=OUT / "gunicorn.log") as server:

        def headers(path: str) -> dict[str, str]:
            if path.startswith("/dashboard"):
                return {"Cookie": f"{settings.SESSION_COOKIE_NAME}={shop.shopper_session}"}
            return {}

        reads = Reads(
            server.url, seconds=args.seconds, warmup=args.warmup, headers=headers, log=log
        )
        small = reads.measure(
            f"{SMALL} parts", [HOME, ALLPARTS, API, API_PAGE, MYORDER], args.rounds
        )
        small_queries = pages.count_queries(shop)
        js, css = pages.weight_section(server.url, shop)
        lighthouse_rows = (
            lighthouse.section(server.url, LIGHTHOUSE_PAGES, out=OUT, minimum=LIGHTHOUSE_MIN)
            if not args.no_lighthouse
            else None
        )
        data.grow_catalog(LARGE)
        log(f"catalog grown to {LARGE:,} parts")
        large = reads.measure(f"{LARGE:,} parts", [ALLPARTS, API_PAGE], args.rounds)
        queries = pages.queries_section(small_queries, pages.count_queries(shop), (SMALL, LARGE))
        timing = {"seconds": args.seconds, "warmup": args.warmup, "rounds": args.rounds}
        owners = owner.section(server.url, admin_session=shop.admin_session, log=log, **timing)
        log("orders: 20 shoppers at once")
        ordering = orders.measure(server.url, tokens=shop.tokens, seconds=args.seconds)
        log(f"orders with {holds.LAPSED:,} lapsed holds in the table against none")
        lapsed = holds.measure(
            server.url, tokens=shop.tokens, seconds=args.seconds, rounds=args.rounds
        )

    sections = [
        throughput_rows(small, THROUGHPUT),
        latency_rows(small, [path for _, path, _ in THROUGHPUT], P99_FACTOR),
        scale_rows(small, large, sizes=(SMALL, LARGE), tolerance=LARGE_TOLERANCE),
        ordering,
        lapsed,
        owners,
        queries,
        js,
        css,
        *([lighthouse_rows] if lighthouse_rows else []),
    ]
    sections[0].details = reads.details()
    intro = [
        f"Last run: {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {time.monotonic() - started:.0f} s "
        "in all (`make bench`).",
        "",
        f"Machine: {host}. gunicorn (`deploy/gunicorn.conf.py`, {Gunicorn.WORKERS} sync "
        "workers, DEBUG off) on PostgreSQL, Redis as the cache; wrk on loopback, "
        f"{load.CONNECTIONS} connections, after a {args.warmup} s warm-up of each path. Each "
        f"path runs {args.rounds} × {args.seconds} s, alternating with the bare view "
        "(`/bench/bare`: the same middleware, a short text): bare, path, bare, path, bare; "
        "its figure sits beside the bare view's from those runs.",
    ]
    text = render(title="Benchmark results", intro=intro, sections=sections)
    RESULTS.write_text(text)
    print(text)
    return 0 if all(row.ok for section in sections for row in section.rows) else 1


if __name__ == "__main__":
    sys.exit(main())
