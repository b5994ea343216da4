"""Addresses at /dashboard/addresses (My Profile → Addresses): the list with the default
marked, add, edit, make default and delete, through the page's own forms."""

import re
from html import unescape

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.addresses import MAX_ADDRESSES, TOO_MANY_ADDRESSES, address_create
from accounts.models import Address
from accounts.serializers import ADDRESS_REQUIRED, COUNTRY_INVALID
from accounts.validators import US_POSTCODE_INVALID
from accounts.views import (
    ADDRESS_ADDED,
    ADDRESS_DELETED,
    ADDRESS_MADE_DEFAULT,
    ADDRESS_UPDATED,
)
from core.phones import PHONE_INVALID, PHONE_REQUIRED
from core.tests.pages import buttons, field_error, field_names, fields, parse, toasts

pytestmark = pytest.mark.django_db

URL = "/dashboard/addresses"
FORM = {
    "fullName": "Jane Rider",
    "line1": "1 Main St",
    "line2": "Apt 2",
    "city": "Springfield",
    "region": "IL",
    "postcode": "62701",
    "country": "US",
    "phone": "+1 217 555 0100",
}
LABELS = {
    "fullName": "Full name",
    "line1": "Address line 1",
    "line2": "Address line 2",
    "city": "City",
    "region": "State / region",
    "postcode": "Postcode",
    "country": "Country",
    "phone": "Phone",
}


@pytest.fixture
def signed_in(client, user):
    client.force_login(user)
    return client


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


def text(response) -> str:
    """What a person reads: the page's text without tags, spaces collapsed."""
    body = re.sub(r"<(script|style)\b.*?</\1>", " ", response.content.decode(), flags=re.S)
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", body)).split())


def form_error(response) -> str:
    match = re.search(
        r'<p class="text-error text-sm" role="alert">(.*?)</p>', response.content.decode()
    )
    return unescape(match.group(1)) if match else ""


@pytest.mark.parametrize("url", [URL, f"{URL}/1/edit"])
def test_visitors_go_to_login(client, url):
    response = client.get(url)

    assert (response.status_code, response["Location"]) == (302, f"/login?next={url}")


@pytest.mark.parametrize("action", ["default", "delete"])
def test_visitors_cannot_post_actions(client, user, action):
    address = saved(user, is_default=False)
    url = f"{URL}/{address.pk}/{action}"

    response = client.post(url)

    assert (response.status_code, response["Location"]) == (302, f"/login?next={url}")
    assert Address.objects.filter(pk=address.pk).exists()


def test_my_profile_links_addresses(signed_in):
    html = signed_in.get("/dashboard/profile").content.decode()

    assert re.search(r'<a [^>]*href="/dashboard/addresses"[^>]*>Addresses</a>', html)


def test_an_empty_book_shows_the_form_with_its_labels(signed_in):
    response = signed_in.get(URL)

    assert response.status_code == 200
    assert "No saved addresses yet." in text(response)
    assert field_names(response) == [*LABELS, "isDefault"]
    labels = parse(response).labels
    assert {name: labels[f"id_{name}"] for name in LABELS} == LABELS
    assert fields(response)["phone"]["type"] == "tel"
    html = response.content.decode()
    assert '<option value="US">United States of America</option>' in html
    assert '<option value="NO">Norway</option>' in html
    assert "Add address" in buttons(response)


def test_adding_an_address_says_so_and_lists_it_as_the_default(signed_in, user):
    response = signed_in.post(URL, FORM)

    assert (response.status_code, response["Location"]) == (302, URL)
    address = Address.objects.get(owner=user)
    assert (address.full_name, address.phone, address.is_default) == (
        "Jane Rider",
        "+12175550100",
        True,
    )
    page = signed_in.get(URL)
    assert toasts(page) == [ADDRESS_ADDED] == ["Address added"]
    shown = text(page)
    assert (
        "Jane Rider Default 1 Main St, Apt 2 Springfield, IL 62701 United States of America"
        in shown
    )
    assert buttons(page).count("Make default") == 0
    assert "Delete" in buttons(page)


def test_the_default_is_marked_and_the_others_offer_make_default(signed_in, user):
    saved(user, full_name="First Rider")
    saved(user, full_name="Second Rider")

    page = text(signed_in.get(URL))

    assert page.count("Default") == 1
    assert page.index("First Rider Default") < page.index("Second Rider")
    assert "Make default" in page


def test_bad_fields_show_their_messages_and_keep_what_was_typed(signed_in, user):
    response = signed_in.post(
        URL, {**FORM, "fullName": " ", "postcode": "6270", "country": "XX", "phone": "call me"}
    )

    assert response.status_code == 200
    assert field_error(response, "fullName") == ADDRESS_REQUIRED["fullName"]
    assert field_error(response, "postcode") == ""  # "XX" is not the US: the general rule
    assert field_error(response, "country") == COUNTRY_INVALID
    assert field_error(response, "phone") == PHONE_INVALID
    assert fields(response)["line1"]["value"] == "1 Main St"
    assert not Address.objects.exists()
    assert toasts(response) == []

    response = signed_in.post(URL, {**FORM, "postcode": "6270", "phone": ""})

    assert field_error(response, "postcode") == US_POSTCODE_INVALID
    assert field_error(response, "phone") == PHONE_REQUIRED
    assert '<option value="US" selected>' in response.content.decode()


