"""Facets of a search (GET /api/allparts/facets, the filters beside /allparts' grid): how many
of the parts a search finds are in each category, of each brand, in each price range and in
stock. Each facet counts the parts that every filter but its own leaves (so a choice shows
what it would list); `total` counts them with every filter (the grid's count).

One query: the parts the words and the bike leave (the search's own WHERE,
catalog.search.matching_rows_sql), counted per category, brand, price range, "in the asked
price range" and "in stock"; the facets are sums of those few groups. A query without words
(a category, a brand, the plain list) is kept under the catalog's versions (CATALOG, PARTS:
any change of a part, its stock included), like the catalog's other reads; nothing in it is
anyone's own.
"""

import hashlib
from collections import Counter
from dataclasses import replace
from decimal import Decimal
from typing import NamedTuple

from django.db import connection

from core.caching import versions

from . import selectors
from .search import PartQuery, matching_rows_sql

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
    groups = _groups(query)
    return {
        "categories": _categories(groups, query),
        "brands": _brands(groups, query),
        "price": _prices(groups, query),
        "inStock": sum(g.count for g in groups if _kept(g, query) and g.in_stock),
        "total": sum(g.count for g in groups if _kept(g, query) and _stocked(g, query)),
    }


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
    ranges = " ".join(
        f"WHEN m.f_price <= {top} THEN {n}" for n, (_, top) in enumerate(PRICE_RANGES[:-1])
    )
    in_price, price_params = _in_price(query)
    sql = (
        f"SELECT m.f_slug, m.f_category, m.f_brand, CASE {ranges} ELSE {len(PRICE_RANGES) - 1}"
        f" END, {in_price}, CASE WHEN m.f_stock >= m.f_minimum THEN 1 ELSE 0 END, COUNT(*)"
        f" FROM ({rows}) m GROUP BY 1, 2, 3, 4, 5, 6"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [*price_params, *params])  # in the order they are written
        found = cursor.fetchall()
    return [
        Group(slug, name, brand, bucket, bool(priced), bool(stocked), n)
        for slug, name, brand, bucket, priced, stocked, n in found
    ]


def _in_price(query: PartQuery) -> tuple[str, list]:
    """The column "within the asked price", as the search's filter compares (both ends in)."""
    conditions, params = [], []
    if query.min_price is not None:
        conditions.append("m.f_price >= %s")
        params.append(query.min_price)
    if query.max_price is not None:
        conditions.append("m.f_price <= %s")
        params.append(query.max_price)
    if not conditions:
        return "1", []
    return f"CASE WHEN {' AND '.join(conditions)} THEN 1 ELSE 0 END", params


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
