"""What `make bench` runs against and what it must reach: the servers' environments, the paths
it asks for and each row's target (bench/bench.py runs them)."""

import os
from urllib.parse import urlsplit

from scripts.servers import ROOT, with_path

OUT = ROOT / "bench" / "out"
RESULTS = ROOT / "bench" / "results.md"

SMALL, LARGE = 100, 10_000
ORDERS, SHOPPERS = 20, 20

DATABASE_URL = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/shop_bench")
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/9")
BARE_DATABASE_URL = with_path(DATABASE_URL, urlsplit(DATABASE_URL).path + "_bare")
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
    "MAX_HELD_SHARE": "1",  # ... and the race for the last units: each may hold any of them
    "STRIPE_SECRET_KEY": "",
    "STRIPE_PUBLISHABLE_KEY": "",
}

BARE_ENV = {
    **{k: v for k, v in ENV.items() if k not in ("DATABASE_URL", "REDIS_URL")},
    "DJANGO_SETTINGS_MODULE": "bench.bare.settings",
    "BARE_DATABASE_URL": BARE_DATABASE_URL,
    "SHOP_DATABASE_URL": DATABASE_URL,  # the bare search view reads the shop's parts
}

HOME, ALLPARTS, API, API_PAGE, MYORDER = (
    "/",
    "/allparts",
    "/api/allparts",
    "/api/allparts?limit=24",
    "/dashboard/myorder",
)
PART, ORDER = "/parts/{part}", "/dashboard/orders/{order}"
# Searches: each request another query (wrk.lua), so no cache can answer for the shop.
# A CSRF cookie as Django makes them (32 letters and digits).
BROWSER_CSRF = "benchCsrfCookie0123456789abcdefX"
SEARCH, API_SEARCH = "/allparts?q=…", "/api/allparts?limit=24&inStock=true&q=…"
SEARCH_WORDS = ["brake", "chain", "filter", "tyre", "battery", "lever", "mirror", "part"]
# The search page with typo tolerance on: each word with a slip (swapped, missing, added or
# changed letters), against the bare search view asking the words as written.
SEARCH_TYPOS = "/allparts?q=… (a slip in each word)"
TYPO_WORDS = ["brkae", "chian", "filtre", "tyers", "batery", "leverr", "mirorr", "sprokcet"]
# (what, path, share of the shop's bare view's requests/s).
THROUGHPUT = [
    (f"anonymous `{HOME}`", HOME, 0.6),
    (f"anonymous `{ALLPARTS}` ({SMALL} parts)", ALLPARTS, 0.6),
    (f"`GET {API}` ({SMALL} parts)", API, 0.5),
    (f"signed-in `{MYORDER}` with {ORDERS} orders", MYORDER, 0.3),
]
# (what, path, share of the bare project's requests/s).
AGAINST_PROJECT = [
    (f"anonymous `{HOME}`", HOME, 0.75),
    (f"anonymous `{ALLPARTS}` ({SMALL} parts)", ALLPARTS, 0.75),
    (f"anonymous `{PART}`", PART, 0.75),
    (f"`GET {API}` ({SMALL} parts)", API, 0.60),
    (f"`GET {API_SEARCH}` (a new query each request)", API_SEARCH, 0.30),
    (f"signed-in `{MYORDER}` with {ORDERS} orders", MYORDER, 0.40),
    (f"signed-in order page `{ORDER}`", ORDER, 0.40),
]
# The search box's suggestions for visitors, the answer kept (one `q`): at 10,000 parts.
SUGGEST = "/api/search/suggest?q=brake+pads"
SUGGEST_SHARE, SUGGEST_P99_MS = 0.8, 30  # of the bare project's requests/s; ms
# The search page against a bare view running the same full-text query (bench/bare).
SEARCH_SHARE = 0.5
TYPOS_SHARE = 0.5  # the search page with a slip in each word, against the same bare view
BOOKING_SHARE = 0.35  # POST /api/booking against the bare project's lock-and-insert view
CHECKOUT_SHARE = 0.5  # POST /api/checkout of a cart of 3 lines against POST /api/booking
P99_FACTOR = 4
LARGE_TOLERANCE = 0.2
LIGHTHOUSE_PAGES = [HOME, ALLPARTS, PART, "/allparts?q=brake", "/login"]
LIGHTHOUSE_MIN = {"performance": 95, "accessibility": 95, "best-practices": 95, "seo": 90}
MEMORY_HALF, MEMORY_MB, MEMORY_FLAT_MB = 10_000, 150, 5
