"""A guest's orders join the account that verifies the same e-mail address (API.md "After the
sale"): a confirmed address, a Google sign-up (allauth saves its address verified), or an
address added and verified later; never an address only claimed (not verified)."""

import pytest
from allauth.account.models import EmailAddress
from allauth.account.signals import email_confirmed

from accounts.tests.factories import UserFactory
from conftest import bearer_client
from orders.models import Booking
from orders.tests.factories import BookingFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def guests():
    """Two guests' orders of ann@example.com, one of bob's, and an account's of ann's."""
    return [
        BookingFactory(guest=True, email="ann@example.com"),
        BookingFactory(guest=True, email="ann@example.com", paid_order=True),
        BookingFactory(guest=True, email="bob@example.com"),
    ]


def owners(bookings) -> list:
    return [Booking.objects.get(pk=b.pk).user for b in bookings]


def test_an_address_saved_verified_takes_the_guests_orders_of_it(guests):
    user = UserFactory(email="ann@example.com")
    EmailAddress.objects.create(user=user, email="Ann@Example.com", verified=True, primary=True)
    assert owners(guests) == [user, user, None]
    # They show in the account's orders, and keep working by their key.
    mine = [b["_id"] for b in bearer_client(user).get("/api/booking").json()]
    assert sorted(mine) == sorted([guests[0].pk, guests[1].pk])
    assert bearer_client(user).get(f"/orders/{guests[0].pk}/{guests[0].guest_key}")
    assert Booking.objects.get(pk=guests[0].pk).guest_key == guests[0].guest_key


def test_an_address_not_verified_takes_nothing(guests):
    user = UserFactory(email="ann@example.com")
    EmailAddress.objects.create(user=user, email="ann@example.com", verified=False, primary=True)
    assert owners(guests) == [None, None, None]


def test_an_address_confirmed_later_takes_them(guests):
    user = UserFactory(email="zed@example.com")
    address = EmailAddress.objects.create(user=user, email="bob@example.com", verified=False)
    assert owners(guests) == [None, None, None]
    address.set_verified(commit=True)  # what the confirmation link does
    assert owners(guests) == [None, None, user]


def test_allauths_email_confirmed_takes_them_too(guests):
    user = UserFactory(email="ann@example.com")
    address = EmailAddress(user=user, email="ann@example.com", verified=True)
    # The signal alone (an address confirmed without a save we receive): the same rule.
    email_confirmed.send(sender=EmailAddress, request=None, email_address=address)
    assert owners(guests) == [user, user, None]


def test_an_accounts_own_orders_and_deleted_accounts_orders_are_no_guests(db):
    gone = BookingFactory(user=None, email="ann@example.com", name="Ann")  # account deleted
    user = UserFactory(email="ann@example.com")
    EmailAddress.objects.create(user=user, email="ann@example.com", verified=True)
    assert owners([gone]) == [None]


def test_my_order_shows_them_at_once(client, guests):
    user = UserFactory(email="ann@example.com")
    client.force_login(user)
    before = client.get("/dashboard/myorder").content.decode()  # kept for the session
    assert f'"_id": {guests[0].pk}' not in before
    EmailAddress.objects.create(user=user, email="ann@example.com", verified=True)
    after = client.get("/dashboard/myorder").content.decode()
    assert f'"_id": {guests[0].pk}' in after
