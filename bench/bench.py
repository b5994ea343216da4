"""`make bench`: the shop measured the way its users feel it, against the best this machine
can do, in one go. Writes bench/results.md and prints it; exit status 1 when a target fails.

1. A fresh PostgreSQL database (shop_bench), migrated; collectstatic (whitenoise serves the
   compressed, hashed files); a Redis database of its own as the cache. A second database
   for the bare project (bench/bare), on the same server.
2. The demo data, a catalog of 100 parts, the demo shopper with 20 orders, 20 shoppers with
   tokens; gunicorn (deploy/gunicorn.conf.py: DEBUG off, 2 sync workers) on loopback, and
   the bare project (startproject's middleware, a view answering "ok") under its own gunicorn
   with the same configuration and worker count.
3. wrk, 20 connections, after a warm-up: the pages and API reads of the issues' tables, each
   in rounds alternating with both baselines: the bare project and the shop's bare view
   (bench/views.py: the shop's middleware, a short text); the search page against a
   bare view running the same full-text query (bench/bare: 24 names written), and with a
   slip in each word (typo tolerance) against the same bare view; /allparts
   while 10 orders a second are placed and deleted, against the same page quiet
   (bench/lib/writes.py); SQL queries per route; page weight; Lighthouse on /, /allparts, a
   part page, a search and /login.
4. POST /api/booking from 20 shoppers at once, alternating with the bare project's order
   view (it locks one row and inserts one): orders/s, then a race for the last 60 units of a
   part; the stock reconciled after each; a checkout of 3 lines against it (bench/lib/
   checkout.py); orders/s with 10,000 lapsed holds against none (bench/lib/holds.py).
5. Worker memory after 10,000 and 20,000 mixed requests.
6. The catalog grown to 10,000 parts: the catalog's first page and API page again; queries.
   Then GET /api/allparts/facets at that size, a new search each request (bench/lib/
   facets.py); then 5,000 vehicles and 200,000 fitment rows: /allparts for a bike against
   the same page without one, both past the page cache (bench/lib/bikes.py). The search box's suggestions
   for visitors (`--only suggest`: an answer kept), against the bare project, and their p99.
7. The owner's tools with 100 then 100,000 orders (bench/lib/owner.py); those orders removed.

    python -m bench.bench [--seconds 2] [--rounds 3] [--warmup 2] [--no-lighthouse]
                          [--only reads typos orders ...]

BENCH_DATABASE_URL and BENCH_REDIS_URL choose another database (it is dropped and created;
the bare project's is the same name + "_bare") and Redis database (it is emptied).
"""

import argparse
import signal
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime

from bench.lib import db, lighthouse, load
from bench.lib.reads import (
    PROJECT,
    SEARCH_VIEW,
    VIEW,
    Paired,
    Reads,
    Target,
    latency_rows,
    scale_rows,
    throughput_rows,
)
from bench.lib.report import Row, Section, machine, render
from bench.lib.targets import (
    AGAINST_PROJECT,
    ALLPARTS,
    API,
    API_PAGE,
    API_SEARCH,
    BARE_DATABASE_URL,
    BARE_ENV,
    BOOKING_SHARE,
    BROWSER_CSRF,
    DATABASE_URL,
    ENV,
    HOME,
    LARGE,
    LARGE_TOLERANCE,
    LIGHTHOUSE_MIN,
    LIGHTHOUSE_PAGES,
    MEMORY_FLAT_MB,
    MEMORY_HALF,
    MEMORY_MB,
    MYORDER,
    ORDER,
    ORDERS,
    OUT,
    P99_FACTOR,
    PART,
    REDIS_URL,
    RESULTS,
    SEARCH,
    SEARCH_SHARE,
    SEARCH_TYPOS,
    SEARCH_WORDS,
    SHOPPERS,
    SMALL,
    SUGGEST,
    SUGGEST_P99_MS,
    SUGGEST_SHARE,
    THROUGHPUT,
    TYPO_WORDS,
    TYPOS_SHARE,
)
from scripts.servers import Gunicorn


def log(message: str) -> None:
    print(f"[bench {time.strftime('%H:%M:%S')}] {message}", flush=True)