def test_every_required_field_says_so(signed_in):
    response = signed_in.post(URL, {})

    for name, message in ADDRESS_REQUIRED.items():
        assert field_error(response, name) == message
    assert field_error(response, "phone") == PHONE_REQUIRED
    assert field_error(response, "line2") == field_error(response, "region") == ""


def test_past_twenty_the_form_says_so(signed_in, user):
    for n in range(MAX_ADDRESSES):
        saved(user, line1=f"{n} Storgata")

    response = signed_in.post(URL, FORM)

    assert response.status_code == 200
    assert form_error(response) == TOO_MANY_ADDRESSES
    assert Address.objects.filter(owner=user).count() == MAX_ADDRESSES


def test_editing_shows_the_address_and_saves_the_change(signed_in, user):
    address = saved(user)
    edit = f"{URL}/{address.pk}/edit"

    page = signed_in.get(edit)

    assert page.status_code == 200
    assert "Edit address" in text(page)
    assert fields(page)["fullName"]["value"] == "Ola Nordmann"
    assert '<option value="NO" selected>' in page.content.decode()
    assert "Save address" in buttons(page)

    response = signed_in.post(edit, {**FORM, "city": "Chicago", "postcode": "60601"})

    assert (response.status_code, response["Location"]) == (302, URL)
    address.refresh_from_db()
    assert (address.city, address.country.code, address.is_default) == ("Chicago", "US", True)
    assert toasts(signed_in.get(URL)) == [ADDRESS_UPDATED] == ["Address updated"]


def test_editing_with_bad_fields_shows_the_messages(signed_in, user):
    address = saved(user)

    response = signed_in.post(f"{URL}/{address.pk}/edit", {**FORM, "phone": "12"})

    assert response.status_code == 200
    assert field_error(response, "phone") == PHONE_INVALID
    address.refresh_from_db()
    assert address.city == "Oslo"


def test_make_default_moves_the_mark(signed_in, user):
    first, second = saved(user, full_name="First Rider"), saved(user, full_name="Second Rider")

    response = signed_in.post(f"{URL}/{second.pk}/default")

    assert (response.status_code, response["Location"]) == (302, URL)
    page = signed_in.get(URL)
    assert toasts(page) == [ADDRESS_MADE_DEFAULT] == ["Default address changed"]
    assert "Second Rider Default" in text(page)
    first.refresh_from_db()
    assert not first.is_default


def test_delete_removes_the_address_and_the_newest_becomes_the_default(signed_in, user):
    default = saved(user, full_name="First Rider")
    saved(user, full_name="Second Rider")
    saved(user, full_name="Third Rider")

    response = signed_in.post(f"{URL}/{default.pk}/delete")

    assert (response.status_code, response["Location"]) == (302, URL)
    page = signed_in.get(URL)
    assert toasts(page) == [ADDRESS_DELETED] == ["Address deleted"]
    shown = text(page)
    assert "First Rider" not in shown
    assert "Third Rider Default" in shown


def test_the_delete_form_asks_first(signed_in, user):
    address = saved(user)

    html = signed_in.get(URL).content.decode()

    assert f'action="/dashboard/addresses/{address.pk}/delete" data-confirm="Are you sure?"' in html


@pytest.mark.parametrize("action", ["default", "delete"])
def test_actions_take_post_only(signed_in, user, action):
    address = saved(user)

    assert signed_in.get(f"{URL}/{address.pk}/{action}").status_code == 405
    assert Address.objects.filter(pk=address.pk).exists()


@pytest.mark.parametrize("action", ["edit", "default", "delete"])
def test_another_accounts_address_is_not_found(signed_in, other_user, action):
    theirs = saved(other_user)

    response = signed_in.post(f"{URL}/{theirs.pk}/{action}", FORM)

    assert response.status_code == 404
    theirs.refresh_from_db()
    assert (theirs.city, theirs.is_default) == ("Oslo", True)


def test_another_accounts_addresses_are_not_listed(signed_in, other_user):
    saved(other_user, full_name="Someone Else")

    assert "Someone Else" not in text(signed_in.get(URL))


def test_the_page_costs_the_same_queries_for_one_address_or_twenty(
    signed_in, user, django_assert_num_queries
):
    saved(user)
    signed_in.get(URL)  # the sidebar's fragment is kept after the first page
    with CaptureQueriesContext(connection) as one:
        signed_in.get(URL)
    for n in range(MAX_ADDRESSES - 1):
        saved(user, line1=f"{n} Storgata")

    with django_assert_num_queries(len(one.captured_queries)):
        response = signed_in.get(URL)

    assert response.content.decode().count("data-address=") == MAX_ADDRESSES
