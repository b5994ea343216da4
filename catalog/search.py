"""Finding parts: words (part numbers too), a category, brands, a price range, "in stock only", a
bike (the parts that fit it) and an order.

On PostgreSQL the words are matched with full-text search (English stemming, so case and word
forms do not matter), weighted so that a match in the name ranks above one in the category,
which ranks above one in the description. The weighted vector is stored on each part and kept
by the database (`Part.search_vector`, migration 0005), with a GIN index; a part matches when
any of the words is in it (its rank is above 0), ranked by `ts_rank` of all the words. On SQLite (the embedded default) each word is
matched as a substring of the name, the category or the description, name matches first.
Either way `q` also matches part numbers without case, spaces or dashes (the database keeps
that form of each, `Part.part_number_normalised`), and a part's other numbers alike
(`PartNumber.number_normalised`): an exact one first, then those it begins.

`part_queryset` says what a search is, as a QuerySet (the rules, and SQLite's search). On
PostgreSQL `part_search` reads the same rows in the same order by SQL written here once
(`PartSearch`): compiling the QuerySet's expressions was most of a search's Python.
catalog/tests/test_search.py holds the two to the same answers.

Each word also finds its synonyms (catalog/synonyms.py), as if written, on both databases. On
PostgreSQL a word of five letters or more also finds the catalog's words one slip away
(catalog/typos.py); the parts the words as written find rank above (EXACT_WORDS). `q` is cut
to Q_LONGEST characters, and its first 10 words read, before anything else.
"""

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from decimal import Decimal
from functools import cached_property, partial
from typing import NamedTuple

from django.db import connection
from django.db.models import (
    BooleanField,
    Case,
    F,
    FloatField,
    IntegerField,
    Q,
    QuerySet,
    Value,
    When,
)
from django.db.models.expressions import RawSQL

from core.paging import Rows

from . import selectors, typos
from .models import Category, Part, PartNumber
from .selectors import PART_LIST_FIELDS
from .synonyms import synonyms

SORTS = {
    "newest": ("-created_at", "-id"),
    "relevance": ("-rank", "-created_at", "-id"),
    "price": ("price", "id"),
    "-price": ("-price", "id"),
    "name": ("name", "id"),
}
SORT_LABELS = {
    "newest": "Newest",
    "price": "Price: low to high",
    "-price": "Price: high to low",
    "name": "Name",
}
WORDS = re.compile(r"\w+")
Q_LONGEST = 200  # characters of q read: a longer q is cut before anything else reads it
NOT_IN_PART_NUMBERS = re.compile(r"[\s-]+")  # what part_number_normalised leaves out
PREFIX_FROM = 4  # characters of a part number that also find the part numbers they begin
# Ranks of part-number matches, above any ts_rank of words (a few tenths at most): an exact
# part number first, then those it begins.
EXACT_NUMBER, NUMBER_PREFIX = 1000, 100
# Raised rank of a part that the words as written find (or their synonyms), above any part
# found only through a slip forgiven (catalog/typos.py), below part-number matches.
EXACT_WORDS = 10


class Spelling(NamedTuple):
    """A searched word's alternatives: as written (the word and its synonyms), and with a
    slip forgiven (the catalog's words it may have meant, and their synonyms)."""

    exact: tuple[str, ...]
    slips: tuple[str, ...] = ()