@dataclass
class Run:
    """What the steps share: the options, the seeded shop, both servers, the wrk runs."""

    args: argparse.Namespace
    shop: object  # bench.lib.data.Shop
    server: Gunicorn
    bare: Gunicorn
    reads: Reads
    small: dict[str, Paired] = field(default_factory=dict)
    small_queries: dict[str, int] = field(default_factory=dict)

    def path(self, template: str) -> str:
        return template.format(part=self.shop.part_id, order=self.shop.order_id)

    def headers(self, path: str) -> dict[str, str]:
        from django.conf import settings

        if path.startswith("/dashboard"):
            # What a browser sends once it has seen a page: the session and the CSRF cookie.
            session = f"{settings.SESSION_COOKIE_NAME}={self.shop.shopper_session}"
            return {"Cookie": f"{session}; {settings.CSRF_COOKIE_NAME}={BROWSER_CSRF}"}
        return {}

    def target(self, label: str) -> Target:
        """The wrk target of a path of the tables above (searches: a new query each time)."""
        if label in (SEARCH, API_SEARCH):
            url = self.server.url + label.removesuffix("&q=…").removesuffix("?q=…")
            return Target(label, url, search=SEARCH_WORDS)
        path = self.path(label)
        return Target(label, self.server.url + path, headers=self.headers(path))


# --- The steps, in order: each returns the sections it adds to the results ---------------


def small_catalog_reads(run: Run) -> list[Section]:
    paths = [HOME, ALLPARTS, PART, API, API_PAGE, SEARCH, API_SEARCH, MYORDER, ORDER]
    run.small = run.reads.measure(f"{SMALL} parts", [run.target(p) for p in paths], run.args.rounds)
    against_project = throughput_rows(run.small, AGAINST_PROJECT, baseline=PROJECT)
    against_project.details = run.reads.details
    return [
        against_project,
        latency_rows(run.small, paths, P99_FACTOR, baseline=PROJECT),
        throughput_rows(run.small, THROUGHPUT, baseline=VIEW),
    ]


def search_page(run: Run) -> list[Section]:
    """The search page against the bare search view (the same query, 24 names written), in
    rounds of their own."""
    bare = Target("bare search view", run.bare.url + "/search", search=SEARCH_WORDS)
    reads = Reads({SEARCH_VIEW: bare}, seconds=run.args.seconds, warmup=run.args.warmup, log=log)
    figures = reads.measure(f"{SMALL} parts", [run.target(SEARCH)], run.args.rounds)
    what = f"anonymous search `{SEARCH}` (a new query each request)"
    section = throughput_rows(figures, [(what, SEARCH, SEARCH_SHARE)], baseline=SEARCH_VIEW)
    section.details = lambda: ["## Search runs", *reads.details()[1:]]
    return [section]


def typo_search_page(run: Run) -> list[Section]:
    """The search page with typo tolerance on (a slip in each word: catalog/typos.py) against
    the bare search view asking the words as written, in rounds of their own."""
    bare = Target("bare search view", run.bare.url + "/search", search=SEARCH_WORDS)
    reads = Reads({SEARCH_VIEW: bare}, seconds=run.args.seconds, warmup=run.args.warmup, log=log)
    typos = Target(SEARCH_TYPOS, run.server.url + "/allparts", search=TYPO_WORDS)
    figures = reads.measure(f"{SMALL} parts", [typos], run.args.rounds)
    what = f"the search page with typo tolerance on `{SEARCH_TYPOS}` (a new query each request)"
    section = throughput_rows(figures, [(what, SEARCH_TYPOS, TYPOS_SHARE)], baseline=SEARCH_VIEW)
    section.details = lambda: ["## Search runs with a slip", *reads.details()[1:]]
    return [section]


def writes_meanwhile(run: Run) -> list[Section]:
    from bench.lib import writes

    log(f"{ALLPARTS} quiet against {writes.RATE} orders a second placed and deleted")
    return [
        writes.measure(
            run.server.url,
            path=ALLPARTS,
            token=run.shop.tokens[0],
            seconds=run.args.seconds,
            rounds=run.args.rounds,
        )
    ]


def small_catalog_pages(run: Run) -> list[Section]:
    from bench.lib import pages

    run.small_queries = pages.count_queries(run.shop)
    return list(pages.weight_section(run.server.url, run.shop))


def lighthouse_scores(run: Run) -> list[Section]:
    if run.args.no_lighthouse:
        return []
    paths = [run.path(path) for path in LIGHTHOUSE_PAGES]
    return [lighthouse.section(run.server.url, paths, out=OUT, minimum=LIGHTHOUSE_MIN)]


