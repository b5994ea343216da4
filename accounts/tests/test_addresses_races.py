"""The address book under real concurrency (threads, each with its own database connection):
the owner's row lock takes one account's writes one at a time, so racing requests never pass
the limit nor leave two defaults (or none). On PostgreSQL that is the row lock at work; on
SQLite (IMMEDIATE transactions, one writer at a time) the same holds and the test passes too,
so it carries no `postgres` marker."""

import threading

import pytest
from django.core.exceptions import ValidationError
from django.db import connections

from accounts.addresses import (
    MAX_ADDRESSES,
    TOO_MANY_ADDRESSES,
    address_create,
    address_make_default,
)
from accounts.models import Address
from accounts.tests.factories import UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

RACERS = 4
FIELDS = {
    "full_name": "Jane Rider",
    "line1": "1 Main St",
    "city": "Springfield",
    "postcode": "62701",
    "country": "US",
    "phone": "+12175550100",
}


def race(*actions):
    """Run `actions` at once (a barrier releases them together); their results or errors."""
    start = threading.Barrier(len(actions))
    results = [None] * len(actions)

    def run(index, action):
        try:
            start.wait()
            results[index] = action()
        except Exception as exc:  # a refusal is a result here too
            results[index] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i, a)) for i, a in enumerate(actions)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def create(owner):
    return lambda: address_create(owner=owner, **FIELDS)


def test_racing_first_addresses_leave_exactly_one_default():
    owner = UserFactory()

    results = race(*(create(owner) for _ in range(RACERS)))

    assert all(isinstance(r, Address) for r in results), results
    assert Address.objects.filter(owner=owner).count() == RACERS
    assert Address.objects.filter(owner=owner, is_default=True).count() == 1


def test_racing_creates_never_pass_the_limit():
    owner = UserFactory()
    for _ in range(MAX_ADDRESSES - 1):
        address_create(owner=owner, **FIELDS)

    results = race(*(create(owner) for _ in range(RACERS)))

    saved = [r for r in results if isinstance(r, Address)]
    refused = [r for r in results if isinstance(r, ValidationError)]
    assert (len(saved), len(refused)) == (1, RACERS - 1), results
    assert {tuple(r.messages) for r in refused} == {(TOO_MANY_ADDRESSES,)}
    assert Address.objects.filter(owner=owner).count() == MAX_ADDRESSES


def test_racing_make_defaults_leave_exactly_one():
    owner = UserFactory()
    rows = [address_create(owner=owner, **FIELDS) for _ in range(RACERS)]

    results = race(*(lambda a=a: address_make_default(address=a) for a in rows))

    assert all(isinstance(r, Address) for r in results), results
    assert Address.objects.filter(owner=owner, is_default=True).count() == 1
