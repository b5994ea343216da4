"""Reads of the catalog."""

import functools
import json
from collections.abc import Collection
from datetime import UTC, date, datetime

from django.core.paginator import Paginator
from django.db import connection, transaction
from django.db.models import (
    Case,
    Count,
    F,
    IntegerField,
    Q,
    QuerySet,
    Sum,
    TextField,
    Value,
    When,
    Window,
)
from django.db.models.expressions import RawSQL
from django.db.transaction import TransactionManagementError
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from core.caching import versions
from core.caching.statements import Statement, stand_in_numbers
from core.paging import ListPage, page_number
from core.paging import page_of as _page_of

from .models import Category, Fitment, Part, PartNumber, StockMovement, Vehicle

# What is kept in the cache, and the writes that make it stale (catalog.services, catalog.stock
# bump these versions; docs/features.md, "Caching"):
# - CATALOG: which parts there are, in which categories, and what sorts them: bumped when a part
#   is added or deleted, renamed, re-priced or re-categorised, and by every change of a category.
#   The part count and the categories with their counts are kept under it.
# - PARTS: bumped by every change of any part, its stock included. The pages that list parts
#   (/, /allparts, GET /api/allparts) are kept whole under CATALOG and PARTS; after a change
#   they are put together again from the cards and JSON kept per part (by what each shows).
# - PART: one part's, bumped by every change of that part, and CATEGORIES, by every change of
#   a category: a part's own page (which names its category) is kept under both.
# A stock change or a part's edit therefore bumps that PART and PARTS (and CATALOG for a new
# name, price or category): its page, and the lists re-made from kept cards; no other part's
# page or card.
# - VEHICLES: which vehicles there are (the makes list, the picker's lists): bumped when one
#   is added. FITMENT: which part fits which vehicle, bumped by every change of fitment (with
#   the parts' own PART and PARTS versions, as their pages and lists show it).
CATALOG = "catalog"
PARTS = "parts"
PART = "part:{pk}"
CATEGORIES = "categories"
VEHICLES = "vehicles"
FITMENT = "fitment"


def part_version(pk: int) -> str:
    """The name of one part's version."""
    return PART.format(pk=pk)


PART_LIST_FIELDS = (
    "id",
    "name",
    "img",
    "description",
    "price",
    "minimum_order_quantity",
    "available_quantity",
    "part_number",
    "universal",
    "weight",
    "brand",
    "rating_average",
    "rating_count",
    "category__slug",
    "category__name",
)
# What a card shows (no category): the rating's stars and count too.
CARD_FIELDS = (*PART_LIST_FIELDS[:9], "rating_average", "rating_count")
PARTS_PER_PAGE = 24


# A part's other numbers as one column of its row (JSON text: [[id, number, kind, brand], …]),
# so a list of parts reads them without a query of its own.
_NUMBERS_COLUMN = {
    "postgresql": (
        "(SELECT COALESCE(json_agg(json_build_array(n.id, n.number, n.kind, n.brand)), '[]')"
        ' ::text FROM "catalog_partnumber" n WHERE n."part_id" = "catalog_part"."id")'
    ),
    "sqlite": (
        "(SELECT COALESCE(json_group_array(json_array(n.id, n.number, n.kind, n.brand)), '[]')"
        ' FROM "catalog_partnumber" n WHERE n."part_id" = "catalog_part"."id")'
    ),
}
NUMBERS_COLUMN = "other_numbers_json"


def with_numbers_column(parts: QuerySet[Part]) -> QuerySet[Part]:
    """`parts` each with its other numbers in a column (numbers_from_column reads it)."""
    return parts.annotate(**{NUMBERS_COLUMN: RawSQL(numbers_column_sql(), ())})


def numbers_column_sql() -> str:
    """The SQL of with_numbers_column's column, for a query of "catalog_part" written as SQL."""
    return _NUMBERS_COLUMN[connection.vendor]