@dataclass(frozen=True)
class PartQuery:
    """What a shopper asks the catalog for; empty fields ask for nothing."""

    q: str = ""
    category: str = ""
    min_price: Decimal | None = None
    max_price: Decimal | None = None
    in_stock: bool = False
    sort: str = ""
    fits: int | None = None  # a vehicle's id: only parts that fit it or are universal
    brands: tuple[str, ...] = ()  # makers (Part.brand, exactly as written): any of them
    # Vehicles' ids (a bike named in the words, catalog.bike_words): only parts that fit any
    # of them or are universal.
    vehicles: tuple[int, ...] = ()

    @property
    def order(self) -> tuple[str, ...]:
        """The sort asked for, else relevance for words and newest without."""
        sort = self.sort or ("relevance" if self.words else "newest")
        return SORTS["newest" if sort == "relevance" and not self.words else sort]

    @property
    def words(self) -> list[str]:
        return WORDS.findall(self.q[:Q_LONGEST].lower())[:10]

    @cached_property
    def spellings(self) -> list[Spelling]:
        """Each word's alternatives (on PostgreSQL, a slip's corrections: one query, or none
        when the cache has them)."""
        return _spellings(self.words)

    @property
    def part_number(self) -> str:
        """The words as a part number is compared: no case, spaces or dashes."""
        return NOT_IN_PART_NUMBERS.sub("", self.q[:Q_LONGEST].lower())[:100]

    @property
    def number_prefix(self) -> str:
        """The LIKE pattern of part numbers that begin with part_number ("" when too short)."""
        number = self.part_number
        if len(number) < PREFIX_FROM:
            return ""
        return re.sub(r"([\\%_])", r"\\\1", number) + "%"

    @property
    def counts_every_part(self) -> bool:
        """Nothing filters the parts out (only an order may be asked for)."""
        return not (
            self.words
            or self.category
            or self.min_price is not None
            or self.max_price is not None
            or self.in_stock
            or self.fits is not None
            or self.brands
            or self.vehicles
        )

    @property
    def counts_fitting_parts(self) -> bool:
        """Only a bike filters the parts (an order may be asked for): the count kept per bike
        answers (catalog.selectors.fitting_count)."""
        return self.fits is not None and replace(self, fits=None).counts_every_part

    @property
    def reads_every_match(self) -> bool:
        """Matching words reads every part (and ranks the matches): a page of results then
        counts them on the same query. Without words a count of its own is cheaper than
        numbering every part for a page of 24."""
        return bool(self.words)


def kept_count(query: PartQuery, *, version: str | None = None) -> Callable[[], int] | None:
    """How to read the number of parts matching `query` from the cache, when a kept count
    says it (every part; every part of a bike), else None: counted with the rows. `version`:
    the catalog's, when the caller has just read it."""
    if query.counts_every_part:
        return partial(selectors.part_count, version=version)
    if query.counts_fitting_parts:
        return partial(selectors.fitting_count, query.fits)
    return None


def part_search(query: PartQuery, *, with_numbers: bool = False) -> "PartSearch | QuerySet[Part]":
    """The parts that match `query`, in its order: read by slices (`[start:stop]`, `count()`,
    core.paging's counted_slice), each with its category; `with_numbers`: and its other
    numbers, in the same query (selectors.numbers_from_column reads them)."""
    if connection.vendor == "postgresql":
        return PartSearch(query, with_numbers=with_numbers)
    parts = part_queryset(query)
    return selectors.with_numbers_column(parts) if with_numbers else parts


def part_queryset(query: PartQuery) -> QuerySet[Part]:
    """The parts that match `query`, in its order (with `rank` when words were given)."""
    parts = Part.objects.select_related("category").only(*PART_LIST_FIELDS, "created_at")
    if query.category:
        parts = parts.filter(category__slug=query.category)
    if query.brands:
        parts = parts.filter(brand__in=query.brands)
    if query.min_price is not None:
        parts = parts.filter(price__gte=query.min_price)
    if query.max_price is not None:
        parts = parts.filter(price__lte=query.max_price)
    if query.in_stock:
        parts = parts.filter(available_quantity__gte=F("minimum_order_quantity"))
    if query.fits is not None:
        parts = parts.filter(selectors.fits(query.fits))
    if query.vehicles:
        parts = parts.filter(selectors.fits_any(query.vehicles))
    if query.words:
        parts = _matching(parts, query)
    else:
        parts = parts.annotate(rank=Value(0, output_field=IntegerField()))
    return parts.order_by(*query.order)


