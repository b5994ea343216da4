import json
from decimal import Decimal
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from catalog import serializers as rules
from catalog.models import Part
from catalog.validators import IMG_INVALID

HEADER = "name,img,description,price,minimumOrderQuantity,availableQuantity\n"


def import_parts(path) -> tuple[str, str]:
    """Run the command on `path`; what it wrote to stdout and to stderr."""
    out, err = StringIO(), StringIO()
    call_command("import_parts", str(path), stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def write(tmp_path, name: str, text: str):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def csv_file(tmp_path):
    return write(
        tmp_path,
        "parts.csv",
        HEADER
        + "Chain lube 400 ml,/static/img/parts/placeholder.svg,PTFE spray.,8.99,2,100\n"
        + "Cheap bolt,,,0,1,10\n"
        + '"Tank pad, carbon look",,"Protects the tank,\nstays on in the rain.",14.50,1,0\n'
        + '"Seat cover",,"Grippy,\nwaterproof.",-1,1,1\n'
        + "\n"
        + ",javascript:alert(1),,,0,-1\n"
        + "Fork seal kit,https://cdn.example.com/seal.png,,22,4,40\n",
    )


def test_csv_imports_good_rows_and_reports_bad_ones_by_line(db, csv_file):
    out, err = import_parts(csv_file)

    assert out == "Imported 3 parts; 3 rows rejected.\n"
    assert err.splitlines() == [
        f"line 3: price: {rules.PRICE_POSITIVE}",
        # lines 4-5 and 6-7 are rows with a quoted two-line description; line 8 is blank
        f"line 6: price: {rules.PRICE_POSITIVE}",
        f"line 9: name: {rules.NAME_REQUIRED}; img: {IMG_INVALID}; price: {rules.PRICE_REQUIRED}; "
        f"minimumOrderQuantity: {rules.MIN_ORDER_TOO_LOW}; "
        f"availableQuantity: {rules.STOCK_NEGATIVE}",
    ]
    assert sorted(Part.objects.values_list("name", flat=True)) == [
        "Chain lube 400 ml",
        "Fork seal kit",
        "Tank pad, carbon look",
    ]


def test_csv_values_are_stored_as_the_api_would(db, csv_file):
    import_parts(csv_file)

    lube = Part.objects.get(name="Chain lube 400 ml")
    assert lube.img == "/static/img/parts/placeholder.svg"
    assert lube.description == "PTFE spray."
    assert lube.price == Decimal("8.99")
    assert (lube.minimum_order_quantity, lube.available_quantity) == (2, 100)
    pad = Part.objects.get(name="Tank pad, carbon look")
    assert pad.description == "Protects the tank,\nstays on in the rain."
    assert (pad.img, pad.available_quantity) == ("", 0)


def test_csv_with_only_good_rows_says_so(db, tmp_path):
    path = write(tmp_path, "ok.CSV", HEADER + "Brake lever,,,31.00,1,5\n")

    out, err = import_parts(path)

    assert (out, err) == ("Imported 1 part.\n", "")
    assert Part.objects.get().name == "Brake lever"


def test_csv_without_the_required_columns_imports_nothing(db, tmp_path):
    path = write(tmp_path, "parts.csv", "name,cost\nBrake lever,31.00\n")

    with pytest.raises(CommandError, match="header row lacks price, minimumOrderQuantity"):
        import_parts(path)
    assert not Part.objects.exists()


def test_json_imports_good_items_and_reports_bad_ones_by_item_number(db, tmp_path):
    items = [
        {"name": "Clutch cable", "price": 17.4, "minimumOrderQuantity": 1, "availableQuantity": 30},
        {"name": "Bar ends", "price": "12.00", "minimumOrderQuantity": 0, "availableQuantity": 8},
        "not a part",
        {"name": None, "price": "-3", "minimumOrderQuantity": 2, "availableQuantity": 1},
        {
            "name": "Tail tidy",
            "img": "/static/img/parts/placeholder.svg",
            "description": "Short fender kit.",
            "price": "59.95",
            "minimumOrderQuantity": 1,
            "availableQuantity": 0,
        },
    ]
    path = write(tmp_path, "parts.json", json.dumps(items))

    out, err = import_parts(path)

    assert out == "Imported 2 parts; 3 rows rejected.\n"
    assert err.splitlines() == [
        f"item 2: minimumOrderQuantity: {rules.MIN_ORDER_TOO_LOW}",
        "item 3: Invalid data. Expected a dictionary, but got str.",
        f"item 4: name: {rules.NAME_REQUIRED}; price: {rules.PRICE_POSITIVE}",
    ]
    assert Part.objects.get(name="Clutch cable").price == Decimal("17.40")
    assert Part.objects.get(name="Tail tidy").description == "Short fender kit."
    assert Part.objects.count() == 2


def test_malformed_json_is_a_command_error(db, tmp_path):
    path = write(tmp_path, "parts.json", '[{"name": "Brake lever",]')

    with pytest.raises(CommandError, match=r"parts\.json is not valid JSON: .*line 1, column"):
        import_parts(path)
    assert not Part.objects.exists()


def test_json_that_is_not_an_array_is_a_command_error(db, tmp_path):
    path = write(tmp_path, "parts.json", '{"name": "Brake lever"}')

    with pytest.raises(CommandError, match="expected a JSON array of part objects"):
        import_parts(path)


@pytest.mark.parametrize("name", ["parts.txt", "parts.xlsx", "parts"])
def test_other_extensions_are_refused(db, tmp_path, name):
    path = write(tmp_path, name, HEADER + "Brake lever,,,31.00,1,5\n")

    with pytest.raises(CommandError, match="unknown file type; give a .csv or a .json file"):
        import_parts(path)
    assert not Part.objects.exists()


def test_missing_file_is_a_command_error(db, tmp_path):
    with pytest.raises(CommandError, match="Cannot read .*nope.csv: No such file or directory"):
        import_parts(tmp_path / "nope.csv")


def test_file_that_is_not_utf8_is_a_command_error(db, tmp_path):
    path = tmp_path / "parts.csv"
    path.write_bytes((HEADER + "Bremsbeläge,,,20.00,1,5\n").encode("latin-1"))

    with pytest.raises(CommandError, match="not UTF-8 text"):
        import_parts(path)


def test_csv_takes_part_numbers_and_universal(db, tmp_path):
    path = write(
        tmp_path,
        "parts.csv",
        HEADER.strip() + ",partNumber,universal\n"
        "Disc,,,90,1,5,12311-MT4-000,\n"
        "Bulb,,,5,1,5,,true\n"
        "Cable,,,9,1,5," + "x" * 101 + ",\n",
    )
    out, err = import_parts(path)
    assert out == "Imported 2 parts; 1 row rejected.\n"
    assert err == f"line 4: partNumber: {rules.PART_NUMBER_TOO_LONG}\n"
    assert list(Part.objects.order_by("name").values_list("name", "part_number", "universal")) == [
        ("Bulb", "", True),
        ("Disc", "12311-MT4-000", False),
    ]


def test_csv_takes_brands(db, tmp_path):
    path = write(
        tmp_path,
        "parts.csv",
        HEADER.strip()
        + ",brand\nPads,,,30,1,5,EBC\nPlug,,,9,1,5,\nBolt,,,2,1,5,"
        + "b" * 61
        + "\n",
    )
    out, err = import_parts(path)
    assert out == "Imported 2 parts; 1 row rejected.\n"
    assert err == f"line 4: brand: {rules.BRAND_TOO_LONG}\n"
    assert list(Part.objects.order_by("name").values_list("name", "brand")) == [
        ("Pads", "EBC"),
        ("Plug", ""),
    ]


def test_csv_takes_weights_in_grams(db, tmp_path):
    path = write(
        tmp_path,
        "parts.csv",
        HEADER.strip() + ",weight\nDisc,,,90,1,5,1150\nPlug,,,9,1,5,\nAnvil,,,9,1,5,-3\n",
    )
    out, err = import_parts(path)
    assert out == "Imported 2 parts; 1 row rejected.\n"
    assert err == f"line 4: weight: {rules.WEIGHT_NEGATIVE}\n"
    assert list(Part.objects.order_by("name").values_list("name", "weight")) == [
        ("Disc", 1150),
        ("Plug", 0),
    ]