def numbers_from_column(parts: list[Part]) -> list[Part]:
    """The other numbers read with each part (with_numbers_column) kept on it as
    `numbers_read`, which Part.numbers_shown answers without asking the database."""
    for part in parts:
        column = getattr(part, NUMBERS_COLUMN, None)
        if column is None:
            continue
        rows = sorted(json.loads(column) if isinstance(column, str) else column)
        numbers = [
            PartNumber(id=pk, part_id=part.pk, number=number, kind=kind, brand=brand)
            for pk, number, kind, brand in rows
        ]
        part.numbers_read = numbers
    return parts


def _parts_newest_first() -> QuerySet[Part]:
    return with_numbers_column(
        Part.objects.select_related("category")
        .only(*PART_LIST_FIELDS)
        .order_by("-created_at", "-id")
    )


def _cards_newest_first() -> QuerySet[Part]:
    return Part.objects.only(*CARD_FIELDS).order_by("-created_at", "-id")


def part_list(*, limit: int | None = None, offset: int = 0) -> QuerySet[Part]:
    """Parts, newest first; a slice when limit is given."""
    parts = _parts_newest_first()
    if limit is None:
        return parts[offset:]
    return parts[offset : offset + limit]


def part_count(*, version: str | None = None) -> int:
    """How many parts there are, kept until the catalog changes (`version`: the catalog's,
    when the caller has just read it)."""
    return versions.get_or_set(
        "catalog:part-count", Part.objects.count, names=[CATALOG], version=version
    )


def part_page(
    *,
    page: object = 1,
    per_page: int = PARTS_PER_PAGE,
    version: str | None = None,
    count: int | None = None,
) -> ListPage:
    """One page of part_list's order, read as cards show them (the count kept until the
    catalog changes; `version` as for part_count; `count`: known already).

    `page` may be anything a query string holds: a value that is not a whole number gives
    the first page, and one out of range the nearest page (first or last).
    """
    count = part_count(version=version) if count is None else count
    paginator = Paginator(range(count), per_page)  # pages of positions: no rows loaded
    number = page_number(page, last=paginator.num_pages)
    start = (number - 1) * per_page
    return ListPage(
        items=list(_cards_newest_first()[start : start + per_page]),
        number=number,
        num_pages=paginator.num_pages,
        page_range=list(paginator.get_elided_page_range(number, on_each_side=2, on_ends=1)),
        count=count,
        per_page=per_page,
    )


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
    """The newest `limit` parts as cards show them (the home page's)."""
    return list(_cards_newest_first()[:limit])


def parts_low_on_stock() -> QuerySet[Part]:
    """Parts that can no longer be ordered: fewer units left than their minimum order."""
    return with_numbers_column(
        Part.objects.select_related("category")
        .only(*PART_LIST_FIELDS)
        .filter(available_quantity__lt=F("minimum_order_quantity"))
        .order_by("available_quantity", "name")
    )


def low_stock_parts() -> list[Part]:
    """parts_low_on_stock, kept until a part changes (the owner's Overview)."""
    return versions.get_or_set(
        "catalog:low-stock",
        lambda: numbers_from_column(list(parts_low_on_stock())),
        names=[PARTS],
    )


def category_list(*, version: str | None = None) -> list[Category]:
    """Every category by name, with `count` (its parts), kept until the catalog changes
    (`version`: the catalog's, when the caller has just read it)."""
    return versions.get_or_set(
        "catalog:categories",
        lambda: list(Category.objects.annotate(count=Count("parts")).order_by("name")),
        names=[CATALOG],
        version=version,
    )


