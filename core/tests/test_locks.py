"""core.locks.NamedLock: a transaction waits for another that holds the lock of the same name
(PostgreSQL's advisory locks); other names, and the end of the transaction, free it."""

import threading
import time

import pytest
from django.contrib.contenttypes.models import ContentType
from django.db import connections, transaction

from core.locks import NamedLock, named_locks_take

pytestmark = pytest.mark.django_db(transaction=True)


def take(name: str) -> bool:
    """Evaluate the lock in a statement, as a row lock's SELECT carries it."""
    return ContentType.objects.values_list(NamedLock(name), flat=True)[:1].get()


def test_its_value_is_false_on_every_database():
    with transaction.atomic():
        assert take("core.tests:value") is False


@pytest.mark.parametrize(
    ("second_name", "waits"),
    [
        # SQLite runs one write transaction at a time: there the second waits whatever the name.
        ("same", True),
        pytest.param(
            "other", False, marks=pytest.mark.postgres(reason="advisory locks are PostgreSQL's")
        ),
    ],
)
def test_a_transaction_waits_for_the_one_holding_the_same_name(second_name, waits):
    held, release, events = threading.Event(), threading.Event(), []

    def first():
        with transaction.atomic():
            take("core.tests:same")
            held.set()
            release.wait(10)
            events.append("first ends")
        connections.close_all()

    def second():
        held.wait(10)
        with transaction.atomic():
            take(f"core.tests:{second_name}")
            events.append("second has it")
        connections.close_all()

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for thread in threads:
        thread.start()
    held.wait(10)
    time.sleep(0.3)  # the second has asked by now
    release.set()
    for thread in threads:
        thread.join(10)

    expected = ["first ends", "second has it"] if waits else ["second has it", "first ends"]
    assert events == expected


def test_named_locks_take_holds_the_same_lock_as_a_named_lock_until_the_end():
    """named_locks_take (for a caller with no row to read) takes the locks NamedLock does (on
    SQLite, one write transaction at a time: the same order)."""
    held, release, events = threading.Event(), threading.Event(), []

    def first():
        with transaction.atomic():
            named_locks_take("core.tests:other", "core.tests:taken")
            held.set()
            release.wait(10)
            events.append("first ends")
        connections.close_all()

    def second():
        held.wait(10)
        with transaction.atomic():
            take("core.tests:taken")
            events.append("second has it")
        connections.close_all()

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for thread in threads:
        thread.start()
    held.wait(10)
    time.sleep(0.3)
    release.set()
    for thread in threads:
        thread.join(10)
    assert events == ["first ends", "second has it"]


def test_named_locks_take_of_no_name_takes_nothing():
    with transaction.atomic():
        named_locks_take()
