"""manage.py import_fitment (API.md, "Bikes and fitment")."""

import re
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from catalog import fitment_serializers as fs
from catalog.models import Fitment, Vehicle
from catalog.services import vehicle_get_or_create
from catalog.tests.factories import PartFactory

pytestmark = pytest.mark.django_db

HEADER = "partNumber,partId,make,model,yearFrom,yearTo\n"


def import_fitment(path) -> tuple[str, str]:
    out, err = StringIO(), StringIO()
    call_command("import_fitment", str(path), stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def write(tmp_path, text: str, name="fitment.csv"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def fits(part) -> list[str]:
    return sorted(v.name for v in part.vehicles.all())


def test_rows_are_imported_vehicles_created_and_bad_rows_reported_by_line(tmp_path):
    disc = PartFactory(part_number="12311-MT4-000")
    pads = PartFactory(part_number="FA252")
    PartFactory(part_number="DUP-1")
    PartFactory(part_number="dup 1")
    vehicle_get_or_create(make="Yamaha", model="MT-07", year=2014)  # there already
    path = write(
        tmp_path,
        HEADER
        + "12311mt4000,,yamaha,mt-07,2014,2016\n"  # line 2: as the shop spells it
        + f",{pads.pk},Honda,CB500F,2019,\n"  # line 3: one year
        + "FA252,,,CB500F,2019,2020\n"  # line 4: no make
        + "NOPE-1,,Honda,CB500F,2019,2020\n"  # line 5: no such part
        + "\n"  # line 6: blank
        + "DUP1,,Honda,CB500F,2019,2020\n"  # line 7: two parts have it
        + ",abc,Honda,CB500F,2019,2020\n"  # line 8
        + "FA252,,Honda,CB500F,2021,2019\n"  # line 9: backwards
        + ",,Honda,CB500F,2019,2020\n"  # line 10: no part
        + "fa-252,,Honda,CB500F,2019,2020\n",  # line 11: 2019 again, and 2020
    )
    out, err = import_fitment(path)
    assert out == ("Imported 3 rows: 5 fitment rows added, 4 vehicles created; 6 rows rejected.\n")
    assert err.splitlines() == [
        f"line 4: make: {fs.MAKE_REQUIRED}",
        "line 5: partNumber: no part has the part number nope1",
        "line 7: partNumber: 2 parts have the part number dup1: give partId instead",
        "line 8: partId: must be a part's id (a whole number)",
        f"line 9: yearTo: {fs.YEARS_BACKWARDS}",
        "line 10: give the part's partNumber or partId",
    ]
    assert fits(disc) == ["2014 Yamaha MT-07", "2015 Yamaha MT-07", "2016 Yamaha MT-07"]
    assert fits(pads) == ["2019 Honda CB500F", "2020 Honda CB500F"]
    assert list(Vehicle.objects.order_by("make").values_list("make", flat=True).distinct()) == [
        "Honda",
        "Yamaha",
    ]


def test_importing_again_adds_nothing_and_is_no_error(tmp_path):
    PartFactory(part_number="A-1")
    path = write(tmp_path, HEADER + "A-1,,KTM,390 Duke,2017,2023\n")
    import_fitment(path)
    out, err = import_fitment(path)
    assert out == "Imported 1 row: 0 fitment rows added, 0 vehicles created.\n"
    assert err == ""
    assert Fitment.objects.count() == 7


def test_the_part_page_shows_imported_fitment_at_once(tmp_path, client):
    part = PartFactory(part_number="A-1")
    assert "Fitment not yet listed" in client.get(f"/parts/{part.pk}").content.decode()
    import_fitment(write(tmp_path, HEADER + "A-1,,Ducati,Monster,2021,2023\n"))
    assert "Ducati Monster, 2021–2023" in client.get(f"/parts/{part.pk}").content.decode()
    assert client.get("/api/vehicles/makes").json() == ["Ducati"]


def test_a_partid_only_file_is_enough(tmp_path):
    part = PartFactory()
    out, _ = import_fitment(
        write(tmp_path, f"partId,make,model,yearFrom\n{part.pk},BMW,R 1250 GS,2020\n")
    )
    assert out.startswith("Imported 1 row")
    assert fits(part) == ["2020 BMW R 1250 GS"]


@pytest.mark.parametrize(
    "text, message",
    [
        ("make,model,yearFrom\n", "the header row lacks partNumber (or partId)"),
        ("partNumber,make,yearTo\n", "the header row lacks model, yearFrom"),
    ],
)
def test_a_file_without_the_columns_imports_nothing(tmp_path, text, message):
    with pytest.raises(CommandError, match=re.escape(message)):
        import_fitment(write(tmp_path, text))


def test_other_files_are_refused(tmp_path):
    with pytest.raises(CommandError, match="give a .csv file"):
        import_fitment(write(tmp_path, "[]", name="fitment.json"))
    with pytest.raises(CommandError, match="Cannot read"):
        import_fitment(tmp_path / "missing.csv")


SQLITE_BATCHES = "SQLite splits a bulk insert of thousands of rows into statements of 999 values"


@pytest.mark.parametrize(
    "rows", [10, pytest.param(2_000, marks=pytest.mark.postgres(reason=SQLITE_BATCHES))]
)
def test_the_import_is_in_bulk_not_a_query_per_row(tmp_path, rows, django_assert_max_num_queries):
    for n in range(100):
        PartFactory(part_number=f"PN-{n:03d}")
    lines = [f"pn{n % 100:03d},,Honda,Model {n // 100},2000,2004" for n in range(rows)]
    path = write(tmp_path, HEADER + "\n".join(lines) + "\n")
    with django_assert_max_num_queries(16):  # the same for 10 rows and 2,000
        out, err = import_fitment(path)
    assert err == ""
    assert out.startswith(f"Imported {rows} rows: {rows * 5} fitment rows added")
