"""Where the time goes: each hot page profiled in this process (pyinstrument), through the
shop's whole middleware stack with Django's test client, on the benchmark's PostgreSQL
database and Redis cache with its production settings (DEBUG off), the demo data and
bench/lib/data.py's shoppers and orders. Writes bench/profiles/<page>.txt (the call tree) and
bench/profiles/times.md (time per request, in this process and in the bare project's).

    python -m bench.profile [--requests 400] [--only myorder search] [--reuse]

The time per request is the process's CPU time (PostgreSQL's and Redis's own CPU is not
counted) and the wall time, each the best of three batches, and the Python function calls
it makes (the same on a busy machine as on a quiet one, where the times are not); `--bare`
measures the bare project (bench/bare: its "ok" view and its search view) the same way, in a
process of its own.
"""

import argparse
import cProfile
import io
import itertools
import json
import os
import pstats
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from bench.lib.report import table

PROFILES = Path(__file__).resolve().parent / "profiles"
SEARCH_WORDS = ("brake", "chain", "filter", "tyre", "battery", "lever", "mirror", "part")


@dataclass(frozen=True)
class Page:
    name: str
    who: str  # "visitor" or "user" (the demo shopper, by session cookie or token)
    paths: Callable[[], Iterator[str]]  # the path of each request, in turn
    method: str = "GET"
    after_a_write: bool = False  # each request after a stock change of the page's first part


def one(path: str) -> Callable[[], Iterator[str]]:
    return lambda: itertools.repeat(path)


def searches(prefix: str) -> Callable[[], Iterator[str]]:
    """A different query each request (no cache can answer it): words in turn, a price
    bound that changes every time and matches every part."""
    return lambda: (
        f"{prefix}q={word}&maxPrice={1000 + n}"
        for n, word in enumerate(itertools.cycle(SEARCH_WORDS))
    )


def pages(part_id: int, order_id: int) -> list[Page]:
    return [
        Page("home", "visitor", one("/")),
        Page("allparts", "visitor", one("/allparts")),
        Page("allparts-written", "visitor", one("/allparts"), after_a_write=True),
        Page("part", "visitor", one(f"/parts/{part_id}")),
        Page("api-allparts", "visitor", one("/api/allparts")),
        Page("search", "visitor", searches("/allparts?")),
        Page("api-search", "visitor", searches("/api/allparts?limit=24&inStock=true&")),
        Page("myorder", "user", one("/dashboard/myorder")),
        Page("order", "user", one(f"/dashboard/orders/{order_id}")),
        Page("api-booking", "user", one("/api/booking"), method="POST"),
    ]


def timed(send: Callable[[], object], requests: int) -> tuple[float, float]:
    """(CPU ms, wall ms) per request, each the best of three batches."""
    cpu, wall = [], []
    for _ in range(3):
        c, w = time.process_time(), time.perf_counter()
        for _ in range(requests):
            send()
        cpu.append((time.process_time() - c) / requests * 1000)
        wall.append((time.perf_counter() - w) / requests * 1000)
    return min(cpu), min(wall)


def calls(send: Callable[[], object], requests: int) -> float:
    """Python function calls (C functions too) per request."""
    counted = 0

    def count(frame, event, arg):
        nonlocal counted
        counted += event in ("call", "c_call")

    sys.setprofile(count)
    try:
        for _ in range(requests):
            send()
    finally:
        sys.setprofile(None)
    return counted / requests


def sender(page: Page, shop) -> Callable[[], object]:
    """A function that sends the page's next request and checks its answer."""
    from django.conf import settings
    from django.test import Client

    from bench.lib.orders import order

    client = Client(SERVER_NAME="localhost")
    if page.who == "user" and page.method == "GET":
        client.cookies[settings.SESSION_COOKIE_NAME] = shop.shopper_session
    paths = page.paths()
    if page.method == "POST":
        body = json.dumps(order(shop.order_part_id))
        auth = {"HTTP_AUTHORIZATION": f"Bearer {shop.tokens[0]}"}

        def send():
            response = client.post(next(paths), body, "application/json", **auth)
            assert response.status_code == 201, response.content
    elif page.after_a_write:
        from catalog.models import Part
        from catalog.selectors import PARTS, part_version
        from core.caching import versions

        newest = Part.objects.order_by("-created_at", "-id").first()

        def send():
            versions.bump(part_version(newest.pk), PARTS)  # what a stock change bumps
            response = client.get(next(paths))
            assert response.status_code == 200, (page.name, response.status_code)
    else:

        def send():
            response = client.get(next(paths))
            assert response.status_code == 200, (page.name, response.status_code)

    return send


