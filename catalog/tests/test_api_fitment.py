"""Bikes and fitment in the API (API.md, "Bikes and fitment")."""

import pytest

from catalog import services
from catalog.fitment_serializers import UNIVERSAL_REQUIRED, VEHICLES_REQUIRED
from catalog.fitment_serializers import VEHICLE_ID_INVALID as ID_INVALID
from catalog.models import Fitment, Part, Vehicle
from catalog.serializers import VEHICLE_UNKNOWN
from catalog.services import vehicle_get_or_create
from catalog.tests.factories import PartFactory

pytestmark = pytest.mark.django_db


def vehicle(make="Yamaha", model="MT-07", year=2019):
    return vehicle_get_or_create(make=make, model=model, year=year)


def shape(v):
    return {"_id": v.pk, "make": v.make, "model": v.model, "year": v.year, "name": v.name}


class TestPartFields:
    def test_a_part_has_its_part_number_and_universal(self, anon):
        part = PartFactory(part_number="12311-MT4-000", universal=True)
        body = anon.get(f"/api/allparts/{part.pk}").json()
        assert body["partNumber"] == "12311-MT4-000"
        assert body["universal"] is True
        (listed,) = anon.get("/api/allparts").json()
        assert listed["partNumber"] == "12311-MT4-000"
        assert listed["universal"] is True
        assert "fits" not in listed

    def test_admins_post_and_patch_part_numbers_and_universal(self, as_admin):
        new = {"name": "Disc", "price": "80", "minimumOrderQuantity": 1, "availableQuantity": 3}
        response = as_admin.post(
            "/api/allparts", {**new, "partNumber": "DF-1", "universal": True}, format="json"
        )
        assert response.status_code == 201
        assert response.json()["partNumber"] == "DF-1"
        part = Part.objects.get(pk=response.json()["_id"])
        assert (part.part_number, part.universal, part.part_number_normalised) == (
            "DF-1",
            True,
            "df1",
        )
        response = as_admin.patch(
            f"/api/allparts/{part.pk}", {"partNumber": "DF 2", "universal": False}, format="json"
        )
        assert response.status_code == 200
        assert response.json()["partNumber"] == "DF 2"
        assert response.json()["universal"] is False

    def test_a_part_number_over_100_characters_is_a_400(self, as_admin):
        part = PartFactory()
        response = as_admin.patch(
            f"/api/allparts/{part.pk}", {"partNumber": "x" * 101}, format="json"
        )
        assert response.status_code == 400
        assert response.json() == {"partNumber": ["Part number can be at most 100 characters"]}


class TestVehicles:
    def test_makes_are_every_make_with_a_vehicle_by_name(self, anon):
        vehicle("Yamaha", "MT-07", 2019)
        vehicle("BMW", "R 1250 GS", 2020)
        vehicle("Yamaha", "MT-09", 2019)
        response = anon.get("/api/vehicles/makes")
        assert response.status_code == 200
        assert response.json() == ["BMW", "Yamaha"]
        vehicle("Ducati", "Monster", 2021)  # a new make shows at once
        assert anon.get("/api/vehicles/makes/").json() == ["BMW", "Ducati", "Yamaha"]

    def test_vehicles_by_make_model_year_exact_whatever_the_case(self, anon):
        a = vehicle("Yamaha", "MT-07", 2019)
        b = vehicle("Yamaha", "MT-07", 2018)
        c = vehicle("Yamaha", "MT-09", 2019)
        d = vehicle("BMW", "R 1250 GS", 2019)
        vehicle("Yamaha", "MT-07X", 2019)  # exact: not MT-07
        response = anon.get("/api/vehicles?make=yamaha&model=mt-07")
        assert response.status_code == 200
        assert response.json()[:2] == [shape(b), shape(a)]
        assert response["X-Total-Count"] == "2"
        assert [v["_id"] for v in anon.get("/api/vehicles?year=2019&make=YAMAHA").json()] == [
            a.pk,
            Vehicle.objects.get(model="MT-07X").pk,
            c.pk,
        ]
        everything = anon.get("/api/vehicles?limit=2&offset=1")
        assert [v["_id"] for v in everything.json()] == [b.pk, a.pk]
        assert everything["X-Total-Count"] == "5"
        assert anon.get("/api/vehicles").json()[0] == shape(d)
        assert shape(a)["name"] == "2019 Yamaha MT-07"

    @pytest.mark.parametrize("query", ["year=abc", "year=1e3", f"year={2**70}", "limit=0"])
    def test_bad_parameters_are_a_400(self, anon, query):
        response = anon.get(f"/api/vehicles?{query}")
        assert response.status_code == 400
        assert set(response.json()) == {query.split("=")[0]}


