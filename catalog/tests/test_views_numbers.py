"""A part's brand and other numbers on Add parts, Edit part and the part page."""

import pytest

from catalog import serializers as s
from catalog import services
from catalog.models import Part
from catalog.tests.factories import PartFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin(client, admin_user):
    client.force_login(admin_user)
    return client


def edit_url(part) -> str:
    return f"/dashboard/parts/{part.pk}/edit"


def numbers_form(*rows) -> dict:
    return {
        "form": "numbers",
        "number": [r[0] for r in rows],
        "kind": [r[1] for r in rows],
        "brand": [r[2] for r in rows],
    }


def test_add_parts_takes_a_brand(admin):
    form = {"name": "Plug", "price": "9", "minimumOrderQuantity": "1", "availableQuantity": "4"}
    admin.post("/dashboard/addparts", {**form, "brand": "NGK"}, follow=True)
    assert Part.objects.get().brand == "NGK"


def test_edit_part_changes_and_clears_the_brand(admin):
    part = PartFactory(brand="EBC")
    page = admin.get(edit_url(part)).content.decode()
    assert 'name="brand"' in page and 'value="EBC"' in page
    form = {
        "name": part.name,
        "price": str(part.price),
        "minimumOrderQuantity": part.minimum_order_quantity,
    }
    admin.post(edit_url(part), {**form, "brand": "SBS"}, follow=True)
    part.refresh_from_db()
    assert part.brand == "SBS"
    admin.post(edit_url(part), {**form, "brand": ""}, follow=True)
    part.refresh_from_db()
    assert part.brand == ""


def test_edit_part_sets_the_other_numbers_and_the_part_page_shows_them(admin, anon, client):
    part = PartFactory(name="Sintered pads", brand="EBC")
    assert "Also known as" not in client.get(f"/parts/{part.pk}").content.decode()  # kept
    response = admin.post(
        edit_url(part),
        numbers_form(
            ("1WD-W0045-00", "oem", "Yamaha"),
            ("FA252", "superseded", "EBC"),
            ("", "oem", ""),  # an empty row is left out
        ),
        follow=True,
    )
    assert response.status_code == 200
    assert list(part.other_numbers.values_list("number", "kind", "brand")) == [
        ("1WD-W0045-00", "oem", "Yamaha"),
        ("FA252", "superseded", "EBC"),
    ]
    page = admin.get(edit_url(part)).content.decode()
    assert 'value="1WD-W0045-00"' in page
    client.logout()
    html = client.get(f"/parts/{part.pk}").content.decode()
    assert "Also known as" in html
    assert "1WD-W0045-00" in html and "(Yamaha OEM)" in html
    assert "FA252" in html and "(EBC Superseded)" in html
    assert "Brand: <span" in html and "EBC" in html


def test_edit_part_says_bad_numbers_and_keeps_what_was_typed(admin):
    part = PartFactory()
    services.part_numbers_set(part=part, numbers=[{"number": "KEEP-1", "kind": "oem"}])
    response = admin.post(
        edit_url(part), numbers_form(("AB-1", "oem", ""), ("ab 1", "aftermarket", ""))
    )
    html = response.content.decode()
    assert s.NUMBER_TWICE.format(number="ab 1") in html
    assert 'value="ab 1"' in html
    response = admin.post(edit_url(part), numbers_form(("AB-1", "copy", "")))
    assert s.KIND_UNKNOWN in response.content.decode()
    assert list(part.other_numbers.values_list("number", flat=True)) == ["KEEP-1"]
