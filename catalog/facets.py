"""Facets of a search (GET /api/allparts/facets, the filters beside /allparts' grid): how many
of the parts a search finds are in each category, of each brand, in each price range and in
stock. Each facet counts the parts that every filter but its own leaves (so a choice shows
what it would list); `total` counts them with every filter (the grid's count).

One query: the parts the words and the bike leave (the search's own WHERE,
catalog.search.matching_rows_sql), counted per category, brand, price range, "in the asked
price range" and "in stock"; the facets are sums of those few groups. The search page reads
a search's rows and these groups together (FacetedSearch: one statement on PostgreSQL, so
the words are matched once for both). A query without words
(a category, a brand, the plain list) is kept under the catalog's versions (CATALOG, PARTS:
any change of a part, its stock included), like the catalog's other reads; nothing in it is
anyone's own.
"""

import hashlib
import json
from collections import Counter
from dataclasses import replace
from decimal import Decimal
from typing import NamedTuple

from django.db import connection

from core.caching import versions
from core.paging import Rows

from . import selectors
from .search import PartQuery, matching_rows_sql, page_and_summary, part_search

# The price ranges, in dollars, both ends included (prices have cents: no part is in two);
# the last has no top (None). Their counts add up to the parts the other filters leave.
PRICE_RANGES: tuple[tuple[Decimal, Decimal | None], ...] = (
    (Decimal("0"), Decimal("24.99")),
    (Decimal("25"), Decimal("49.99")),
    (Decimal("50"), Decimal("99.99")),
    (Decimal("100"), Decimal("249.99")),
    (Decimal("250"), None),
)
_COLUMNS = {
    "f_slug": "category__slug",
    "f_category": "category__name",
    "f_brand": "brand",
    "f_price": "price",
    "f_stock": "available_quantity",
    "f_minimum": "minimum_order_quantity",
}


class Group(NamedTuple):
    """Parts alike in every way a facet counts them."""

    slug: str | None
    category: str | None
    brand: str
    price_range: int  # an index of PRICE_RANGES
    in_price: bool  # within the price the query asks (always, when it asks none)
    in_stock: bool
    count: int


def part_facets(query: PartQuery, *, version: str | None = None) -> dict:
    """`{"categories", "brands", "price", "inStock", "total"}` of the parts `query` finds,
    kept until a part or the catalog changes (`version`: CATALOG's and PARTS', when the caller
    has just read them). A search's words are read now: riders' words seldom repeat with the
    same filters, and a miss (two lookups and two copies kept) costs more than the query."""
    if query.q:
        return facets_of(query)
    return versions.get_or_set(
        _key(query),
        lambda: facets_of(query),
        names=[selectors.CATALOG, selectors.PARTS],
        version=version,
    )


def facets_of(query: PartQuery) -> dict:
    """part_facets, read now."""
    return _facets(_groups(query), query)


def _facets(groups: list[Group], query: PartQuery) -> dict:
    return {
        "categories": _categories(groups, query),
        "brands": _brands(groups, query),
        "price": _prices(groups, query),
        "inStock": sum(g.count for g in groups if _kept(g, query) and g.in_stock),
        "total": sum(g.count for g in groups if _kept(g, query) and _stocked(g, query)),
    }


class FacetedSearch(Rows):
    """A search with words: its parts (part_search's, in its order) and their `facets`
    (part_facets'), read together: on PostgreSQL in one statement, the words matched once
    (catalog.search.page_and_summary); elsewhere one after the other."""

    def __init__(self, query: PartQuery):
        self.query = query
        self.facets: dict | None = None

    def read(self, start: int, stop: int | None, *, with_total: bool = False):
        if self.facets is None and stop is not None and connection.vendor == "postgresql":
            grouped, params = _grouped('"matches" m', self.query)
            summary = f"SELECT json_agg(g)::text FROM ({grouped}) g", params
            parts, groups = page_and_summary(
                self.query, columns=_COLUMNS, summary=summary, start=start, stop=stop
            )
            self.facets = _facets([Group(**g) for g in json.loads(groups or "[]")], self.query)
        else:  # the counts first; the rows when there are any (a page past the end: again)
            total = self.count()
            parts = list(part_search(self.query)[start:stop]) if total else []
        return parts, (self.facets["total"] if with_total else None)

    def count(self) -> int:
        if self.facets is None:
            self.facets = part_facets(self.query)
        return self.facets["total"]


