"""Saved parts' services (catalog.saved): an account's in the database, a visitor's in the
session; "Price dropped"; and at sign-in the visitor's join the account's (the earlier saved
price kept when both saved a part; while there is room)."""

from datetime import datetime, timedelta
from decimal import Decimal

import pytest
from django.contrib.auth.models import AnonymousUser
from django.contrib.sessions.backends.cache import SessionStore
from django.core.exceptions import ValidationError
from django.utils import timezone

from catalog import saved, services
from catalog.models import SavedPart
from catalog.tests.factories import PartFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def session():
    return SessionStore()


def visitor(session) -> dict:
    return {"user": AnonymousUser(), "session": session}


def test_a_visitors_saved_parts_are_kept_in_the_session_with_their_price(session):
    part = PartFactory(price=Decimal("12.50"))
    [shown] = saved.saved_part_add(**visitor(session), part_id=part.pk)
    assert (shown, shown.saved_price, shown.price_dropped) == (part, Decimal("12.50"), False)
    price, at = session[saved.SAVED][str(part.pk)]
    assert price == "12.50"
    assert timezone.now() - datetime.fromisoformat(at) < timedelta(minutes=1)
    assert not SavedPart.objects.exists()


@pytest.mark.parametrize("who", ["visitor", "account"])
def test_price_dropped_when_lower_now_than_when_saved(who, user, session):
    caller = visitor(session) if who == "visitor" else {"user": user, "session": session}
    lower, higher, same = (PartFactory(price=Decimal("20")) for _ in range(3))
    for part in (lower, higher, same):
        saved.saved_part_add(**caller, part_id=part.pk)
    services.part_update(part=lower, price=Decimal("15"))
    services.part_update(part=higher, price=Decimal("25"))
    shown = {p.pk: p.price_dropped for p in saved.saved_parts_read(**caller)}
    assert shown == {lower.pk: True, higher.pk: False, same.pk: False}


def test_one_query_reads_an_accounts_list(user, session, django_assert_num_queries):
    for part in PartFactory.create_batch(5):
        saved.saved_part_add(user=user, session=session, part_id=part.pk)
    with django_assert_num_queries(1):
        parts = saved.saved_parts_read(user=user, session=session)
        assert [p.category for p in parts] == [None] * 5


def test_one_query_reads_a_visitors_list(session, django_assert_num_queries):
    for part in PartFactory.create_batch(5):
        saved.saved_part_add(**visitor(session), part_id=part.pk)
    with django_assert_num_queries(1):
        assert len(saved.saved_parts_read(**visitor(session))) == 5


def test_an_unknown_part_is_refused_on_its_field(user, session):
    for caller in (visitor(session), {"user": user, "session": session}):
        with pytest.raises(ValidationError) as refusal:
            saved.saved_part_add(**caller, part_id=999_999)
        assert refusal.value.message_dict == {"partId": [saved.UNKNOWN_PART]}


# --- Sign-in: the visitor's join the account's ----------------------------------------------


def test_the_visitors_saved_parts_join_the_account_and_leave_the_session(user, session):
    mine, theirs = PartFactory(price=Decimal("10")), PartFactory(price=Decimal("30"))
    saved.saved_part_add(user=user, session=session, part_id=mine.pk)
    saved.saved_part_add(**visitor(session), part_id=theirs.pk)
    services.part_update(part=theirs, price=Decimal("25"))

    saved.saved_parts_merge(user=user, session=session)

    assert saved.SAVED not in session
    rows = {row.part: row.saved_price for row in SavedPart.objects.filter(user=user)}
    assert rows == {mine: Decimal("10"), theirs: Decimal("30")}  # the price when saved
    [first, _] = saved.saved_parts_read(user=user, session=session)
    assert (first, first.price_dropped) == (theirs, True)  # the latest saved first


@pytest.mark.parametrize("first", ["visitor", "account"])
def test_a_part_both_saved_keeps_the_earlier_saved_price(first, user, session):
    part = PartFactory(price=Decimal("50"))
    earlier = timezone.now() - timedelta(days=3)
    if first == "account":
        SavedPart.objects.create(
            user=user, part=part, saved_price=Decimal("50"), created_at=earlier
        )
        services.part_update(part=part, price=Decimal("45"))
        saved.saved_part_add(**visitor(session), part_id=part.pk)  # at 45, now
    else:
        saved.saved_part_add(**visitor(session), part_id=part.pk)  # at 50, now
        session[saved.SAVED][str(part.pk)][1] = earlier.isoformat()
        services.part_update(part=part, price=Decimal("45"))
        SavedPart.objects.create(user=user, part=part, saved_price=Decimal("45"))

    saved.saved_parts_merge(user=user, session=session)

    row = SavedPart.objects.get(user=user)
    assert (row.saved_price, row.created_at) == (Decimal("50"), earlier)


def test_sign_in_joins_while_there_is_room_the_earliest_saved_first(user, session):
    parts = PartFactory.create_batch(saved.MAX_SAVED + 1)
    account, (first, second) = parts[: saved.MAX_SAVED - 1], parts[saved.MAX_SAVED - 1 :]
    SavedPart.objects.bulk_create(
        SavedPart(user=user, part=part, saved_price=part.price) for part in account
    )
    for part in (first, second):  # the visitor's
        saved.saved_part_add(**visitor(session), part_id=part.pk)

    saved.saved_parts_merge(user=user, session=session)

    rows = set(SavedPart.objects.filter(user=user).values_list("part", flat=True))
    assert (len(rows), first.pk in rows, second.pk in rows) == (saved.MAX_SAVED, True, False)


def test_a_part_deleted_before_sign_in_is_left_out(user, session):
    gone, kept = PartFactory.create_batch(2)
    for part in (gone, kept):
        saved.saved_part_add(**visitor(session), part_id=part.pk)
    services.part_delete(part=gone)
    saved.saved_parts_merge(user=user, session=session)
    assert list(SavedPart.objects.filter(user=user).values_list("part", flat=True)) == [kept.pk]


def test_nothing_saved_changes_nothing_at_sign_in(user, session, django_assert_num_queries):
    with django_assert_num_queries(0):
        saved.saved_parts_merge(user=user, session=session)


def test_a_visitors_parts_deleted_since_leave_room(session):
    parts = PartFactory.create_batch(saved.MAX_SAVED + 1)
    for part in parts[: saved.MAX_SAVED]:
        saved.saved_part_add(**visitor(session), part_id=part.pk)
    with pytest.raises(ValidationError):
        saved.saved_part_add(**visitor(session), part_id=parts[-1].pk)
    services.part_delete(part=parts[0])
    listed = saved.saved_part_add(**visitor(session), part_id=parts[-1].pk)
    assert (len(listed), listed[0]) == (saved.MAX_SAVED, parts[-1])
    assert str(parts[0].pk) not in session[saved.SAVED]
