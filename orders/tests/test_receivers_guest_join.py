"""A guest's orders join the account that verifies the same e-mail address (API.md "After the
sale"): a confirmed address, a Google sign-up (allauth saves its address verified), or an
address added and verified later; never an address only claimed (not verified)."""

import re

import pytest
from allauth.account.models import EmailAddress
from allauth.account.signals import email_confirmed
from rest_framework.test import APIClient

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


# A sign-up with a password: the address is not verified, so it takes nothing at once; when
# guests' orders of it wait, its confirmation link is mailed, and following it takes them.
SIGNUP = {"name": "Ann", "email": "Ann@Example.com", "password": "secret123"}


def confirm_link(mail) -> str:
    return re.search(r"https?://[^/\s]+(/accounts/confirm-email/[^\s]+/)", mail.body).group(1)


@pytest.mark.django_db(transaction=True)  # its mail is sent after the commit
def test_an_api_sign_up_is_mailed_the_link_that_takes_them(client, guests, sent_mail):
    answer = APIClient().post("/api/signup", SIGNUP, format="json")
    assert answer.status_code == 201
    user = UserFactory._meta.model.objects.get(pk=answer.json()["_id"])
    assert owners(guests) == [None, None, None]  # not before the address is verified
    [mail] = sent_mail
    assert mail.to == ["ann@example.com"]
    client.post(confirm_link(mail))
    assert owners(guests) == [user, user, None]
    mine = bearer_client(user).get("/api/booking", {"email": user.email}).json()
    assert sorted(b["_id"] for b in mine) == sorted([guests[0].pk, guests[1].pk])


@pytest.mark.django_db(transaction=True)
def test_the_sign_up_page_too(client, guests, sent_mail):
    form = {"name": "Ann", "email": "ann@example.com", "password1": "secret123"}
    assert client.post("/signup", form).status_code == 302
    [mail] = sent_mail
    client.post(confirm_link(mail))
    user = UserFactory._meta.model.objects.get(email="ann@example.com")
    assert owners(guests) == [user, user, None]


@pytest.mark.django_db(transaction=True)
def test_a_sign_up_without_guests_orders_is_mailed_nothing(guests, sent_mail):
    body = {**SIGNUP, "email": "carl@example.com"}
    assert APIClient().post("/api/signup", body, format="json").status_code == 201
    assert len(sent_mail) == 0


@pytest.mark.django_db(transaction=True)
def test_when_allauth_mails_the_link_itself_it_is_mailed_once(settings, client, guests, sent_mail):
    settings.ACCOUNT_EMAIL_VERIFICATION = "optional"  # allauth then mails it at every sign-up
    form = {"name": "Ann", "email": "ann@example.com", "password1": "secret123"}
    assert client.post("/signup", form).status_code == 302
    assert len(sent_mail) == 1
