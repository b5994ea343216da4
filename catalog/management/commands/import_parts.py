"""Import parts from a CSV or JSON file, row by row, with the parts API's rules."""

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from catalog.csv_files import Row, csv_rows, errors_format, missing_columns, text_read
from catalog.serializers import PartInputSerializer
from catalog.services import part_create
from core.wording import counted

FIELDS = (
    "name",
    "img",
    "description",
    "price",
    "minimumOrderQuantity",
    "availableQuantity",
    "partNumber",
    "brand",
    "universal",
    "weight",
)
REQUIRED_COLUMNS = ("name", "price", "minimumOrderQuantity", "availableQuantity")


class Command(BaseCommand):
    help = (
        "Import parts from FILE: a .csv file with a header row, or a .json file holding an "
        f"array of objects. Fields: {', '.join(FIELDS)} (other columns are ignored). Every "
        "row is checked with the parts API's rules; good rows are imported, bad rows are "
        "skipped and reported by line (CSV, the header is line 1) or item number (JSON). "
        "The exit status is 0 even when rows were rejected: read the summary line. A file "
        "that cannot be read or parsed imports nothing and exits with status 1."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="path to a .csv or .json file")

    def handle(self, *args, **options):
        rows = rows_read(Path(options["file"]))
        imported = rejected = 0
        for where, data in rows:
            errors = row_import(data)
            if errors:
                rejected += 1
                self.stderr.write(f"{where}: {errors}")
            else:
                imported += 1
        style = self.style.WARNING if rejected else self.style.SUCCESS
        self.stdout.write(style(summary(imported, rejected)))


def rows_read(path: Path) -> list[Row]:
    """Every row of the file, read before anything is imported."""
    readers = {".csv": csv_rows_of_parts, ".json": json_rows}
    reader = readers.get(path.suffix.lower())
    if reader is None:
        raise CommandError(f"{path}: unknown file type; give a .csv or a .json file.")
    return reader(text_read(path), path)


def csv_rows_of_parts(text: str, path: Path) -> list[Row]:
    return csv_rows(text, path, check_header=lambda header: header_check(header, path))


def header_check(header: list[str], path: Path) -> None:
    missing = missing_columns(header, REQUIRED_COLUMNS)
    if missing:
        raise CommandError(
            f"{path}: the header row lacks {', '.join(missing)}; "
            f"expected the columns {','.join(FIELDS)}."
        )


def json_rows(text: str, path: Path) -> list[Row]:
    try:
        items = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CommandError(
            f"{path} is not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})."
        ) from exc
    if not isinstance(items, list):
        raise CommandError(f"{path}: expected a JSON array of part objects.")
    return [(f"item {number}", item) for number, item in enumerate(items, start=1)]


def row_import(data) -> str:
    """Create a part from one row: "" when imported, else what is wrong with the row."""
    serializer = PartInputSerializer(data=data)
    if not serializer.is_valid():
        return errors_format(serializer.errors)
    part_create(**serializer.validated_data)
    return ""


def summary(imported: int, rejected: int) -> str:
    text = counted(imported, "Imported {count} part", "Imported {count} parts")
    if rejected:
        text += counted(rejected, "; {count} row rejected", "; {count} rows rejected")
    return text + "."
