"""GET /api/allparts/facets at 10,000 parts (issue 32: at most 5 SQL queries, p99 under
50 ms). Import after db.setup().

The catalog grown to 10,000 parts, each given one of 40 brands (the generated parts have
none) so the brands facet has as many groups as a real shop's. Every request asks a new
search (wrk.lua's `search`: another word and price each time), so the facets kept per query
never answer: each is counted by the database. Two connections, one per gunicorn worker:
the figure is a request's own time, not the time it queues behind 19 others.
"""

from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from bench.lib import data, load
from bench.lib.report import Row, Section

PATH = "/api/allparts/facets?inStock=true"  # wrk.lua adds &q=WORD&maxPrice=N
COUNTED = "/api/allparts/facets?q=brake&brand=Brand+07&priceMin=0&priceMax=24.99"
WORDS = ["brake", "chain", "filter", "tyre", "battery", "lever", "mirror", "part", "bench"]
BRANDS = 40
MAX_QUERIES, P99_MS, CONNECTIONS = 5, 50, 2


def _brands() -> None:
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE catalog_part SET brand = 'Brand ' || lpad((id %% %s)::text, 2, '0')"
            " WHERE brand = ''",
            [BRANDS],
        )
    cache.clear()  # written in SQL: no service bumped a version (the benchmark's own Redis)


def _queries() -> int:
    client = Client(SERVER_NAME="localhost")
    client.get(COUNTED)
    cache.clear()
    with CaptureQueriesContext(connection) as queries:
        assert client.get(COUNTED).status_code == 200
    return len(queries)


def measure(base_url: str, *, parts: int, seconds: int, rounds: int) -> Section:
    data.grow_catalog(parts)
    _brands()
    queries = _queries()
    url = base_url + PATH
    load.wrk(url, seconds=seconds, connections=CONNECTIONS, search=WORDS)  # warm
    runs = {"facets": [load.wrk(url, seconds=seconds, connections=CONNECTIONS, search=WORDS)
                       for _ in range(rounds)]}  # fmt: skip
    p99 = max(run.p99_ms for run in runs["facets"])
    errors = sum(run.errors for run in runs["facets"])
    row = Row(
        f"`GET {PATH}&q=…` (a new search each request), {parts:,} parts, {BRANDS} brands: "
        "SQL queries, p99",
        f"{queries} queries, p99 {p99:.1f} ms",
        f"≤ {MAX_QUERIES} queries, p99 < {P99_MS} ms",
        queries <= MAX_QUERIES and p99 < P99_MS and errors == 0,
    )
    details = [
        "## Facets",
        "",
        f"{parts:,} parts, {BRANDS} brands. Queries counted on `{COUNTED}` with nothing "
        f"cached; latency over {CONNECTIONS} connections (one per worker), {rounds} runs of "
        f"{seconds} s, each request another search (no cache answers).",
        "",
        *load.runs_table(runs),
    ]
    return Section([row], details)