# Written as SQL rather than SearchRank/SearchQuery expressions: the same SQL, without
# compiling a tree of expressions in Python on every search.
_QUERY = "plainto_tsquery('english'::regconfig, %s)"
_VECTOR = '"catalog_part"."search_vector"'
_ANY = "replace({}::text, '&', '|')::tsquery"  # a tsquery's words, any of them
# Any word (the GIN index answers it), then a rank above 0: the same parts as a rank above 0
# alone, which is what a search has always matched.
_MATCH = f"{_VECTOR} @@ {_ANY} AND ts_rank({_VECTOR}, {{}}) > 0"


def _matching(parts: QuerySet[Part], query: PartQuery) -> QuerySet[Part]:
    if connection.vendor == "postgresql":
        rank, rank_params = _rank(query)
        match, match_params = _match(query)
        return parts.annotate(rank=RawSQL(rank, rank_params, output_field=FloatField())).filter(
            RawSQL(match, match_params, output_field=BooleanField())
        )
    return _matching_substrings(parts, query)


# A part number matches when it is the one asked for, or (from PREFIX_FROM characters on)
# begins with it: equality and LIKE 'x%' on the varchar_pattern_ops index. So does any of
# the part's other numbers (PartNumber): their parts gathered once into an array (an
# InitPlan, on that table's own index of the normalised number), found by the primary key.
_NUMBER = '"catalog_part"."part_number_normalised"'
_OTHER = (
    '"catalog_part"."id" = ANY(ARRAY(SELECT "catalog_partnumber"."part_id"'
    ' FROM "catalog_partnumber" WHERE "catalog_partnumber"."number_normalised" {} %s))'
)
_EXACT = f"({_NUMBER} = %s OR {_OTHER.format('=')})"
_PREFIX = f"({_NUMBER} LIKE %s OR {_OTHER.format('LIKE')})"


def _spellings(words: list[str]) -> list[Spelling]:
    """Each word's alternatives; a synonym is one of the word as written (of its singular
    too: "cogs" finds sprockets)."""
    corrected = typos.corrections(words)
    spellings = []
    for word in words:
        exact = (word, *_synonyms(word))
        slips = [f for fix in corrected.get(word, ()) for f in (fix, *_synonyms(fix))]
        spellings.append(Spelling(exact, tuple(w for w in dict.fromkeys(slips) if w not in exact)))
    return spellings


def _synonyms(word: str) -> tuple[str, ...]:
    return synonyms(word, word.removesuffix("s"), stem(word))


def _tsquery(groups: list[tuple[str, ...]]) -> tuple[str, list]:
    """A tsquery of every group, any word of each: "(brake | brace) & pads"."""
    if all(len(group) == 1 for group in groups):  # as it always was: one plainto_tsquery
        return _QUERY, [" ".join(group[0] for group in groups)]
    sql = " && ".join("(" + " || ".join([_QUERY] * len(group)) + ")" for group in groups)
    return f"({sql})", [word for group in groups for word in group]


def _words_rank(query: PartQuery) -> tuple[str, list]:
    """The words' ts_rank (with a slip's corrections), raised by EXACT_WORDS for the parts
    the words as written find, when a slip was forgiven at all."""
    spellings = query.spellings
    tsquery, params = _tsquery([s.exact + s.slips for s in spellings])
    rank = f"ts_rank({_VECTOR}, {tsquery})"
    if not any(s.slips for s in spellings):
        return rank, params
    exact, exact_params = _tsquery([s.exact for s in spellings])
    tier = f"CASE WHEN {_VECTOR} @@ {_ANY.format(exact)} THEN {EXACT_WORDS} ELSE 0 END"
    return f"({tier} + {rank})", [*exact_params, *params]


def _words_match(query: PartQuery) -> tuple[str, list]:
    """Any of the words (or of their alternatives) in the vector."""
    tsquery, params = _tsquery([s.exact + s.slips for s in query.spellings])
    return f"({_MATCH.format(tsquery, tsquery)})", [*params, *params]


