"""core.db: a reused connection is health-checked on its socket, without a round trip."""

import time

import psycopg
import pytest
from django.db import connection

pytestmark = [
    pytest.mark.django_db(transaction=True),  # an idle connection, as between two requests
    pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's backend"),
]


def server_pid() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return cursor.fetchone()[0]


def last_statement_of(pid: int) -> str:
    """The last statement the server process was sent (pg_stat_activity)."""
    with admin() as other:
        row = other.execute("SELECT query FROM pg_stat_activity WHERE pid = %s", [pid]).fetchone()
    return row[0]


def admin() -> psycopg.Connection:
    db = connection.settings_dict
    params = {"host": db["HOST"], "port": db["PORT"] or 5432, "user": db["USER"]}
    params |= {"password": db["PASSWORD"] or None, "dbname": db["NAME"]}
    return psycopg.connect(**params, autocommit=True)


def test_the_backend_is_djangos_postgresql_one():
    assert connection.settings_dict["ENGINE"] == "core.db"
    assert connection.vendor == "postgresql"


def test_a_healthy_idle_connection_is_usable_without_a_query():
    pid = server_pid()
    last = last_statement_of(pid)
    assert connection.is_usable()
    assert last_statement_of(pid) == last  # no SELECT 1 sent


@pytest.fixture
def ended_by_the_server():
    """The server process behind Django's connection is terminated (and gone)."""
    pid = server_pid()
    with admin() as other:
        other.execute("SELECT pg_terminate_backend(%s)", [pid])
        for _ in range(100):
            if not other.execute("SELECT 1 FROM pg_stat_activity WHERE pid = %s", [pid]).fetchone():
                break
            time.sleep(0.05)
    yield pid
    connection.close()


def test_a_connection_the_server_ended_is_not_usable(ended_by_the_server):
    assert not connection.is_usable()


def test_django_connects_afresh_after_the_server_ended_the_connection(ended_by_the_server):
    connection.health_check_done = False  # as at the start of each request
    assert server_pid() != ended_by_the_server
