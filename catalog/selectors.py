"""Reads of the catalog."""

import re
from dataclasses import dataclass

from django.core.paginator import Paginator
from django.db.models import Count, F, QuerySet, Window

from core.versioned_cache import cached

from .models import Category, Part

CACHE = "catalog"  # made stale by every write: catalog.services and catalog.stock

PART_LIST_FIELDS = (
    "id",
    "name",
    "img",
    "description",
    "price",
    "minimum_order_quantity",
    "available_quantity",
    "category__slug",
    "category__name",
)
PARTS_PER_PAGE = 24


def _parts_newest_first() -> QuerySet[Part]:
    return (
        Part.objects.select_related("category")
        .only(*PART_LIST_FIELDS)
        .order_by("-created_at", "-id")
    )


def part_list(*, limit: int | None = None, offset: int = 0) -> QuerySet[Part]:
    """Parts, newest first; a slice when limit is given."""
    parts = _parts_newest_first()
    if limit is None:
        return parts[offset:]
    return parts[offset : offset + limit]


@dataclass(frozen=True)
class CatalogPage:
    """One page of the catalog as plain data, so it can be cached."""

    parts: list[Part]
    number: int
    num_pages: int
    page_range: list
    count: int = 0  # parts on every page together

    @property
    def has_previous(self) -> bool:
        return self.number > 1

    @property
    def has_next(self) -> bool:
        return self.number < self.num_pages

    @property
    def previous_page_number(self) -> int:
        return self.number - 1

    @property
    def next_page_number(self) -> int:
        return self.number + 1


def part_page(*, page: object = 1, per_page: int = PARTS_PER_PAGE) -> CatalogPage:
    """One page of part_list's order, from the cache until the catalog changes.

    `page` may be anything a query string holds: a value that is not a whole number gives
    the first page, and one out of range the nearest page (first or last).
    """
    count = cached(CACHE, "count", Part.objects.count)
    paginator = Paginator(range(count), per_page)  # pages of positions: no rows loaded
    number = _page_number(page, last=paginator.num_pages)

    def load() -> CatalogPage:
        start = (number - 1) * per_page
        return CatalogPage(
            parts=list(_parts_newest_first()[start : start + per_page]),
            number=number,
            num_pages=paginator.num_pages,
            page_range=list(paginator.get_elided_page_range(number, on_each_side=2, on_ends=1)),
            count=count,
        )

    return cached(CACHE, f"page:{per_page}:{number}", load)


def page_of(parts: QuerySet[Part], *, page: object = 1, per_page: int = PARTS_PER_PAGE):
    """One page of any list of parts (search results), in the same shape as part_page's.

    One query in the common case: the page's rows carry the count of every match (a window
    over the whole result). A page past the end, or no match at all, costs a count and, when
    there are matches, the last page's rows."""
    wanted = _page_number(page, last=10**6)
    parts = parts.annotate(matches=Window(Count("*")))
    rows = list(parts[(wanted - 1) * per_page : wanted * per_page])
    count = rows[0].matches if rows else parts.count()
    paginator = Paginator(range(count), per_page)  # pages of positions: no rows loaded
    number = min(wanted, paginator.num_pages)
    if number != wanted:
        rows = list(parts[(number - 1) * per_page : number * per_page])
    return CatalogPage(
        parts=rows,
        number=number,
        num_pages=paginator.num_pages,
        page_range=list(paginator.get_elided_page_range(number, on_each_side=2, on_ends=1)),
        count=count,
    )


def newest_parts(limit: int) -> list[Part]:
    """The newest `limit` parts (the home page's), from the cache until the catalog changes."""
    return cached(CACHE, f"newest:{limit}", lambda: list(part_list(limit=limit)))


def _page_number(value: object, *, last: int) -> int:
    """`value` as a page number from 1 to last. Compared as digits before int(), so a number
    too long for int() (Python refuses over 4300 digits) is still "beyond the end"."""
    match = re.fullmatch(r"\s*([+-]?)0*(\d+)\s*", str(value), flags=re.ASCII)
    if not match:
        return 1
    sign, digits = match.groups()
    if sign == "-":
        return 1
    if len(digits) > len(str(last)):
        return last
    return min(max(int(digits), 1), last)


def parts_low_on_stock() -> QuerySet[Part]:
    """Parts that can no longer be ordered: fewer units left than their minimum order."""
    return (
        Part.objects.select_related("category")
        .only(*PART_LIST_FIELDS)
        .filter(available_quantity__lt=F("minimum_order_quantity"))
        .order_by("available_quantity", "name")
    )


def category_list() -> list[Category]:
    """Every category by name, with `count` (its parts), from the cache until the catalog
    changes."""
    return cached(
        CACHE,
        "categories",
        lambda: list(Category.objects.annotate(count=Count("parts")).order_by("name")),
    )


def part_detail(pk: int) -> Part | None:
    """One part with its category (the part page), or None."""
    return Part.objects.select_related("category").filter(pk=pk).first()