# The searches that found nothing most often over some days, as one JSON text
# ([[words, count, lastAt], …]): a column that rides on another query (the owner's figures
# are five queries in all, orders.stats).
_MISSED_ROWS = (
    'SELECT "words", SUM("count") AS "times", MAX("last_at") AS "latest"'
    ' FROM "catalog_missedsearch" WHERE "day" >= %s AND "day" <= %s GROUP BY "words"'
    ' ORDER BY "times" DESC, "latest" DESC, "words" LIMIT %s'
)
_MISSED_COLUMN = {
    "postgresql": "(SELECT COALESCE(json_agg(json_build_array(t.words, t.times, t.latest)),"
    f" '[]')::text FROM ({_MISSED_ROWS}) t)",
    "sqlite": "(SELECT COALESCE(json_group_array(json_array(t.words, t.times, t.latest)),"
    f" '[]') FROM ({_MISSED_ROWS}) t)",
}


def missed_searches_column(*, first: date, last: date, limit: int) -> RawSQL:
    """The `limit` words searched most often without a match from day `first` to `last`
    (both included), as a column of JSON text; missed_searches_of reads it."""
    ops = connection.ops
    days = [ops.adapt_datefield_value(first), ops.adapt_datefield_value(last)]
    return RawSQL(_MISSED_COLUMN[connection.vendor], [*days, limit], output_field=TextField())


def missed_searches_of(column: str | None) -> list[dict]:
    """missed_searches_column's JSON as `{"q", "count", "lastAt"}`, most first (then the
    latest first)."""
    rows = json.loads(column) if isinstance(column, str) else column or []
    found = [
        {"q": words, "count": int(times), "lastAt": _moment(latest)}
        for words, times, latest in rows
    ]
    return sorted(found, key=lambda r: (-r["count"], -r["lastAt"].timestamp(), r["q"]))


def _moment(text: str) -> datetime:
    """A moment as the database wrote it in JSON (SQLite's: UTC without an offset)."""
    moment = parse_datetime(text)
    return moment if timezone.is_aware(moment) else timezone.make_aware(moment, UTC)


STOCK_HISTORY_LIMIT = 200


def stock_movements(*, part_id, limit: int = STOCK_HISTORY_LIMIT) -> QuerySet[StockMovement]:
    """A part's latest stock movements, newest first, with who made them."""
    return StockMovement.objects.filter(part_id=part_id).select_related("by")[:limit]


def part_to_order(*, part_id: int | None = None, name: str = "") -> Part | None:
    """The part an order names: the one with `part_id` when given, else the only part called
    exactly `name`; None when there is no such part (or several have that name)."""
    if part_id is not None:
        found = parts_without_search([part_id])
        return found[0] if found else None
    parts = Part.objects.defer("search_vector")
    matches = list(parts.filter(name=name)[:2]) if name else []
    return matches[0] if len(matches) == 1 else None


def parts_without_search(part_ids: Collection[int], *, locked: bool = False) -> list[Part]:
    """The parts with these ids still there, in id order, but their search vectors (no order
    shows them); with `locked`, their rows locked (FOR UPDATE) until the caller's transaction
    ends. What every order reads: one statement, compiled once per process and number of ids
    (core.caching.statements)."""
    if locked and not transaction.get_connection().in_atomic_block:
        raise TransactionManagementError("Rows are locked inside a transaction only.")
    statement = _parts_by_id(len(part_ids), locked=locked)
    return statement.objects(Part, part_ids=list(part_ids))


@functools.lru_cache(maxsize=128)
def _parts_by_id(count: int, *, locked: bool) -> Statement:
    fields = [field for field in Part._meta.concrete_fields if field.name != "search_vector"]

    def parts(part_ids):
        rows = Part.objects.filter(pk__in=part_ids).order_by("pk")
        rows = rows.select_for_update() if locked else rows
        return rows.values_list(*[field.attname for field in fields])

    return Statement.of(parts, returns=fields, part_ids=stand_in_numbers(count))