def profile(page: Page, send: Callable[[], object], requests: int) -> str:
    """The call tree (pyinstrument, library frames folded), then the functions that take the
    most time of their own and in all (cProfile, which slows every call down alike)."""
    from pyinstrument import Profiler

    profiler = Profiler(interval=0.0002)
    with profiler:
        for _ in range(requests):
            send()
    tree = profiler.output_text(unicode=True, color=False, show_all=False)
    functions = cprofile(send, requests)
    text = f"{tree}\n\n# cProfile, {requests} requests\n\n{functions}"
    (PROFILES / f"{page.name}.txt").write_text(text)
    return text


def cprofile(send: Callable[[], object], requests: int) -> str:
    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(requests):
        send()
    profiler.disable()
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out).strip_dirs()
    stats.sort_stats("tottime").print_stats(25)
    stats.sort_stats("cumulative").print_stats(45)
    return "\n".join(line.rstrip() for line in out.getvalue().splitlines() if line.strip())


def bare(requests: int) -> None:
    """In the bare project's process: its "ok" view's and its search view's time and calls
    per request, as JSON."""
    import django

    django.setup()
    from django.test import Client

    client = Client(SERVER_NAME="localhost")
    figures = {}
    for name, paths in [("ok", one("/")), ("search", searches("/search?"))]:
        path = paths()

        def send(path=path):
            client.get(next(path))

        for _ in range(50):
            send()
        cpu, wall = timed(send, requests)
        figures[name] = {"cpu": cpu, "wall": wall, "calls": calls(send, requests)}
    print(json.dumps(figures))


def row(name: str, figures: dict, bare_wall: float) -> list[str]:
    """A line of times.md: CPU and wall ms, the bare project's wall against it, calls."""
    cpu, wall, count = figures["cpu"], figures["wall"], figures["calls"]
    return [name, f"{cpu:.2f}", f"{wall:.2f}", f"{bare_wall / wall:.2f}", f"{count:,.0f}"]


def bare_times(requests: int) -> dict:
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "bench.bare.settings"}
    command = [sys.executable, "-m", "bench.profile", "--bare", "--requests", str(requests)]
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=400, help="requests per batch")
    parser.add_argument("--only", nargs="*", help="page names (default: all)")
    parser.add_argument(
        "--reuse", action="store_true", help="the database of the last run, as it is"
    )
    parser.add_argument("--bare", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.bare:
        bare(args.requests)
        return 0

    from bench.bench import DATABASE_URL, ENV, REDIS_URL, log
    from bench.lib import db

    PROFILES.mkdir(exist_ok=True)
    if not args.reuse:
        log(f"fresh database {DATABASE_URL}; migrate; collectstatic")
        db.create_database(DATABASE_URL)
        db.manage("migrate", "--noinput", env=ENV)
        db.manage("collectstatic", "--noinput", env=ENV)
    db.setup(ENV)
    from bench.lib import data

    db.redis_clear(REDIS_URL)
    shop = data.reseed() if args.reuse else data.seed(parts=100, orders=20, shoppers=1)
    shop.order_part_id = data.new_part(stock=10_000_000)

    rows = []
    bares = bare_times(args.requests)
    base = bares["ok"]
    for name, figures in [("bare project `/`", base), ("bare search view", bares["search"])]:
        rows.append(row(name, figures, base["wall"]))
    for page in pages(shop.part_id, shop.order_id):
        if args.only and page.name not in args.only:
            continue
        send = sender(page, shop)
        for _ in range(50):  # warm: per-process caches, the shared cache, connections
            send()
        cpu, wall = timed(send, args.requests)
        profile(page, send, args.requests)
        log(f"{page.name}: {cpu:.2f} ms CPU, {wall:.2f} ms wall per request")
        figures = {"cpu": cpu, "wall": wall, "calls": calls(send, 200)}
        rows.append(row(f"`{page.name}`", figures, base["wall"]))
    header = ["page", "CPU ms/request", "wall ms/request", "bare wall ÷ page wall", "calls/request"]
    lines = [
        "# Time per request, in process",
        "",
        f"`python -m bench.profile --requests {args.requests}`: Django's test client, best of "
        "3 batches; the shop with its production settings on PostgreSQL and Redis. Written "
        f"{time.strftime('%Y-%m-%d %H:%M')} UTC; load average {os.getloadavg()[0]:.1f}.",
        "",
        *table(header, rows),
    ]
    (PROFILES / ("times.md" if not args.only else "times-partial.md")).write_text(
        "\n".join(lines) + "\n"
    )
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