def _rank(query: PartQuery) -> tuple[str, list]:
    """The rank column: the words' ts_rank, raised for a part-number match."""
    words_rank, words_params = _words_rank(query)
    if not query.part_number:
        return words_rank, words_params
    number, prefix = query.part_number, query.number_prefix
    if prefix:
        number_rank = (
            f"CASE WHEN {_EXACT} THEN {EXACT_NUMBER} WHEN {_PREFIX} THEN {NUMBER_PREFIX} ELSE 0 END"
        )
        params = [number, number, prefix, prefix]
    else:
        number_rank = f"CASE WHEN {_EXACT} THEN {EXACT_NUMBER} ELSE 0 END"
        params = [number, number]
    return f"({number_rank} + {words_rank})", [*params, *words_params]


def _number_match(query: PartQuery) -> tuple[str, list]:
    number, prefix = query.part_number, query.number_prefix
    if prefix:
        return f"({_EXACT} OR {_PREFIX})", [number, number, prefix, prefix]
    return _EXACT, [number, number]


def _match(query: PartQuery) -> tuple[str, list]:
    """Which parts the words find: any word in the vector, or the part number."""
    words_match, words_params = _words_match(query)
    if not query.part_number:
        return words_match, words_params
    number_match, params = _number_match(query)
    return f"({words_match} OR {number_match})", [*words_params, *params]


def _matching_substrings(parts: QuerySet[Part], query: PartQuery) -> QuerySet[Part]:
    """SQLite: every word (or its stem without a plural ending, or a synonym) in a field, or
    the part number; an exact part number ranks first, then one it begins, then name
    matches. No slip is forgiven (SQLite has no edit distance)."""
    in_name, in_any = Q(), Q()
    for spelling in query.spellings:
        word_in_any, word_in_name = Q(pk__in=[]), Q(pk__in=[])
        for root in map(stem, spelling.exact):
            word_in_any |= (
                Q(name__icontains=root)
                | Q(brand__icontains=root)
                | Q(description__icontains=root)
                | Q(category__name__icontains=root)
            )
            word_in_name |= Q(name__icontains=root)
        in_any &= word_in_any
        in_name &= word_in_name
    number = query.part_number
    exact, prefix = Q(pk__in=[]), Q(pk__in=[])
    if number:
        exact = Q(part_number_normalised=number) | Q(pk__in=_other(number_normalised=number))
    if query.number_prefix:
        prefix = Q(part_number_normalised__startswith=number) | Q(
            pk__in=_other(number_normalised__startswith=number)
        )
    return parts.filter(in_any | exact | prefix).annotate(
        rank=Case(
            When(exact, then=Value(EXACT_NUMBER)),
            When(prefix, then=Value(NUMBER_PREFIX)),
            When(in_name, then=Value(2)),
            default=Value(1),
            output_field=IntegerField(),
        )
    )


def _other(**lookup) -> QuerySet:
    """The ids of the parts with another number like this."""
    return PartNumber.objects.filter(**lookup).values("part_id")


def stem(word: str) -> str:
    """A rough English stem for the fallback: "brakes" → "brake", "batteries" → "batter"."""
    for ending in ("ies", "es", "s"):
        if len(word) > len(ending) + 2 and word.endswith(ending):
            return word[: -len(ending)]
    return word


# PostgreSQL: part_queryset's SQL written once, in a few shapes (which filters are asked for,
# which order), with the values as parameters.
_PART_COLUMNS = tuple(  # in the model's order, as Model.from_db takes them
    field.attname
    for field in Part._meta.concrete_fields
    if field.name in {*PART_LIST_FIELDS, "category"}
)
_CATEGORY_COLUMNS = tuple(field.attname for field in Category._meta.concrete_fields)
_SELECT = ", ".join(
    [f'"catalog_part"."{c}"' for c in _PART_COLUMNS]
    + [f'"catalog_category"."{c}"' for c in _CATEGORY_COLUMNS]
)
_FROM = (
    ' FROM "catalog_part" LEFT OUTER JOIN "catalog_category"'
    ' ON ("catalog_part"."category_id" = "catalog_category"."id")'
)
_ORDER_COLUMNS = {
    "rank": '"rank"',
    "created_at": '"catalog_part"."created_at"',
    "id": '"catalog_part"."id"',
    "price": '"catalog_part"."price"',
    "name": '"catalog_part"."name"',
}