# The ids of the parts that fit a vehicle: its fitment rows' (catalog_fitment_vehicle) and the
# universal parts' (catalog_part_universal), each read from an index. As a subquery of its own
# rather than "universal OR EXISTS (…)", whose estimates on PostgreSQL are thousands of times
# too high (enough to switch on its JIT compiler: a quarter of a second at 10,000 parts).
FITTING_IDS = (
    'SELECT "part_id" FROM "catalog_fitment" WHERE "vehicle_id" = %s'
    ' UNION ALL SELECT "id" FROM "catalog_part" WHERE "universal"'
)

# The same for any of several vehicles (PostgreSQL: their ids as one array parameter).
FITTING_ANY_IDS = (
    'SELECT "part_id" FROM "catalog_fitment" WHERE "vehicle_id" = ANY(%s)'
    ' UNION ALL SELECT "id" FROM "catalog_part" WHERE "universal"'
)


def fits(vehicle: Vehicle | int) -> Q:
    """The condition "this part fits `vehicle`": universal, or a fitment row for it. Filter
    any QuerySet of parts with it: `Part.objects.filter(fits(vehicle))`."""
    vehicle_id = vehicle.pk if isinstance(vehicle, Vehicle) else int(vehicle)
    return Q(pk__in=RawSQL(FITTING_IDS, [vehicle_id]))


def fits_any(vehicle_ids: Collection[int]) -> Q:
    """The condition "this part fits one of these vehicles, or is universal"."""
    listed = Fitment.objects.filter(vehicle_id__in=list(vehicle_ids)).values("part_id")
    return Q(universal=True) | Q(pk__in=listed)


def fitting_count(vehicle_id: int) -> int:
    """How many parts fit the vehicle or are universal, kept until the catalog (a part added
    or deleted) or fitment (a row, or a part's universal flag) changes."""

    return versions.get_or_set(
        f"catalog:fitting-count:{vehicle_id}",
        lambda: Part.objects.filter(fits(vehicle_id)).count(),  # one query, as fits() reads
        names=[CATALOG, FITMENT],
    )


def vehicle_exists(pk: int) -> bool:
    """Whether there is a vehicle with this id, kept until vehicles change (every ?fits=
    asks: no query for a bike already known)."""
    return versions.get_or_set(
        f"catalog:vehicle-exists:{pk}",
        lambda: Vehicle.objects.filter(pk=pk).exists(),
        names=[VEHICLES],
    )


def parts_that_fit(*, vehicle: Vehicle | int) -> QuerySet[Part]:
    """Parts that fit `vehicle` or are universal, newest first, as cards show them."""
    return _cards_newest_first().filter(fits(vehicle))


def vehicle_get(pk: object) -> Vehicle | None:
    """The vehicle with this id (as a query string holds it), or None when there is none."""
    try:
        number = int(str(pk))
    except ValueError:
        return None
    if not 0 < number < 2**63:
        return None
    return Vehicle.objects.filter(pk=number).first()


def vehicle_rows() -> list[tuple[int, str, str, int]]:
    """Every vehicle as (id, make, model, year), kept until a vehicle is added: the makes and
    the bikes a search's words may name (catalog.bike_words) are read from it, in one query."""
    return versions.get_or_set(
        "catalog:vehicle-rows",
        lambda: list(Vehicle.objects.order_by("id").values_list("pk", "make", "model", "year")),
        names=[VEHICLES],
    )


def vehicle_makes() -> list[str]:
    """Every make with a vehicle, by name, kept until a vehicle is added."""
    return versions.get_or_set(
        "catalog:makes",
        lambda: sorted({make for _, make, _, _ in vehicle_rows()}, key=lambda m: (m.casefold(), m)),
        names=[VEHICLES],
    )