def large_catalog(run: Run) -> list[Section]:
    from bench.lib import data, pages

    data.grow_catalog(LARGE)
    log(f"catalog grown to {LARGE:,} parts")
    large = run.reads.measure(
        f"{LARGE:,} parts", [run.target(ALLPARTS), run.target(API_PAGE)], run.args.rounds
    )
    small_queries = run.small_queries or pages.count_queries(run.shop)
    queries = pages.queries_section(small_queries, pages.count_queries(run.shop), (SMALL, LARGE))
    sections = [queries]
    if run.small:
        sections.insert(
            0, scale_rows(run.small, large, sizes=(SMALL, LARGE), tolerance=LARGE_TOLERANCE)
        )
    return sections


def facets_at_scale(run: Run) -> list[Section]:
    from bench.lib import facets

    log(f"GET /api/allparts/facets: {LARGE:,} parts, a new search each request")
    return [
        facets.measure(
            run.server.url, parts=LARGE, seconds=run.args.seconds, rounds=run.args.rounds
        )
    ]


def suggestions(run: Run) -> list[Section]:
    """The search box's suggestions for visitors at 10,000 parts, the answer kept: against the
    bare project, and their p99."""
    from bench.lib import data

    data.grow_catalog(LARGE)
    log(f"GET {SUGGEST} for visitors, {LARGE:,} parts")
    figures = run.reads.measure(f"{LARGE:,} parts", [run.target(SUGGEST)], run.args.rounds)
    what = f"`GET {SUGGEST}` for visitors (kept), {LARGE:,} parts"
    section = throughput_rows(figures, [(what, SUGGEST, SUGGEST_SHARE)], baseline=PROJECT)
    got = figures[SUGGEST]
    section.rows.append(
        Row(
            f"p99 latency of `{SUGGEST}` at {load.CONNECTIONS} connections, {LARGE:,} parts",
            f"{got.p99:.1f} ms",
            f"< {SUGGEST_P99_MS} ms",
            got.p99 < SUGGEST_P99_MS and not got.errors,
        )
    )
    return [section]


def bike_pages(run: Run) -> list[Section]:
    from bench.lib import bikes

    log(f"/allparts for a bike against without one: {LARGE:,} parts, fitment rows added")
    return [
        bikes.measure(run.server.url, parts=LARGE, seconds=run.args.seconds, rounds=run.args.rounds)
    ]


def ordering(run: Run) -> list[Section]:
    from bench.lib import orders

    log(f"orders: {SHOPPERS} shoppers at once, alternating with the bare order view")
    return [
        orders.measure(
            run.server.url,
            bare_url=run.bare.url + "/order",
            tokens=run.shop.tokens,
            seconds=run.args.seconds,
            rounds=run.args.rounds,
            share=BOOKING_SHARE,
            p99_factor=P99_FACTOR,
        )
    ]


def checking_out(run: Run) -> list[Section]:
    from bench.lib import checkout

    log(f"checkout of {checkout.LINES} lines: {SHOPPERS} shoppers, against POST /api/booking")
    args, tokens = run.args, run.shop.tokens
    return [
        checkout.measure(run.server.url, tokens=tokens, seconds=args.seconds, rounds=args.rounds)
    ]


def lapsed_holds(run: Run) -> list[Section]:
    from bench.lib import holds

    log(f"orders with {holds.LAPSED:,} lapsed holds in the table against none")
    return [
        holds.measure(
            run.server.url, tokens=run.shop.tokens, seconds=run.args.seconds, rounds=run.args.rounds
        )
    ]


def owner_tools(run: Run) -> list[Section]:
    from bench.lib import owner

    return [
        owner.section(
            run.server.url,
            reads=run.reads,
            admin_session=run.shop.admin_session,
            rounds=run.args.rounds,
            log=log,
        )
    ]


def worker_memory(run: Run) -> list[Section]:
    from bench.lib import memory

    log(f"worker memory: {2 * MEMORY_HALF:,} mixed requests")
    return [
        memory.section(
            run.server,
            memory_mix(run),
            half=MEMORY_HALF,
            limit_mb=MEMORY_MB,
            flat_mb=MEMORY_FLAT_MB,
            clients=load.CONNECTIONS,
        )
    ]


def memory_mix(run: Run) -> list[tuple[str, dict]]:
    """Visitors' pages and reads over many parts and searches, and the shopper's pages."""
    from catalog.models import Part

    parts = list(Part.objects.order_by("id").values_list("id", flat=True)[:200])
    mix = []
    for n, part in enumerate(parts):
        word = SEARCH_WORDS[n % len(SEARCH_WORDS)]
        for path in (
            HOME,
            f"/parts/{part}",
            ALLPARTS,
            f"/allparts?page={1 + n % 5}",
            API,
            f"/api/allparts/{part}",
            f"/allparts?q={word}&maxPrice={100000 + n}",
            f"/api/allparts?limit=24&q={word}&maxPrice={100000 + n}",
            MYORDER,
            run.path(ORDER),
        ):
            mix.append((path, run.headers(path)))
    return mix


