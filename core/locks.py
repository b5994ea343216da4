"""A lock on a name, held until the transaction ends: for what has no row of its own to lock
(a client address), beside the rows' own locks."""

from django.db import connections
from django.db.models import BooleanField, Func, Value


class NamedLock(Func):
    """An expression that, when PostgreSQL evaluates it, takes the transaction-level advisory
    lock on `name` (keyed by the 64-bit hash of the text; two names that share a hash only wait
    for each other): a second transaction evaluating it for the same name waits until the
    first ends. Put it in a statement that runs anyway (a row lock's SELECT): it costs no round
    trip of its own. Its value is always false.

    Other databases have no such lock: there it is the constant false. SQLite has no row locks
    either; it runs one write transaction at a time instead (`transaction_mode` IMMEDIATE in
    the settings), which serialises what the lock would.
    """

    output_field = BooleanField()

    def __init__(self, name: str):
        super().__init__(Value(name))

    def as_sql(self, compiler, connection, **extra_context):
        return "(1 = 0)", []

    def as_postgresql(self, compiler, connection, **extra_context):
        template = "(pg_advisory_xact_lock(hashtextextended(%(expressions)s, 0)) IS NULL)"
        return super().as_sql(compiler, connection, template=template, **extra_context)


def named_locks_take(*names: str, using: str = "default") -> None:
    """Take the locks of `names`, in that order, in one statement of their own: for a caller
    that has no row to read them with (NamedLock's note). Held until the transaction ends;
    nothing to take on other databases than PostgreSQL (see NamedLock)."""
    connection = connections[using]
    if not names or connection.vendor != "postgresql":
        return
    take = ", ".join(["pg_advisory_xact_lock(hashtextextended(%s, 0))"] * len(names))
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {take}", list(names))
