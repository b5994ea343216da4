"""Django's PostgreSQL backend, with a persistent connection's health check made locally.

With CONN_HEALTH_CHECKS, Django checks a reused connection before each request's first query
by sending `SELECT 1`: one more round trip on every request that reads the database (a sixth
of a search's time in bench/profiles). Here an idle connection is checked on its socket
instead: a server that closed it (a restart, a failover, a terminated backend, a proxy gone)
leaves the socket readable at its end, while a healthy idle connection has nothing to read.
Anything unexpected counts as unusable, and Django connects afresh without failing the
request, as before (tests/test_faults.py: the same server recovers when the database is back).
"""

import select

from django.db.backends.postgresql.base import DatabaseWrapper as PostgreSQLDatabaseWrapper
from psycopg.pq import TransactionStatus


class DatabaseWrapper(PostgreSQLDatabaseWrapper):
    def is_usable(self) -> bool:
        connection = self.connection
        if connection is None or connection.closed:
            return False
        if connection.info.transaction_status != TransactionStatus.IDLE:
            return super().is_usable()  # mid-transaction or in error: ask the server
        try:
            readable, _, _ = select.select([connection.fileno()], [], [], 0)
        except (OSError, ValueError):
            return False
        return not readable
