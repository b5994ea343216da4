"""Per route: SQL queries (counted in this process with Django's test client, against the
benchmark's database and cache) and page weight (the pages as the server sends them).
Import after db.setup().

Queries are counted as in tests/test_query_counts.py: a first request fills the per-process
caches, then the shared cache is emptied and the second request is counted (nothing cached,
the session read from the database: the worst case a running server sees).
"""

import logging
import urllib.error
import urllib.request

from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from bench.lib.data import Shop
from bench.lib.report import Row, Section, kb, table
from bench.lib.routes import API_READS, PAGES
from bench.lib.weight import PageWeight, weigh

MAX_QUERIES = 5
KB = 1024
# An island page's budget is 80 KB, of which it keeps 15 KB free.
ISLAND_JS_MAX, CSS_MAX = (80 - 15) * KB, 20 * KB


def _names(shop: Shop) -> dict:
    return {"part": shop.part_id, "order": shop.order_id, "email": shop.shopper_email}


def _session(shop: Shop, who: str) -> str | None:
    return {"user": shop.shopper_session, "admin": shop.admin_session}.get(who)


def count_queries(shop: Shop) -> dict[str, int]:
    """{"who path": queries} for every page and main API read."""
    logging.getLogger("django.request").setLevel(logging.ERROR)  # no "Not Found" per 404
    counts = {}
    for who, path, status in PAGES + API_READS:
        client, url = Client(SERVER_NAME="localhost"), path.format(**_names(shop))
        if session := _session(shop, who):
            client.cookies[settings.SESSION_COOKIE_NAME] = session
        client.get(url)
        cache.clear()
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url)
        if response.status_code != status:
            raise RuntimeError(f"{who} GET {url}: {response.status_code}, not {status}")
        counts[f"{who} {path}"] = len(queries)
    return counts


def queries_section(small: dict[str, int], large: dict[str, int], sizes: tuple[int, int]):
    most = max(*small.values(), *large.values())
    worst = [route for route in large if max(small[route], large[route]) == most]
    changed = [f"`{route}`" for route in small if small[route] != large[route]]
    figure = f"at most {most} (`{worst[0]}`); " + (
        f"the same at {sizes[0]} and {sizes[1]:,} parts"
        if not changed
        else "changed with the catalog: " + ", ".join(changed)
    )
    row = Row(
        f"SQL queries per request ({len(small)} routes: every page, the main API reads)",
        figure,
        f"constant in the catalog size, ≤ {MAX_QUERIES}",
        not changed and most <= MAX_QUERIES,
    )
    details = [
        "## SQL queries per request",
        "",
        "Counted with Django's test client in the benchmark's process, against its database "
        "and cache, after a first request and with the cache emptied (the worst case: nothing "
        "cached, the session read from the database).",
        "",
        *table(
            ["who, path", f"{sizes[0]} parts", f"{sizes[1]:,} parts"],
            [[f"`{route}`", small[route], large[route]] for route in small],
        ),
    ]
    return Section([row], details)


def fetch(url: str, session: str | None) -> str:
    request = urllib.request.Request(url)
    if session:
        request.add_header("Cookie", f"{settings.SESSION_COOKIE_NAME}={session}")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.read().decode()
    except urllib.error.HTTPError as error:  # the 404 page
        return error.read().decode()


def weight_section(base_url: str, shop: Shop) -> tuple[Section, Section]:
    """(the JavaScript rows, the CSS row) from every page route as the server sends it."""
    weights: dict[str, tuple[bool, PageWeight]] = {}
    for who, path, _ in PAGES:
        html = fetch(base_url + path.format(**_names(shop)), _session(shop, who))
        weights[f"{who} {path}"] = ("data-island" in html, weigh(html))
    plain = {page: w for page, (island, w) in weights.items() if not island}
    islands = {page: w for page, (island, w) in weights.items() if island}
    react = max(w.react_gzip for w in plain.values())
    heaviest = max(islands, key=lambda page: islands[page].js_gzip)
    css = max(w.css_gzip for _, w in weights.values())
    js = Section(
        [
            Row(
                f"JavaScript per page, gzip: pages without an island ({len(plain)})",
                f"React {react} B; all JavaScript at most "
                f"{kb(max(w.js_gzip for w in plain.values()))}",
                "0 B of React",
                react == 0,
            ),
            Row(
                f"JavaScript per page, gzip: island pages ({len(islands)})",
                f"at most {kb(islands[heaviest].js_gzip)} (`{heaviest}`)",
                "≤ 65 KB (15 KB of 80 free)",
                islands[heaviest].js_gzip <= ISLAND_JS_MAX,
            ),
        ],
        [
            "## Page weight (gzip, KB = 1,024 B)",
            "",
            "Each page's module scripts and modulepreloads, followed through their static "
            "imports; React counted in the files that carry it.",
            "",
            *table(
                ["who, path", "island", "JavaScript", "of which React", "CSS"],
                [
                    [
                        f"`{page}`",
                        "yes" if island else "no",
                        kb(w.js_gzip),
                        kb(w.react_gzip),
                        kb(w.css_gzip),
                    ]
                    for page, (island, w) in weights.items()
                ],
            ),
        ],
    )
    return js, Section([Row("CSS per page, gzip", kb(css), "≤ 20 KB", css <= CSS_MAX)])