def _key(query: PartQuery) -> str:
    """The cache key of a query's facets: every filter, whichever there are (not its order)."""
    asked = replace(query, sort="", brands=tuple(sorted(query.brands)))
    return "catalog:facets:" + hashlib.blake2b(repr(asked).encode(), digest_size=16).hexdigest()


def _groups(query: PartQuery) -> list[Group]:
    """The parts the words and the bike leave, counted per Group (one query)."""
    unfiltered = replace(
        query, category="", brands=(), min_price=None, max_price=None, in_stock=False, sort=""
    )
    rows, params = matching_rows_sql(unfiltered, _COLUMNS)
    sql, group_params = _grouped(f"({rows}) m", query)
    with connection.cursor() as cursor:
        cursor.execute(sql, [*group_params, *params])  # in the order they are written
        found = cursor.fetchall()
    return [  # SQLite's comparisons are 0 or 1
        Group(slug, name, brand, bucket, bool(priced), bool(stocked), n)
        for slug, name, brand, bucket, priced, stocked, n in found
    ]


def _grouped(source: str, query: PartQuery) -> tuple[str, list]:
    """The parts of `source` (a FROM item "m" with _COLUMNS) counted per Group, a column each
    named as Group's fields, and its parameters."""
    ranges = " ".join(
        f"WHEN m.f_price <= {top} THEN {n}" for n, (_, top) in enumerate(PRICE_RANGES[:-1])
    )
    in_price, params = _in_price(query)
    sql = (
        f"SELECT m.f_slug AS slug, m.f_category AS category, m.f_brand AS brand,"
        f" CASE {ranges} ELSE {len(PRICE_RANGES) - 1} END AS price_range,"
        f" {in_price} AS in_price, m.f_stock >= m.f_minimum AS in_stock, COUNT(*) AS count"
        f" FROM {source} GROUP BY 1, 2, 3, 4, 5, 6"
    )
    return sql, params


def _in_price(query: PartQuery) -> tuple[str, list]:
    """The condition "within the asked price", as the search's filter compares (both ends in)."""
    conditions, params = [], []
    if query.min_price is not None:
        conditions.append("m.f_price >= %s")
        params.append(query.min_price)
    if query.max_price is not None:
        conditions.append("m.f_price <= %s")
        params.append(query.max_price)
    if not conditions:
        return "TRUE", []
    return f"({' AND '.join(conditions)})", params


def _in_category(group: Group, query: PartQuery) -> bool:
    return not query.category or group.slug == query.category


def _of_brand(group: Group, query: PartQuery) -> bool:
    return not query.brands or group.brand in query.brands


def _stocked(group: Group, query: PartQuery) -> bool:
    return not query.in_stock or group.in_stock


def _kept(group: Group, query: PartQuery) -> bool:
    """Left by the category, brand and price filters (not "in stock only")."""
    return _in_category(group, query) and _of_brand(group, query) and group.in_price


def _categories(groups: list[Group], query: PartQuery) -> list[dict]:
    counts: Counter = Counter()
    for g in groups:
        if g.slug is not None and _of_brand(g, query) and g.in_price and _stocked(g, query):
            counts[g.slug, g.category] += g.count
    return [
        {"slug": slug, "name": name, "count": n}
        for (slug, name), n in sorted(counts.items(), key=lambda item: item[0][1])
    ]


def _brands(groups: list[Group], query: PartQuery) -> list[dict]:
    """By count, most first, then by name; parts without a brand are left out."""
    counts: Counter = Counter()
    for g in groups:
        if g.brand and _in_category(g, query) and g.in_price and _stocked(g, query):
            counts[g.brand] += g.count
    ordered = sorted(counts.items(), key=lambda item: (-item[1], item[0].lower(), item[0]))
    return [{"name": name, "count": n} for name, n in ordered]


def _prices(groups: list[Group], query: PartQuery) -> list[dict]:
    """Every range, in order, with its count (0 too)."""
    counts = [0] * len(PRICE_RANGES)
    for g in groups:
        if _in_category(g, query) and _of_brand(g, query) and _stocked(g, query):
            counts[g.price_range] += g.count
    return [
        {"min": low, "max": top, "count": n}
        for (low, top), n in zip(PRICE_RANGES, counts, strict=True)
    ]
