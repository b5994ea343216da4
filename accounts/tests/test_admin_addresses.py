"""Saved addresses in Django admin: list and search, and every write through the address
services (the first is the default, the limit, the default moving on delete, "Make default")."""

import re

from accounts.addresses import MAX_ADDRESSES, TOO_MANY_ADDRESSES, address_create
from accounts.models import Address
from accounts.validators import US_POSTCODE_INVALID
from core.phones import PHONE_INVALID

CHANGELIST = "/admin/accounts/address/"
FORM = {
    "full_name": "Jane Rider",
    "line1": "1 Main St",
    "line2": "",
    "city": "Springfield",
    "region": "IL",
    "postcode": "62701",
    "country": "US",
    "phone": "+1 217 555 0100",
}


def saved(owner, **fields) -> Address:
    stored = {
        "full_name": "Ola Nordmann",
        "line1": "Storgata 1",
        "city": "Oslo",
        "postcode": "0155",
        "country": "NO",
        "phone": "+4722000000",
    }
    return address_create(owner=owner, **{**stored, **fields})


def errors_of(response) -> list[str]:
    return [
        m for form in [response.context["adminform"].form] for m in form.errors.get("__all__", [])
    ]


def test_the_list_searches_by_name_and_email(staff_client, user, other_user):
    saved(user, full_name="Valentino Rossi")
    saved(other_user, full_name="Marc Marquez")

    by_name = staff_client.get(CHANGELIST + "?q=valent")
    by_email = staff_client.get(CHANGELIST + f"?q={other_user.email}")

    assert [a.full_name for a in by_name.context["cl"].result_list] == ["Valentino Rossi"]
    assert [a.full_name for a in by_email.context["cl"].result_list] == ["Marc Marquez"]


def test_adding_goes_through_the_service_the_first_being_the_default(staff_client, user):
    response = staff_client.post(CHANGELIST + "add/", {**FORM, "owner": user.pk})

    assert response.status_code == 302
    address = Address.objects.get(owner=user)
    assert (address.phone, address.is_default) == ("+12175550100", True)


def test_adding_checks_the_postcode_and_phone(staff_client, user):
    response = staff_client.post(
        CHANGELIST + "add/", {**FORM, "owner": user.pk, "postcode": "6270", "phone": "x"}
    )

    assert response.status_code == 200
    form = response.context["adminform"].form
    assert form.errors["postcode"] == [US_POSTCODE_INVALID]
    assert form.errors["phone"] == [PHONE_INVALID]
    assert not Address.objects.exists()


def test_adding_past_twenty_says_so(staff_client, user):
    for n in range(MAX_ADDRESSES):
        saved(user, line1=f"{n} Storgata")

    response = staff_client.post(CHANGELIST + "add/", {**FORM, "owner": user.pk})

    assert response.status_code == 200
    assert response.context["adminform"].form.non_field_errors() == [TOO_MANY_ADDRESSES]
    assert Address.objects.filter(owner=user).count() == MAX_ADDRESSES


def test_changing_keeps_the_owner_and_the_default(staff_client, user, other_user):
    address = saved(user)

    response = staff_client.post(
        f"{CHANGELIST}{address.pk}/change/", {**FORM, "owner": other_user.pk, "city": "Chicago"}
    )

    assert response.status_code == 302
    address.refresh_from_db()
    assert (address.owner, address.city, address.is_default) == (user, "Chicago", True)


def test_deleting_the_default_makes_the_newest_the_default(staff_client, user):
    default = saved(user, city="Default")
    saved(user, city="Older")
    newer = saved(user, city="Newer")

    response = staff_client.post(f"{CHANGELIST}{default.pk}/delete/", {"post": "yes"})

    assert response.status_code == 302
    assert list(Address.objects.filter(owner=user, is_default=True)) == [newer]


def test_deleting_several_keeps_one_default(staff_client, user):
    default, older, newer = saved(user), saved(user), saved(user)

    staff_client.post(
        CHANGELIST,
        {"action": "delete_selected", "_selected_action": [default.pk, newer.pk], "post": "yes"},
    )

    assert list(Address.objects.filter(owner=user)) == [older]
    older.refresh_from_db()
    assert older.is_default


def test_make_default_action(staff_client, user):
    saved(user)
    second = saved(user)

    response = staff_client.post(
        CHANGELIST, {"action": "make_default", "_selected_action": [second.pk]}
    )

    assert response.status_code == 302
    assert list(Address.objects.filter(owner=user, is_default=True)) == [second]


def test_the_user_page_links_the_accounts_addresses(staff_client, user, other_user):
    saved(user)
    saved(user)
    saved(other_user)

    html = staff_client.get(f"/admin/accounts/user/{user.pk}/change/").content.decode()
    link = re.search(r'<a href="([^"]+)">2 saved</a>', html)

    assert link
    listed = staff_client.get(link.group(1).replace("&amp;", "&"))
    assert listed.status_code == 200
    assert {a.owner for a in listed.context["cl"].result_list} == {user}
