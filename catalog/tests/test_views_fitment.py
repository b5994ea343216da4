"""The owner's part number on Add parts and Edit part, and Edit part's "Fits these bikes"
(BEYOND.md, "The owner": Fitment)."""

import re

import pytest

from catalog import fitment_serializers as fs
from catalog import services
from catalog.models import Part, Vehicle
from catalog.tests.factories import PartFactory
from core.tests.pages import buttons, field_error, fields, label_of, toasts

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin(client, admin_user):
    client.force_login(admin_user)
    return client


def fitment(client, part, **form):
    return client.post(f"/dashboard/parts/{part.pk}/edit", {"form": "fitment", **form}, follow=True)


def rows(response) -> list[str]:
    html = response.content.decode()
    listed = re.search(r'aria-label="Bikes this part fits">(.*?)</ul>', html, re.S)
    if not listed:
        return []
    return [" ".join(t.split()) for t in re.findall(r"<span[^>]*>(.*?)</span>", listed[1], re.S)]


def test_add_parts_takes_a_part_number(admin):
    response = admin.post(
        "/dashboard/addparts",
        {
            "name": "Oil filter",
            "minimumOrderQuantity": "1",
            "availableQuantity": "5",
            "price": "12",
            "partNumber": "15410-MFJ-D02",
        },
        follow=True,
    )
    assert "Parts Added" in toasts(response)
    assert Part.objects.get(name="Oil filter").part_number == "15410-MFJ-D02"
    assert label_of(admin.get("/dashboard/addparts"), "partNumber") == "Part number"


def test_edit_part_shows_changes_and_clears_the_part_number(admin):
    part = PartFactory(part_number="OLD-1")
    page = admin.get(f"/dashboard/parts/{part.pk}/edit")
    assert fields(page)["partNumber"]["value"] == "OLD-1"
    form = {
        "name": part.name,
        "price": str(part.price),
        "minimumOrderQuantity": part.minimum_order_quantity,
    }
    admin.post(f"/dashboard/parts/{part.pk}/edit", {**form, "partNumber": "NEW 2"})
    part.refresh_from_db()
    assert part.part_number == "NEW 2"
    admin.post(f"/dashboard/parts/{part.pk}/edit", {**form, "partNumber": ""})
    part.refresh_from_db()
    assert part.part_number == ""


def test_saving_the_part_form_keeps_universal(admin):
    part = PartFactory(universal=True)
    form = {"name": "New", "price": "10", "minimumOrderQuantity": 1}
    admin.post(f"/dashboard/parts/{part.pk}/edit", form)
    part.refresh_from_db()
    assert (part.name, part.universal) == ("New", True)


def test_fits_these_bikes_adds_a_year_range_creating_vehicles(admin):
    part = PartFactory()
    page = admin.get(f"/dashboard/parts/{part.pk}/edit")
    assert "No bikes listed yet." in page.content.decode()
    assert {"Save", "Update", "Add"} <= set(buttons(page))
    assert label_of(page, "yearFrom") == "Year from"
    response = fitment(
        admin, part, action="add", make="Yamaha", model="MT-07", yearFrom="2014", yearTo="2020",
        confirmNew="true",
    )  # fmt: skip
    assert "Fitment updated" in toasts(response)
    assert rows(response) == ["Yamaha MT-07, 2014–2020"]
    assert Vehicle.objects.count() == 7
    fitment(admin, part, action="add", make="yamaha", model="mt-07", yearFrom="2022")
    response = fitment(
        admin, part, action="add", make="Honda", model="CB500F", yearFrom="2016", yearTo="2018",
        confirmNew="true",
    )  # fmt: skip
    assert rows(response) == [
        "Honda CB500F, 2016–2018",
        "Yamaha MT-07, 2014–2020",
        "Yamaha MT-07, 2022",
    ]
    assert Vehicle.objects.filter(make="Yamaha").count() == 8  # "yamaha" joined "Yamaha"
    assert "Fitment not yet listed" not in admin.get(f"/parts/{part.pk}").content.decode()


