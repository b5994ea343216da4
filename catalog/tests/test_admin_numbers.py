"""A part's brand and other numbers in Django admin."""

import pytest

from catalog.serializers import NUMBER_TWICE
from catalog.tests.factories import PartFactory
from catalog.tests.test_admin import change_form_data

pytestmark = pytest.mark.django_db


def test_admin_edits_the_brand_and_other_numbers_and_search_finds_them_at_once(staff_client, anon):
    part = PartFactory(name="Sintered pads")
    url = f"/admin/catalog/part/{part.pk}/change/"
    page = staff_client.get(url)
    assert "Also known as (other numbers)" in page.content.decode()
    assert anon.get("/api/allparts?q=1wdw004500").json() == []  # kept
    data = change_form_data(
        page,
        brand="EBC",
        **{
            "other_numbers-0-number": "1WD-W0045-00",
            "other_numbers-0-kind": "oem",
            "other_numbers-0-brand": "Yamaha",
        },
    )
    response = staff_client.post(url, data)
    assert response.status_code == 302
    (found,) = anon.get("/api/allparts?q=1wdw004500").json()
    assert found["brand"] == "EBC"
    assert found["otherNumbers"] == [{"number": "1WD-W0045-00", "kind": "oem", "brand": "Yamaha"}]
    listed = staff_client.get("/admin/catalog/part/?q=1WD-W0045").content.decode()
    assert "Sintered pads" in listed


def test_admin_says_a_number_listed_twice(staff_client):
    part = PartFactory()
    url = f"/admin/catalog/part/{part.pk}/change/"
    data = change_form_data(
        staff_client.get(url),
        **{
            "other_numbers-TOTAL_FORMS": "2",
            "other_numbers-0-number": "AB-1",
            "other_numbers-0-kind": "oem",
            "other_numbers-1-number": "ab 1",
            "other_numbers-1-kind": "aftermarket",
            "other_numbers-1-id": "",
        },
    )
    response = staff_client.post(url, data)
    assert response.status_code == 200
    assert NUMBER_TWICE.format(number="ab 1") in response.content.decode()
    assert not part.other_numbers.exists()