def fitting_page(
    parts: QuerySet[Part],
    vehicle_id: int,
    *,
    order: tuple[str, ...],
    page: object = 1,
    per_page: int = PARTS_PER_PAGE,
) -> tuple[ListPage, int]:
    """One page of those of `parts` that fit the vehicle (or are universal), in `order`, and
    how many of `parts` do not fit it ("N parts match but do not fit …"). One query: every
    part, those that fit first, each row carrying both counts; a page past the end reads the
    last one again, after counting on its own."""
    fit = Case(When(fits(vehicle_id), then=Value(1)), default=Value(0), output_field=IntegerField())
    ordered = parts.annotate(fit=fit, every=Window(Count("*")), fitting=Window(Sum(fit))).order_by(
        "-fit", *order
    )
    wanted = page_number(page, last=10**6)
    rows = list(ordered[(wanted - 1) * per_page : wanted * per_page])
    if rows:
        every, fitting = rows[0].every, rows[0].fitting
    elif wanted == 1:  # nothing matches
        every = fitting = 0
    else:
        counts = parts.order_by().aggregate(every=Count("pk"), fitting=Sum(fit))
        every, fitting = counts["every"], counts["fitting"] or 0
    paginator = Paginator(range(fitting), per_page)
    number = min(wanted, paginator.num_pages)
    if number != wanted:
        rows = list(ordered[(number - 1) * per_page : number * per_page])
    listed = ListPage(
        items=[part for part in rows if part.fit],
        number=number,
        num_pages=paginator.num_pages,
        page_range=list(paginator.get_elided_page_range(number, on_each_side=2, on_ends=1)),
        count=fitting,
        per_page=per_page,
    )
    return listed, every - fitting


def vehicle_list(*, make: str = "", model: str = "", year: int | None = None) -> QuerySet[Vehicle]:
    """Vehicles by make, model and year; each given one matches exactly, whatever its case
    (UPPER(…) = UPPER(…): the unique index's expressions)."""
    vehicles = Vehicle.objects.order_by("make", "model", "year")
    if make:
        vehicles = vehicles.filter(make__iexact=make)
    if model:
        vehicles = vehicles.filter(model__iexact=model)
    if year is not None:
        vehicles = vehicles.filter(year=year)
    return vehicles


def part_vehicles(*, part_id: int) -> list[Vehicle]:
    """The vehicles a part fits, by make, model and year."""
    return list(Vehicle.objects.filter(fitments__part_id=part_id).order_by("make", "model", "year"))


def fitment_runs(vehicles: list[Vehicle]) -> list[tuple[str, str, int, int]]:
    """(make, model, first year, last year) of each run of consecutive years of a make and
    model; `vehicles` by make, model and year (as part_vehicles gives them)."""
    runs: list[tuple[str, str, int, int]] = []
    for v in vehicles:
        if runs and runs[-1][:2] == (v.make, v.model) and v.year == runs[-1][3] + 1:
            runs[-1] = (v.make, v.model, runs[-1][2], v.year)
        elif not (runs and runs[-1][:2] == (v.make, v.model) and v.year == runs[-1][3]):
            runs.append((v.make, v.model, v.year, v.year))
    return runs


def fitment_lines(vehicles: list[Vehicle]) -> list[str]:
    """What a part page says it fits: one line per make and model, its years as ranges of
    consecutive years ("Yamaha MT-07, 2014–2016, 2018"); `vehicles` by make, model and year."""
    lines: dict[tuple[str, str], list[str]] = {}
    for make, model, first, last in fitment_runs(vehicles):
        lines.setdefault((make, model), []).append(year_range(first, last))
    return [f"{make} {model}, {', '.join(years)}" for (make, model), years in lines.items()]


def year_range(first: int, last: int) -> str:
    """2014, 2020 → "2014–2020" (an en dash); one year alone."""
    return str(first) if first == last else f"{first}\u2013{last}"


def year_ranges(years: list[int]) -> str:
    """[2014, 2015, 2016, 2018] → "2014–2016, 2018"."""
    vehicles = [Vehicle(make="", model="", year=year) for year in sorted(set(years))]
    return ", ".join(year_range(first, last) for _, _, first, last in fitment_runs(vehicles))