def test_remove_takes_a_row_away(admin):
    part = PartFactory()
    new = {"action": "add", "confirmNew": "true"}
    fitment(admin, part, **new, make="KTM", model="390 Duke", yearFrom="2017", yearTo="2023")
    fitment(admin, part, **new, make="BMW", model="R 1250 GS", yearFrom="2019")
    page = admin.get(f"/dashboard/parts/{part.pk}/edit").content.decode()
    assert 'aria-label="Remove KTM 390 Duke, 2017–2023"' in page
    response = fitment(
        admin, part, action="remove", make="KTM", model="390 Duke", yearFrom="2017", yearTo="2023"
    )
    assert rows(response) == ["BMW R 1250 GS, 2019"]
    assert Vehicle.objects.filter(make="KTM").count() == 7  # the bikes stay


def test_universal_fit_is_a_checkbox(admin):
    part = PartFactory()
    response = fitment(admin, part, action="universal", universal="true")
    part.refresh_from_db()
    assert part.universal is True
    assert "checked" in fields(response)["universal"]
    fitment(admin, part, action="universal")
    part.refresh_from_db()
    assert part.universal is False


@pytest.mark.parametrize(
    "form, field, message",
    [
        ({"model": "MT-07", "yearFrom": "2019"}, "make", fs.MAKE_REQUIRED),
        ({"make": "Yamaha", "yearFrom": "2019"}, "model", fs.MODEL_REQUIRED),
        ({"make": "Yamaha", "model": "MT-07", "yearFrom": "19x"}, "yearFrom", fs.YEAR_FROM_INVALID),
        (
            {"make": "Yamaha", "model": "MT-07", "yearFrom": "2020", "yearTo": "2019"},
            "yearTo",
            fs.YEARS_BACKWARDS,
        ),
    ],
)
def test_a_bad_row_is_said_by_its_field_and_kept(admin, form, field, message):
    part = PartFactory()
    response = fitment(admin, part, action="add", **form)
    assert response.status_code == 200
    assert field_error(response, field) == message
    assert fields(response)["yearFrom"]["value"] == form["yearFrom"]
    assert not part.vehicles.exists()


@pytest.mark.parametrize(
    ("make", "model", "field"),
    [("Zundapp", "KS 50", "make"), ("yamaha", "MT-09", "model")],  # a new make; a new model
)
def test_a_bike_the_shop_does_not_know_is_added_only_when_confirmed(admin, make, model, field):
    part = PartFactory()
    services.vehicle_get_or_create(make="Yamaha", model="MT-07", year=2014)
    row = {"action": "add", "make": make, "model": model, "yearFrom": "1970"}

    refused = fitment(admin, part, **row)

    bike = f"{make} {model}"
    assert field_error(refused, field) == fs.NEW_BIKE.format(bike=bike)
    assert f"Add a new bike: {bike}" in refused.content.decode()  # a box to tick
    assert fields(refused)["confirmNew"]["type"] == "checkbox"
    assert fields(refused)["model"]["value"] == model  # what was typed stays
    assert Vehicle.objects.count() == 1 and not part.vehicles.exists()

    added = fitment(admin, part, **row, confirmNew="true")

    assert "Fitment updated" in toasts(added)
    assert rows(added) == [f"{'Yamaha' if field == 'model' else make} {model}, 1970"]
    assert Vehicle.objects.count() == 2


def test_a_bike_the_shop_knows_needs_no_confirmation_whatever_its_case(admin):
    part = PartFactory()
    services.vehicle_get_or_create(make="Yamaha", model="MT-07", year=2014)

    response = fitment(admin, part, action="add", make="yamaha", model="mt-07", yearFrom="2015")

    assert "Fitment updated" in toasts(response)
    assert rows(response) == ["Yamaha MT-07, 2015"]  # a new year of a known bike
    assert fields(admin.get(f"/dashboard/parts/{part.pk}/edit"))["confirmNew"]["type"] == "hidden"


def test_only_admins_edit_fitment(client, user):
    part = PartFactory()
    client.force_login(user)
    fitment(client, part, action="universal", universal="true")
    part.refresh_from_db()
    assert part.universal is False


def test_a_service_change_shows_in_the_editor(admin):
    part = PartFactory()
    ids = [
        services.vehicle_get_or_create(make="Suzuki", model="SV650", year=y).pk
        for y in (2016, 2017)
    ]
    services.fitment_set(part=part, universal=False, vehicle_ids=ids)
    assert rows(admin.get(f"/dashboard/parts/{part.pk}/edit")) == ["Suzuki SV650, 2016–2017"]
