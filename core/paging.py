"""Numbered pages of a list (?page=N on the shop's pages: All Parts, Manage parts, Manage
Orders), one way for every list. The API's limit/offset slices are core.api.page_response."""

import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from django.core.paginator import Paginator
from django.db.models import Count, QuerySet, Window


@dataclass(frozen=True)
class ListPage:
    """One page of a list as plain data (so it can be cached): templates/catalog/_pages.html
    draws its links."""

    items: list
    number: int
    num_pages: int
    page_range: list
    count: int = 0  # items on every page together
    per_page: int = 0

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

    @property
    def first_position(self) -> int:
        """The position (from 1) of this page's first item in the whole list."""
        return (self.number - 1) * self.per_page + 1


def page_number(value: object, *, last: int) -> int:
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


class Rows(ABC):
    """A list read from the database a slice at a time, as a QuerySet is, by a query written
    once as SQL (e.g. catalog.search's): `rows[start:stop]`, `count()`, and `read()` with the
    count riding on the rows."""

    @abstractmethod
    def read(
        self, start: int, stop: int | None, *, with_total: bool = False
    ) -> tuple[list, int | None]:
        """The rows from `start` to `stop` (None: to the end) and, `with_total`, how many
        there are in all (a window over the whole result); else (or when no row comes back)
        the total is None."""

    @abstractmethod
    def count(self) -> int: ...

    def __getitem__(self, bounds: slice) -> list:
        return self.read(bounds.start or 0, bounds.stop)[0]


def counted_slice(
    items: Sequence,
    start: int,
    stop: int | None,
    *,
    total: int | None = None,
    count_in_rows: bool = False,
) -> tuple[list, int]:
    """items[start:stop] and how many items there are in all. `total`, when the caller knows
    it (a cache), is taken as is. `count_in_rows` (for a queryset whose every row is read
    anyway, such as a ranked search) has the total ride on each row, a window over the whole
    result: one query instead of two (a slice past the end still costs a count). Elsewhere a
    separate count is cheaper: the window would number every row to return a few."""
    if total is None and count_in_rows and isinstance(items, Rows):
        rows, total = items.read(start, stop, with_total=True)
    elif total is None and count_in_rows and isinstance(items, QuerySet):
        rows = list(items.annotate(_total=Window(Count("*")))[start:stop])
        total = rows[0]._total if rows else None
    else:
        rows = list(items[start:stop])
    if total is None:
        total = items.count() if isinstance(items, QuerySet | Rows) else len(items)
    return rows, total


def page_of(
    items: Sequence,
    *,
    page: object = 1,
    per_page: int,
    count: Callable[[], int] | None = None,
    count_in_rows: bool = False,
) -> ListPage:
    """One page of `items` (a queryset or Rows: only that page's rows and their count are read).
    `page` may be anything a query string holds: not a whole number gives the first page, out
    of range the nearest one (then read again). `count`, when given, says how many items there
    are (e.g. from a cache); `count_in_rows` as for counted_slice."""
    total = count() if count else None
    # With the count known first, a page past the end is the last page at once (one read).
    last = max(1, -(-total // per_page)) if total is not None else 10**6
    wanted = page_number(page, last=last)
    start = (wanted - 1) * per_page
    stop = start + per_page
    rows, total = counted_slice(items, start, stop, total=total, count_in_rows=count_in_rows)
    paginator = Paginator(range(total), per_page)  # pages of positions: no rows loaded
    number = min(wanted, paginator.num_pages)
    if number != wanted:
        start = (number - 1) * per_page
        rows = list(items[start : start + per_page])
    return ListPage(
        items=rows,
        number=number,
        num_pages=paginator.num_pages,
        page_range=list(paginator.get_elided_page_range(number, on_each_side=2, on_ends=1)),
        count=paginator.count,
        per_page=per_page,
    )