class PartSearch(Rows):
    """A search's parts on PostgreSQL: the query's SQL is put together from fixed pieces."""

    def __init__(self, query: PartQuery, *, with_numbers: bool = False):
        # The rank column and its parameters (none without words).
        self.rank_sql, self.rank = _rank(query) if query.words else ("", [])
        self.where, self.params = _where(query)
        self.order = ", ".join(_order_by(field) for field in query.order)
        self.with_numbers = with_numbers

    def read(self, start: int, stop: int | None, *, with_total: bool = False):
        sql = "SELECT " + _SELECT
        if self.rank_sql:
            sql += f', {self.rank_sql} AS "rank"'
        if self.with_numbers:
            sql += f", {selectors.numbers_column_sql()}"
        if with_total:
            sql += ", COUNT(*) OVER ()"
        sql += f"{_FROM}{self.where} ORDER BY {self.order}"
        if stop is not None:
            sql += f" LIMIT {int(stop) - int(start)}"
        if start:
            sql += f" OFFSET {int(start)}"
        with connection.cursor() as cursor:
            cursor.execute(sql, [*self.rank, *self.params])
            found = cursor.fetchall()
        total = found[0][-1] if with_total and found else None
        db = connection.alias
        parts = [_part(row, db) for row in found]
        if self.with_numbers:  # the column after the part's, its category's and the rank
            at = len(_PART_COLUMNS) + len(_CATEGORY_COLUMNS) + bool(self.rank_sql)
            for part, row in zip(parts, found, strict=True):
                setattr(part, selectors.NUMBERS_COLUMN, row[at])
        return parts, total

    def count(self) -> int:
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT COUNT(*){_FROM}{self.where}", self.params)
            return cursor.fetchone()[0]


# The parts of a bike (selectors.FITTING_IDS) gathered once into an array (an InitPlan), whose
# parts the primary key then finds: as a semi-join PostgreSQL reads every part to hash them.
_FITS = f'"catalog_part"."id" = ANY(ARRAY({selectors.FITTING_IDS}))'
_FITS_ANY = f'"catalog_part"."id" = ANY(ARRAY({selectors.FITTING_ANY_IDS}))'


def _where(query: PartQuery) -> tuple[str, list]:
    """part_queryset's filters as a WHERE clause and its parameters."""
    filters, filter_params = _filters(query)
    finds, find_params = _finds(query)
    conditions = [*filters, *finds]
    return (" WHERE " + " AND ".join(conditions) if conditions else ""), [
        *filter_params,
        *find_params,
    ]


def _filters(query: PartQuery) -> tuple[list[str], list]:
    """The conditions of the filters beside the grid (category, brands, prices, in stock)."""
    conditions, params = [], []
    if query.category:
        conditions.append('"catalog_category"."slug" = %s')
        params.append(query.category)
    if query.brands:
        conditions.append(f'"catalog_part"."brand" IN ({", ".join(["%s"] * len(query.brands))})')
        params += query.brands
    if query.min_price is not None:
        conditions.append('"catalog_part"."price" >= %s')
        params.append(query.min_price)
    if query.max_price is not None:
        conditions.append('"catalog_part"."price" <= %s')
        params.append(query.max_price)
    if query.in_stock:
        conditions.append(
            '"catalog_part"."available_quantity" >= "catalog_part"."minimum_order_quantity"'
        )
    return conditions, params


def _finds(query: PartQuery) -> tuple[list[str], list]:
    """The conditions of what the parts are looked for by: a bike, bikes named, words."""
    conditions, params = [], []
    if query.fits is not None:
        conditions.append(_FITS)
        params.append(query.fits)
    if query.vehicles:
        conditions.append(_FITS_ANY)
        params.append(list(query.vehicles))
    if query.words:
        match, match_params = _match(query)
        conditions.append(match)
        params += match_params
    return conditions, params


def _order_by(field: str) -> str:
    """One of SORTS' fields ("-price") as SQL."""
    name = field.removeprefix("-")
    return _ORDER_COLUMNS[name] + (" DESC" if field.startswith("-") else " ASC")