class TestFits:
    def test_fits_lists_the_parts_that_fit_or_are_universal_each_saying_so(self, anon):
        mt07, z900 = vehicle(), vehicle("Kawasaki", "Z900", 2020)
        fitted, other, universal = PartFactory(), PartFactory(), PartFactory(universal=True)
        Fitment.objects.create(part=fitted, vehicle=mt07)
        Fitment.objects.create(part=other, vehicle=z900)
        response = anon.get(f"/api/allparts?fits={mt07.pk}")
        assert response.status_code == 200
        body = response.json()
        assert [p["_id"] for p in body] == [universal.pk, fitted.pk]
        assert all(p["fits"] is True for p in body)
        assert response["X-Total-Count"] == "2"

    def test_fits_combines_with_every_other_filter(self, anon):
        brakes = services.category_get_or_create(name="Brakes", slug="brakes")
        mt07 = vehicle()
        cheap = PartFactory(name="Brake disc", price="30", category=brakes)
        dear = PartFactory(name="Brake caliper", price="300", category=brakes)
        empty = PartFactory(name="Brake lever", price="20", available_quantity=0)
        PartFactory(name="Brake hose", price="25")  # does not fit
        for part in (cheap, dear, empty):
            Fitment.objects.create(part=part, vehicle=mt07)
        query = f"/api/allparts?fits={mt07.pk}&q=brake&category=brakes&maxPrice=100&inStock=true"
        assert [p["_id"] for p in anon.get(query).json()] == [cheap.pk]
        by_price = anon.get(f"/api/allparts?fits={mt07.pk}&sort=-price").json()
        assert [p["_id"] for p in by_price] == [dear.pk, cheap.pk, empty.pk]

    @pytest.mark.parametrize("value", ["999999", "abc", "0", str(2**70)])
    def test_an_unknown_vehicle_is_a_400_on_fits(self, anon, value):
        response = anon.get(f"/api/allparts?fits={value}")
        assert response.status_code == 400
        assert response.json() == {"fits": [VEHICLE_UNKNOWN]}


class TestFitment:
    def test_anyone_reads_a_parts_fitment_by_make_model_year(self, anon):
        part = PartFactory()
        b, a = vehicle("Yamaha", "MT-07", 2020), vehicle("BMW", "R 1250 GS", 2019)
        Fitment.objects.create(part=part, vehicle=b)
        Fitment.objects.create(part=part, vehicle=a)
        response = anon.get(f"/api/allparts/{part.pk}/fitment")
        assert response.status_code == 200
        assert response.json() == {"universal": False, "vehicles": [shape(a), shape(b)]}
        assert anon.get("/api/allparts/999999/fitment").status_code == 404

    def test_an_admin_replaces_a_parts_fitment(self, as_admin):
        part = PartFactory()
        old, kept, new = vehicle(year=2014), vehicle(year=2015), vehicle(year=2016)
        Fitment.objects.create(part=part, vehicle=old)
        Fitment.objects.create(part=part, vehicle=kept)
        response = as_admin.put(
            f"/api/allparts/{part.pk}/fitment",
            {"universal": True, "vehicles": [new.pk, kept.pk, new.pk]},
            format="json",
        )
        assert response.status_code == 200
        assert response.json() == {"universal": True, "vehicles": [shape(kept), shape(new)]}
        part.refresh_from_db()
        assert part.universal is True
        assert set(part.vehicles.all()) == {kept, new}

    def test_unknown_vehicle_ids_are_named_in_a_400(self, as_admin):
        part, known = PartFactory(), vehicle()
        url = f"/api/allparts/{part.pk}/fitment"
        response = as_admin.put(
            url, {"universal": False, "vehicles": [known.pk, 999998, 999999]}, format="json"
        )
        assert response.status_code == 400
        assert response.json() == {"vehicles": ["No vehicles have the ids 999998, 999999"]}
        response = as_admin.put(url, {"universal": False, "vehicles": [999]}, format="json")
        assert response.json() == {"vehicles": ["No vehicle has the id 999"]}
        assert not Fitment.objects.exists()

    @pytest.mark.parametrize(
        "body, errors",
        [
            ({}, {"universal": [UNIVERSAL_REQUIRED], "vehicles": [VEHICLES_REQUIRED]}),
            ({"universal": "maybe", "vehicles": "1"}, {"universal": [UNIVERSAL_REQUIRED]}),
            ({"universal": True, "vehicles": [1, "x", None, 2.5]}, {"vehicles": [ID_INVALID]}),
            ({"universal": True, "vehicles": [2**70]}, {"vehicles": [ID_INVALID]}),
        ],
    )
    def test_a_bad_body_is_a_400_per_field(self, as_admin, body, errors):
        part = PartFactory()
        response = as_admin.put(f"/api/allparts/{part.pk}/fitment", body, format="json")
        assert response.status_code == 400
        for field, messages in errors.items():
            assert response.json()[field] == messages

    def test_only_admins_change_fitment(self, anon, as_user):
        part = PartFactory()
        body = {"universal": True, "vehicles": []}
        assert anon.put(f"/api/allparts/{part.pk}/fitment", body, format="json").status_code == 401
        response = as_user.put(f"/api/allparts/{part.pk}/fitment", body, format="json")
        assert response.status_code == 403


def test_the_kept_count_of_a_bikes_parts_follows_every_change(anon):
    mt07 = vehicle()
    part = PartFactory()

    def total():
        return anon.get(f"/api/allparts?fits={mt07.pk}&limit=1")["X-Total-Count"]

    assert total() == "0"
    services.fitment_set(part=part, universal=False, vehicle_ids=[mt07.pk])
    assert total() == "1"
    other = PartFactory(universal=True)  # a new part
    assert total() == "2"
    services.part_update(part=other, universal=False)
    assert total() == "1"
    services.fitment_remove(part=part, make="Yamaha", model="MT-07", year_from=2019, year_to=2019)
    assert total() == "0"
    services.fitment_add(part=part, make="Yamaha", model="MT-07", year_from=2018, year_to=2019)
    assert total() == "1"
    services.part_delete(part=part)
    assert total() == "0"


def test_a_new_vehicle_is_known_at_once_to_fits(anon):
    assert anon.get("/api/allparts?fits=123456").status_code == 400  # kept: unknown
    services.vehicle_save(vehicle=Vehicle(pk=123456, make="Honda", model="CB500F", year=2020))
    assert anon.get("/api/allparts?fits=123456").status_code == 200
