"""Fitment in Django admin: vehicles searched and kept through the services, a part's
fitment inline, its part number and universal flag."""

import pytest

from catalog import services
from catalog.models import Fitment, Vehicle
from catalog.tests.factories import PartFactory
from catalog.tests.test_admin import change_form_data

pytestmark = pytest.mark.django_db


def test_vehicles_are_searched_and_added_with_the_makes_list_kept_right(staff_client, anon):
    services.vehicle_get_or_create(make="Yamaha", model="MT-07", year=2019)
    services.vehicle_get_or_create(make="Honda", model="CB500F", year=2019)
    found = staff_client.get("/admin/catalog/vehicle/?q=mt-07").content.decode()
    assert "MT-07" in found and "CB500F" not in found
    assert anon.get("/api/vehicles/makes").json() == ["Honda", "Yamaha"]  # now kept
    response = staff_client.post(
        "/admin/catalog/vehicle/add/", {"make": "Ducati", "model": "Monster", "year": "2021"}
    )
    assert response.status_code == 302
    assert anon.get("/api/vehicles/makes").json() == ["Ducati", "Honda", "Yamaha"]


def test_the_part_page_in_admin_edits_its_fitment_inline(staff_client, client):
    part = PartFactory(part_number="AB-1")
    mt07 = services.vehicle_get_or_create(make="Yamaha", model="MT-07", year=2019)
    url = f"/admin/catalog/part/{part.pk}/change/"
    page = staff_client.get(url)
    assert "Fits these bikes" in page.content.decode()
    assert "Fitment not yet listed" in client.get(f"/parts/{part.pk}").content.decode()  # kept
    data = change_form_data(page, **{"fitments-0-vehicle": mt07.pk, "part_number": "AB-2"})
    response = staff_client.post(url, data)
    assert response.status_code == 302
    assert list(Fitment.objects.values_list("part", "vehicle")) == [(part.pk, mt07.pk)]
    html = client.get(f"/parts/{part.pk}").content.decode()
    assert "Yamaha MT-07, 2019" in html
    assert "AB-2" in html


def test_the_vehicle_autocomplete_answers_for_the_inline(staff_client):
    services.vehicle_get_or_create(make="KTM", model="390 Duke", year=2020)
    response = staff_client.get(
        "/admin/autocomplete/",
        {"term": "duke", "app_label": "catalog", "model_name": "fitment", "field_name": "vehicle"},
    )
    assert response.status_code == 200
    assert [r["text"] for r in response.json()["results"]] == ["2020 KTM 390 Duke"]


def test_deleting_a_vehicle_takes_its_fitment_off_the_part_page(staff_client, client):
    part = PartFactory()
    vehicle = services.vehicle_get_or_create(make="Suzuki", model="SV650", year=2018)
    services.fitment_set(part=part, universal=False, vehicle_ids=[vehicle.pk])
    assert "Suzuki SV650, 2018" in client.get(f"/parts/{part.pk}").content.decode()
    response = staff_client.post(f"/admin/catalog/vehicle/{vehicle.pk}/delete/", {"post": "yes"})
    assert response.status_code == 302
    assert not Vehicle.objects.exists()
    assert "Fitment not yet listed" in client.get(f"/parts/{part.pk}").content.decode()
