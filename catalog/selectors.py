"""Reads of the catalog."""

import re

from django.core.paginator import Page, Paginator
from django.db.models import QuerySet

from .models import Part

PART_LIST_FIELDS = (
    "id",
    "name",
    "img",
    "description",
    "price",
    "minimum_order_quantity",
    "available_quantity",
)
PARTS_PER_PAGE = 24


def _parts_newest_first() -> QuerySet[Part]:
    return Part.objects.only(*PART_LIST_FIELDS).order_by("-created_at", "-id")


def part_list(*, limit: int | None = None, offset: int = 0) -> QuerySet[Part]:
    """Parts, newest first; a slice when limit is given."""
    parts = _parts_newest_first()
    if limit is None:
        return parts[offset:]
    return parts[offset : offset + limit]


def part_page(*, page: object = 1, per_page: int = PARTS_PER_PAGE) -> Page:
    """One page of part_list's order. `page` may be anything a query string holds: a value
    that is not a whole number gives the first page, and one out of range the nearest page
    (first or last). Two queries (count and slice), whatever the catalog's size."""
    paginator = Paginator(_parts_newest_first(), per_page)
    return paginator.page(_page_number(page, last=paginator.num_pages))


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
