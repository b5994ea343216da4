"""core.caching.statements: a query compiled once, run again with other values, answers what
the ORM answers for them, on SQLite as on PostgreSQL."""

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db.models import Q
from django.utils import timezone

from core.caching.statements import (
    STAND_IN_TIME,
    Statement,
    stand_in_numbers,
    stand_in_text,
)

pytestmark = pytest.mark.django_db
User = get_user_model()
LOGIN = User.USERNAME_FIELD


def people(ids, name, joined_after):
    """Users among `ids`, or named `name`, who joined after `joined_after`."""
    chosen = Q(pk__in=ids) | Q(**{LOGIN: name})
    return User.objects.filter(chosen, date_joined__gt=joined_after).order_by("pk")


def logins(ids, name, joined_after):
    return people(ids, name, joined_after).values_list(LOGIN)


@pytest.fixture
def users():
    now = timezone.now()
    return [
        User.objects.create(**{LOGIN: f"rider{n}"}, date_joined=now - timedelta(days=n))
        for n in range(5)
    ]


def test_a_compiled_query_answers_what_the_orm_does_for_other_values(users):
    statement = Statement.of(
        logins, ids=stand_in_numbers(2), name=stand_in_text("name"), joined_after=STAND_IN_TIME
    )
    answers = []
    for chosen, named, days in [((0, 1), "rider4", 10), ((2, 3), "nobody", 2.5), ((4, 4), "", 1)]:
        ids = [users[n].pk for n in chosen]
        after = timezone.now() - timedelta(days=days)
        answers.append(statement.run(ids=ids, name=named, joined_after=after))
        assert answers[-1] == list(logins(ids, named, after))
    assert answers == [[("rider0",), ("rider1",), ("rider4",)], [("rider2",)], []]


def test_a_value_used_twice_in_a_query_is_replaced_everywhere(users):
    def own_or_group(number):
        return User.objects.filter(Q(pk=number) | Q(groups__pk=number)).values_list(LOGIN)

    statement = Statement.of(own_or_group, number=stand_in_numbers(1)[0])
    assert statement.run(number=users[3].pk) == [("rider3",)]
    group = Group.objects.create(pk=users[1].pk + 1000)
    users[2].groups.add(group)
    assert statement.run(number=group.pk) == [("rider2",)]


def test_a_stand_in_the_orm_writes_otherwise_than_a_real_value_is_refused():
    """An integer column's lookup of a number beyond its range is left out of the SQL: a
    stand-in that did that would drop a condition from every run."""

    def by_id(number):
        return User.objects.filter(Q(pk=number) | Q(groups__pk=number))

    with pytest.raises(ValueError, match="other SQL for these stand-ins"):
        Statement.of(by_id, number=-(2**70))


def test_a_stand_in_the_query_does_not_use_is_refused():
    with pytest.raises(ValueError, match="not among the statement's parameters"):
        Statement.of(lambda number: User.objects.all(), number=stand_in_numbers(1)[0])


def test_as_many_values_as_stand_ins_are_needed(users):
    statement = Statement.of(
        lambda ids: User.objects.filter(pk__in=ids).values_list("pk"), ids=stand_in_numbers(2)
    )
    with pytest.raises(ValueError, match="2 values expected"):
        statement.run(ids=[users[0].pk])


def test_stand_ins_started_elsewhere_never_meet():
    assert not set(stand_in_numbers(3)) & set(stand_in_numbers(3, start=3))