def _part(row: tuple, db: str) -> Part:
    """A row of PartSearch as the Part (with its category) the QuerySet would have made."""
    split, end = len(_PART_COLUMNS), len(_PART_COLUMNS) + len(_CATEGORY_COLUMNS)
    part = Part.from_db(db, _PART_COLUMNS, row[:split])
    if row[split] is not None:
        part.category = Category.from_db(db, _CATEGORY_COLUMNS, row[split:end])
    return part


def page_and_summary(
    query: PartQuery,
    *,
    columns: dict[str, str],
    summary: tuple[str, list],
    start: int,
    stop: int,
) -> tuple[list[Part], str | None]:
    """PostgreSQL, a query with words: its parts from `start` to `stop`, in its order, each
    with its category, and the one value that `summary` (SQL and its parameters) selects from
    "matches": every part the words and the bike find, the filters beside the grid aside, with
    `columns` (as matching_rows_sql's) and "in_grid" (the filters keep it). One statement, so
    the words are matched once for both (catalog.facets: a search's page and its counts)."""
    rank, rank_params = _rank(query)
    filters, filter_params = _filters(query)
    finds, find_params = _finds(query)
    select = ", ".join(f'{_column(path)} AS "{alias}"' for alias, path in columns.items())
    # The columns the orders name (_ORDER_COLUMNS), under the names they have on a part.
    matches = (
        '"catalog_part"."id", "catalog_part"."created_at", "catalog_part"."price",'
        f' "catalog_part"."name", {rank} AS "rank", ({" AND ".join(filters) or "TRUE"})'
        f' AS "in_grid", {select}{_FROM} WHERE {" AND ".join(finds)}'
    )
    order = ", ".join(_order_by(field) for field in query.order)
    page = (
        f'SELECT "catalog_part"."id", ROW_NUMBER() OVER (ORDER BY {order}) AS "n"'
        ' FROM "matches" "catalog_part" WHERE "catalog_part"."in_grid"'
        f' ORDER BY "n" LIMIT {int(stop) - int(start)} OFFSET {int(start)}'
    )
    sql = (
        f'WITH "matches" AS MATERIALIZED (SELECT {matches}) SELECT "summary"."value", {_SELECT}'
        f' FROM ({summary[0]}) "summary"("value") LEFT JOIN LATERAL ({page}) "page" ON TRUE'
        ' LEFT OUTER JOIN "catalog_part" ON ("catalog_part"."id" = "page"."id")'
        ' LEFT OUTER JOIN "catalog_category"'
        ' ON ("catalog_part"."category_id" = "catalog_category"."id")'
        ' ORDER BY "page"."n"'
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [*rank_params, *filter_params, *find_params, *summary[1]])
        found = cursor.fetchall()
    db = connection.alias
    parts = [_part(row[1:], db) for row in found if row[1] is not None]  # None: no page
    return parts, found[0][0]


def matching_rows_sql(query: PartQuery, columns: dict[str, str]) -> tuple[str, list]:
    """A SELECT of `columns` (alias: a Part field, "category__…" for its category's) of every
    part matching `query`, unordered, and its parameters: the search's own WHERE (PartSearch's
    on PostgreSQL, part_queryset's elsewhere), for a query of counts around it
    (catalog.facets)."""
    if connection.vendor == "postgresql":
        where, params = _where(query)
        select = ", ".join(f'{_column(path)} AS "{alias}"' for alias, path in columns.items())
        return f"SELECT {select}{_FROM}{where}", params
    parts = part_queryset(query).order_by().values(**{a: F(p) for a, p in columns.items()})
    sql, params = parts.query.sql_with_params()
    return sql, list(params)


def _column(path: str) -> str:
    """A Part field ("price", "category__slug") as PartSearch's SQL names its column."""
    table, _, field = path.rpartition("__")
    model = Category if table == "category" else Part
    name = model._meta.get_field(field).column
    return f'"{model._meta.db_table}"."{name}"'
