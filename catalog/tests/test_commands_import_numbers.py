"""manage.py import_numbers (API.md, "Bikes and fitment")."""

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from catalog import serializers as s
from catalog import services
from catalog.search import PartQuery, part_queryset
from catalog.tests.factories import PartFactory

pytestmark = pytest.mark.django_db

HEADER = "partNumber,partId,number,kind,brand\n"


def import_numbers(path) -> tuple[str, str]:
    out, err = StringIO(), StringIO()
    call_command("import_numbers", str(path), stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def write(tmp_path, text: str, name="numbers.csv"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def numbers(part) -> list[tuple[str, str, str]]:
    return list(part.other_numbers.order_by("number").values_list("number", "kind", "brand"))


def test_good_rows_are_imported_and_bad_rows_reported_by_line(tmp_path):
    pads = PartFactory(part_number="FA196HH")
    plug = PartFactory(part_number="CR8E")
    services.part_numbers_set(part=plug, numbers=[{"number": "31916-MKC-A01", "kind": "oem"}])
    PartFactory(part_number="DUP-1")
    PartFactory(part_number="dup 1")
    path = write(
        tmp_path,
        HEADER
        + "fa-196 hh,,06455-MEL-D21,oem,Honda\n"  # line 2
        + f",{plug.pk},31916mkca01,superseded,Honda\n"  # line 3: the same number, now superseded
        + "FA196HH,,X1,copy,EBC\n"  # line 4: bad kind
        + "FA196HH,,,oem,EBC\n"  # line 5: no number
        + "NOPE,,X2,oem,\n"  # line 6: no such part
        + "\n"  # line 7: blank
        + "DUP1,,X3,oem,\n"  # line 8: two parts
        + ",abc,X4,oem,\n"  # line 9
        + "FA196HH,,06455 mel d21,aftermarket,\n"  # line 10: line 2's number again
        + f"FA196HH,,{'9' * 101},oem,\n"  # line 11: too long
        + "FA196HH,,KR-77,aftermarket,\n",  # line 12: no brand
    )
    out, err = import_numbers(path)
    assert out == "Imported 3 numbers; 7 rows rejected.\n"
    assert err.splitlines() == [
        f"line 4: kind: {s.KIND_UNKNOWN}",
        f"line 5: number: {s.NUMBER_REQUIRED}",
        "line 6: partNumber: no part has the part number nope",
        "line 8: partNumber: 2 parts have the part number dup1: give partId instead",
        "line 9: partId: must be a part's id (a whole number)",
        "line 10: number: 06455 mel d21 is listed for this part on line 2 already",
        f"line 11: number: {s.NUMBER_TOO_LONG}",
    ]
    assert numbers(pads) == [("06455-MEL-D21", "oem", "Honda"), ("KR-77", "aftermarket", "")]
    assert numbers(plug) == [("31916mkca01", "superseded", "Honda")]
    # and search finds them at once
    assert [p.pk for p in part_queryset(PartQuery(q="06455MELD21"))] == [pads.pk]


def test_a_header_without_the_columns_imports_nothing(tmp_path):
    path = write(tmp_path, "partNumber,number\nFA1,X1\n")
    with pytest.raises(CommandError, match="lacks kind"):
        import_numbers(path)
    with pytest.raises(CommandError, match="give a .csv file"):
        import_numbers(write(tmp_path, HEADER, name="numbers.txt"))


def test_the_documented_example_imports(tmp_path):
    for number in ("FA252HH", "CR9EIX", "HF204"):  # demo parts
        PartFactory(part_number=number)
    out, err = import_numbers("docs/examples/numbers.csv")
    assert (out, err) == ("Imported 7 numbers.\n", "")
