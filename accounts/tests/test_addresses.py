"""The address book's rules (accounts.addresses): the limit, the one default, the model's
postcode and phone rules as the services apply them, the one-line form and the API dict."""

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from accounts.addresses import (
    ADDRESS_GONE,
    MAX_ADDRESSES,
    TOO_MANY_ADDRESSES,
    address_as_dict,
    address_create,
    address_delete,
    address_list_of,
    address_make_default,
    address_one_line,
    address_update,
)
from accounts.models import Address
from accounts.validators import POSTCODE_INVALID, US_POSTCODE_INVALID
from core.errors import NotFound
from core.phones import PHONE_INVALID

pytestmark = pytest.mark.django_db

JANE = {
    "full_name": "Jane Rider",
    "line1": "1 Main St",
    "line2": "Apt 2",
    "city": "Springfield",
    "region": "IL",
    "postcode": "62701",
    "country": "US",
    "phone": "+1 217 555 0100",
}


def add(owner, **fields) -> Address:
    return address_create(owner=owner, **{**JANE, **fields})


def defaults_of(owner) -> list[int]:
    return list(Address.objects.filter(owner=owner, is_default=True).values_list("pk", flat=True))


def test_the_first_address_is_the_default_and_later_ones_are_not(user):
    first = add(user)
    second = add(user, line1="2 Side St")

    assert first.is_default and not second.is_default
    assert defaults_of(user) == [first.pk]


def test_a_new_address_asked_to_be_the_default_takes_it_from_the_old_one(user):
    first = add(user)
    second = add(user, line1="2 Side St", is_default=True)

    assert defaults_of(user) == [second.pk]
    first.refresh_from_db()
    assert not first.is_default


def test_making_one_default_unmakes_the_other(user):
    first, second = add(user), add(user, line1="2 Side St")

    address_make_default(address=second)

    assert defaults_of(user) == [second.pk]
    address_make_default(address=first)
    assert defaults_of(user) == [first.pk]


def test_accounts_keep_their_own_default(user, other_user):
    mine, theirs = add(user), add(other_user)

    address_make_default(address=add(user, line1="2 Side St"))

    assert defaults_of(other_user) == [theirs.pk]
    assert mine.pk not in defaults_of(user)


def test_the_database_refuses_a_second_default(user):
    add(user)

    with pytest.raises(IntegrityError), transaction.atomic():
        Address.objects.create(owner=user, is_default=True, **JANE)


def test_deleting_the_default_makes_the_newest_remaining_one_the_default(user):
    oldest = add(user, line1="Oldest")
    newest = add(user, line1="Newest")
    middle_default = add(user, line1="Was default", is_default=True)
    assert oldest.pk < newest.pk < middle_default.pk

    address_delete(address=middle_default)

    assert defaults_of(user) == [newest.pk]


def test_deleting_another_address_leaves_the_default(user):
    default, other = add(user), add(user, line1="2 Side St")

    address_delete(address=other)

    assert defaults_of(user) == [default.pk]


def test_deleting_the_last_address_leaves_none(user):
    address_delete(address=add(user))

    assert not Address.objects.filter(owner=user).exists()


def test_at_most_twenty_addresses(user, other_user):
    for n in range(MAX_ADDRESSES):
        add(user, line1=f"{n} Main St")

    with pytest.raises(ValidationError) as refused:
        add(user, line1="One too many")

    assert refused.value.messages == [TOO_MANY_ADDRESSES]
    assert Address.objects.filter(owner=user).count() == MAX_ADDRESSES
    add(other_user)  # the limit is per account
    address_delete(address=address_list_of(user).last())
    add(user, line1="Room again")


def test_the_list_has_the_default_first_then_the_newest(user):
    first = add(user, line1="First")
    second = add(user, line1="Second")
    third = add(user, line1="Third")
    address_make_default(address=second)

    assert list(address_list_of(user)) == [second, third, first]


def test_an_update_changes_the_fields_and_keeps_the_default(user):
    default = add(user)
    other = add(user, line1="2 Side St")

    address_update(address=default, **{**JANE, "city": "Chicago", "postcode": "60601-1234"})
    address_update(address=other, **JANE, is_default=False)

    default.refresh_from_db()
    assert (default.city, default.postcode, default.is_default) == ("Chicago", "60601-1234", True)
    assert defaults_of(user) == [default.pk]


def test_an_update_asked_to_make_the_default_takes_it(user):
    add(user)
    other = add(user, line1="2 Side St")

    address_update(address=other, **JANE, is_default=True)

    assert defaults_of(user) == [other.pk]


@pytest.mark.parametrize(
    ("country", "postcode", "message"),
    [
        ("US", "6270", US_POSTCODE_INVALID),
        ("US", "62701-12", US_POSTCODE_INVALID),
        ("US", "SW1A 1AA", US_POSTCODE_INVALID),
        ("GB", "S", POSTCODE_INVALID),
        ("GB", "SW1A 1AA 1234567", POSTCODE_INVALID),
        ("GB", "SW1A_1AA", POSTCODE_INVALID),
    ],
)
def test_a_bad_postcode_is_refused_with_its_field(user, country, postcode, message):
    with pytest.raises(ValidationError) as refused:
        add(user, country=country, postcode=postcode)

    assert list(refused.value.message_dict) == ["postcode"]
    assert message in refused.value.message_dict["postcode"]  # (beside "at most 12 characters")
    assert not Address.objects.exists()


@pytest.mark.parametrize(
    ("country", "postcode"),
    [("US", "62701"), ("US", "62701-1234"), ("GB", "SW1A 1AA"), ("NL", "1012-AB"), ("IE", "D02")],
)
def test_good_postcodes_are_taken(user, country, postcode):
    assert add(user, country=country, postcode=postcode).postcode == postcode


def test_the_phone_follows_the_spec_rule_separators_dropped(user):
    assert add(user, phone="+1 (217) 555-0100").phone == "+12175550100"
    with pytest.raises(ValidationError) as refused:
        add(user, phone="call me")
    assert refused.value.message_dict == {"phone": [PHONE_INVALID]}


def test_the_one_line_form_and_the_api_dict(user):
    address = add(user)
    plain = add(
        user,
        full_name="Ola",
        line1="Storgata 1",
        line2="",
        region="",
        city="Oslo",
        postcode="0155",
        country="NO",
    )

    assert address_one_line(address) == (
        "Jane Rider, 1 Main St, Apt 2, Springfield, IL 62701, United States of America"
    )
    assert address_one_line(plain) == "Ola, Storgata 1, Oslo, 0155, Norway"
    assert address_as_dict(address) == {
        "_id": address.pk,
        "fullName": "Jane Rider",
        "line1": "1 Main St",
        "line2": "Apt 2",
        "city": "Springfield",
        "region": "IL",
        "postcode": "62701",
        "country": "US",
        "phone": "+12175550100",
        "isDefault": True,
    }


def test_an_address_deleted_meanwhile_is_not_found_and_nothing_changes(user):
    default = add(user)
    stale = add(user, line1="2 Side St")
    Address.objects.filter(pk=stale.pk).delete()  # another request, after `stale` was read

    with pytest.raises(NotFound) as gone:
        address_make_default(address=stale)
    assert gone.value.message == ADDRESS_GONE
    with pytest.raises(NotFound):
        address_update(address=stale, **JANE, is_default=True)

    assert defaults_of(user) == [default.pk]
    assert Address.objects.filter(owner=user).count() == 1
