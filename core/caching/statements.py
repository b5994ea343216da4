"""Statements compiled once per process: the SQL the ORM writes for a query, kept, and run
again with new values in its parameters.

Compiling a query costs several times what running a short one does (bench/profiles/
README.md, "Issue 29"), so the few reads on the hottest paths (a kept page's live check of
its person, the lapsed holds an order looks for first) keep their SQL. The query is still
written once, with the ORM: it is compiled with stand-ins, unusual values found again among
its parameters, and each run puts the real values in their place.
"""

from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from itertools import zip_longest
from typing import Any, NamedTuple

from django.core.exceptions import EmptyResultSet
from django.db import connections
from django.db.models import Field, Model, QuerySet, Value
from django.utils import timezone

# Stand-ins: values no real parameter has. Numbers stay within a 32-bit integer column's range
# (the ORM drops a comparison with a number out of a column's range from the SQL it writes).
_FIRST_NUMBER = 2_147_480_000
STAND_IN_TIME = datetime(1901, 2, 3, 4, 5, 6, 789_012, tzinfo=UTC)
STAND_IN_ADDRESS = "192.0.2.254"  # an IP address kept for documentation (RFC 5737)


def stand_in_numbers(count: int, *, start: int = 0) -> list[int]:
    """`count` integer stand-ins, different from those starting elsewhere (`start`)."""
    return [_FIRST_NUMBER - start - n for n in range(count)]


def stand_in_text(name: str) -> str:
    return f"\0stand-in {name}\0"


class Statement(NamedTuple):
    """A query's SQL and parameters, with where each named value goes among them."""

    alias: str
    sql: str
    params: tuple
    places: dict[str, tuple[tuple[int, ...], ...]]  # name -> per value, its positions
    fields: dict[str, Field]  # name -> the field its values are compared with
    returns: tuple[Field | None, ...]  # the fields of its columns, read as the ORM reads them

    @classmethod
    def of(
        cls,
        build: Callable[..., QuerySet],
        *,
        fields: dict[str, Field] | None = None,
        returns: Sequence[Field | None] = (),
        **stand_ins: Any | Sequence[Any],
    ) -> "Statement":
        """The query `build(**stand_ins)` returns, compiled now, whose parameters hold
        `stand_ins` (a value, or a list of values, per name): run() puts other values in their
        places, each as the ORM hands it to the database (`fields`: the model field a name's
        values are compared with, when the database takes them in a form of its own, an IP
        address say; dates need none). `returns`: the field of each column the database
        answers in a form of its own (SQLite's dates, decimals), None for the others; the rows
        are read as the ORM reads such fields. ValueError when the ORM writes other SQL for ordinary
        values than for the stand-ins, or does not pass a stand-in as a parameter."""
        queryset = build(**stand_ins)
        sql, params = _compiled(queryset)
        ordinary = {name: _ordinary(given) for name, given in stand_ins.items()}
        if sql is None or _compiled(build(**ordinary))[0] != sql:
            raise ValueError("the ORM writes other SQL for these stand-ins than for real values")
        statement = cls(queryset.db, sql, tuple(params), {}, fields or {}, tuple(returns))
        for name, given in stand_ins.items():
            values = list(given) if isinstance(given, list | tuple) else [given]
            positions = tuple(statement._positions(name, value) for value in values)
            statement.places[name] = positions
        return statement

    def run(self, **values: Any | Sequence[Any]) -> list[tuple]:
        """The rows of the statement with `values` (as many per name as its stand-ins)."""
        params = list(self.params)
        for name, given in values.items():
            given = list(given) if isinstance(given, list | tuple) else [given]
            if len(given) != len(self.places[name]):
                raise ValueError(f"{name}: {len(self.places[name])} values expected")
            for positions, value in zip(self.places[name], given, strict=True):
                for position in positions:
                    params[position] = self._adapted(name, value)
        connection = connections[self.alias]
        with connection.cursor() as cursor:
            cursor.execute(self.sql, params)
            rows = cursor.fetchall()
        if not any(self.returns):
            return rows
        readers = [_reader(connection, field) for field in self.returns]
        return [
            tuple(read(value) if read else value for read, value in zip_longest(readers, row))
            for row in rows
        ]

    def objects(self, model: type[Model], **values: Any | Sequence[Any]) -> list[Model]:
        """The rows of run() as instances of `model`, for a statement whose columns are the
        fields `returns` names (of `model`; the others are deferred)."""
        names = [field.attname for field in self.returns]
        return [model.from_db(self.alias, names, row) for row in self.run(**values)]

    def _adapted(self, name: str, value):
        """`value` as the ORM hands it to the database (SQLite's dates are text)."""
        connection = connections[self.alias]
        if name in self.fields:
            return self.fields[name].get_db_prep_value(value, connection)
        if isinstance(value, datetime):
            return connection.ops.adapt_datetimefield_value(value)
        return value

    def _positions(self, name: str, value) -> tuple[int, ...]:
        adapted = self._adapted(name, value)
        found = tuple(
            i
            for i, param in enumerate(self.params)
            if type(param) is type(adapted) and param == adapted
        )
        if not found:
            raise ValueError(f"the stand-in of {name} is not among the statement's parameters")
        return found


def _reader(connection, field: Field | None) -> Callable | None:
    """How the ORM reads a value of `field` from the database (its converters), or None."""
    if field is None:
        return None
    expression = Value(None, output_field=field)
    converters = [
        *connection.ops.get_db_converters(expression),
        *expression.get_db_converters(connection),
    ]

    def read(value):
        for convert in converters:
            value = convert(value, expression, connection)
        return value

    return read


def _compiled(queryset: QuerySet) -> tuple[str | None, list]:
    """The query's SQL and parameters; no SQL when the ORM knows it finds nothing."""
    try:
        return queryset.query.sql_with_params()
    except EmptyResultSet:
        return None, []


def _ordinary(given):
    """Values of the same kinds as the stand-ins `given`, such as real ones are."""
    if isinstance(given, list | tuple):
        return [_ordinary_one(value, n) for n, value in enumerate(given, start=1)]
    return _ordinary_one(given, 1)


def _ordinary_one(value, n: int):
    if isinstance(value, datetime):
        return timezone.now()
    if value == STAND_IN_ADDRESS:
        return f"192.0.2.{n}"
    return f"value {n}" if isinstance(value, str) else n