# Each step: (name for --only, what it does). Add a step by appending a line.
STEPS: list[tuple[str, Callable[[Run], list[Section]]]] = [
    ("reads", small_catalog_reads),
    ("search", search_page),
    ("typos", typo_search_page),
    ("writes", writes_meanwhile),
    ("pages", small_catalog_pages),
    ("lighthouse", lighthouse_scores),
    ("orders", ordering),
    ("checkout", checking_out),
    ("holds", lapsed_holds),
    ("memory", worker_memory),
    ("large", large_catalog),
    ("facets", facets_at_scale),  # 10,000 parts (grown here too), brands given
    ("suggest", suggestions),  # 10,000 parts (grown here when "large" did not run)
    ("bikes", bike_pages),  # grows the catalog to 10,000 parts too, then adds fitment
    ("owner", owner_tools),  # after "large": 10,000 parts, then 100 and 100,000 orders
]


def prepare() -> object:
    """Both databases, static files, the cache emptied, the shop seeded; its Shop."""
    log(f"fresh databases {DATABASE_URL} and {BARE_DATABASE_URL}; migrate; collectstatic")
    db.create_database(DATABASE_URL)
    db.create_database(BARE_DATABASE_URL)
    db.manage("migrate", "--noinput", env=ENV)
    db.manage("migrate", "--noinput", env=BARE_ENV)
    db.manage("collectstatic", "--noinput", env=ENV)
    db.setup(ENV)
    from bench.lib import data  # it needs Django set up

    db.redis_clear(REDIS_URL)
    shop = data.seed(parts=SMALL, orders=ORDERS, shoppers=SHOPPERS)
    log(f"seeded: {SMALL} parts, a shopper with {ORDERS} orders, {SHOPPERS} more shoppers")
    return shop


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=2, help="seconds of each measured run")
    parser.add_argument("--rounds", type=int, default=3, help="measured runs per path")
    parser.add_argument("--warmup", type=int, default=2, help="seconds of warm-up per path")
    parser.add_argument("--no-lighthouse", action="store_true")
    parser.add_argument("--only", nargs="+", choices=[name for name, _ in STEPS])
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # unwinds: gunicorn is stopped
    OUT.mkdir(exist_ok=True)
    started, host = time.monotonic(), machine()
    shop = prepare()

    sections: list[Section] = []
    with (
        Gunicorn(env=ENV, log=OUT / "gunicorn.log") as server,
        Gunicorn(
            env=BARE_ENV, log=OUT / "gunicorn-bare.log", app="bench.bare.wsgi", health="/"
        ) as bare,
    ):
        baselines = {
            PROJECT: Target("bare project /", bare.url + "/"),
            VIEW: Target("/bench/bare", server.url + "/bench/bare"),
        }
        reads = Reads(baselines, seconds=args.seconds, warmup=args.warmup, log=log)
        run = Run(args=args, shop=shop, server=server, bare=bare, reads=reads)
        for name, step in STEPS:
            if not args.only or name in args.only:
                sections += step(run)

    for section in sections:  # the load runs' table, now that every run is in it
        if callable(section.details):
            section.details = section.details()
    intro = [
        f"Last run: {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {time.monotonic() - started:.0f} s "
        "in all (`make bench`" + (f", only {', '.join(args.only)}" if args.only else "") + ").",
        "",
        f"Machine: {host}. gunicorn (`deploy/gunicorn.conf.py`, {Gunicorn.WORKERS} sync "
        "workers, DEBUG off) on PostgreSQL, Redis as the cache; wrk on loopback, "
        f"{load.CONNECTIONS} connections, after a {args.warmup} s warm-up of each path. Each "
        f"path runs {args.rounds} × {args.seconds} s, alternating with two baselines: the bare "
        "project (`bench/bare`: `startproject`'s default middleware, one view answering "
        '"ok", its own gunicorn with the same configuration and worker count) and the '
        "shop's bare view (`/bench/bare`: the shop's middleware, a short text): baselines, "
        "path, baselines, path, …, baselines; each figure sits beside its baseline's from "
        "those runs. Searches ask a new query on every request (wrk.lua), so no cache answers.",
    ]
    text = render(title="Benchmark results", intro=intro, sections=sections)
    RESULTS.write_text(text)
    print(text)
    return 0 if all(row.ok for section in sections for row in section.rows) else 1


if __name__ == "__main__":
    sys.exit(main())
