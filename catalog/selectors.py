"""Reads of the catalog."""

from django.core.paginator import Paginator
from django.db.models import Count, F, QuerySet

from core.paging import ListPage, page_number
from core.paging import page_of as _page_of
from core.versioned_cache import cached

from .models import Category, Part, StockMovement

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


def part_count(*, version: str | None = None) -> int:
    """How many parts there are, from the cache until the catalog changes (`version`: the
    catalog's, when the caller has just read it)."""
    return cached(CACHE, "count", Part.objects.count, version=version)


def part_page(*, page: object = 1, per_page: int = PARTS_PER_PAGE) -> ListPage:
    """One page of part_list's order, from the cache until the catalog changes.

    `page` may be anything a query string holds: a value that is not a whole number gives
    the first page, and one out of range the nearest page (first or last).
    """
    count = part_count()
    paginator = Paginator(range(count), per_page)  # pages of positions: no rows loaded
    number = page_number(page, last=paginator.num_pages)

    def load() -> ListPage:
        start = (number - 1) * per_page
        return ListPage(
            items=list(_parts_newest_first()[start : start + per_page]),
            number=number,
            num_pages=paginator.num_pages,
            page_range=list(paginator.get_elided_page_range(number, on_each_side=2, on_ends=1)),
            count=count,
            per_page=per_page,
        )

    return cached(CACHE, f"page:{per_page}:{number}", load)


def page_of(
    parts: QuerySet[Part],
    *,
    page: object = 1,
    per_page: int = PARTS_PER_PAGE,
    count_in_rows: bool = False,
    count=None,
):
    """One page of any list of parts (search results), in the same shape as part_page's."""
    return _page_of(parts, page=page, per_page=per_page, count=count, count_in_rows=count_in_rows)


def newest_parts(limit: int) -> list[Part]:
    """The newest `limit` parts (the home page's), from the cache until the catalog changes."""
    return cached(CACHE, f"newest:{limit}", lambda: list(part_list(limit=limit)))


def parts_low_on_stock() -> QuerySet[Part]:
    """Parts that can no longer be ordered: fewer units left than their minimum order."""
    return (
        Part.objects.select_related("category")
        .only(*PART_LIST_FIELDS)
        .filter(available_quantity__lt=F("minimum_order_quantity"))
        .order_by("available_quantity", "name")
    )


def low_stock_parts() -> list[Part]:
    """parts_low_on_stock, from the cache until the catalog changes (the owner's Overview)."""
    return cached(CACHE, "low-stock", lambda: list(parts_low_on_stock()))


def category_list(*, version: str | None = None) -> list[Category]:
    """Every category by name, with `count` (its parts), from the cache until the catalog
    changes (`version`: the catalog's, when the caller has just read it)."""
    return cached(
        CACHE,
        "categories",
        lambda: list(Category.objects.annotate(count=Count("parts")).order_by("name")),
        version=version,
    )


def part_detail(pk: int) -> Part | None:
    """One part with its category (the part page), or None."""
    return Part.objects.select_related("category").filter(pk=pk).first()


STOCK_HISTORY_LIMIT = 200


def stock_movements(*, part_id, limit: int = STOCK_HISTORY_LIMIT) -> QuerySet[StockMovement]:
    """A part's latest stock movements, newest first, with who made them."""
    return StockMovement.objects.filter(part_id=part_id).select_related("by")[:limit]


def part_to_order(*, part_id: int | None = None, name: str = "") -> Part | None:
    """The part an order names: the one with `part_id` when given, else the only part called
    exactly `name`; None when there is no such part (or several have that name)."""
    parts = Part.objects.defer("search_vector")
    if part_id is not None:
        return parts.filter(pk=part_id).first()
    matches = list(parts.filter(name=name)[:2]) if name else []
    return matches[0] if len(matches) == 1 else None
