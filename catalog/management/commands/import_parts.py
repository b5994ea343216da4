"""Import parts from a CSV or JSON file, row by row, with the parts API's rules."""

import csv
import io
import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from rest_framework.settings import api_settings

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
    "universal",
)
REQUIRED_COLUMNS = ("name", "price", "minimumOrderQuantity", "availableQuantity")

Row = tuple[str, object]  # (where it is, e.g. "line 3" or "item 2"; the raw part fields)


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
    readers = {".csv": csv_rows, ".json": json_rows}
    reader = readers.get(path.suffix.lower())
    if reader is None:
        raise CommandError(f"{path}: unknown file type; give a .csv or a .json file.")
    return reader(text_read(path), path)


def text_read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as exc:
        raise CommandError(f"Cannot read {path}: it is not UTF-8 text.") from exc
    except OSError as exc:
        raise CommandError(f"Cannot read {path}: {exc.strerror}.") from exc


def csv_rows(text: str, path: Path) -> list[Row]:
    """Rows labelled with the file line they start on; blank lines are skipped."""
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        header = [name.strip() for name in next(reader, [])]
        header_check(header, path)
        rows, last_line = [], reader.line_num
        for cells in reader:
            first_line, last_line = last_line + 1, reader.line_num
            if any(cell.strip() for cell in cells):
                rows.append((f"line {first_line}", csv_record(header, cells)))
    except csv.Error as exc:
        raise CommandError(f"{path}: malformed CSV at line {reader.line_num}: {exc}.") from exc
    return rows


def header_check(header: list[str], path: Path) -> None:
    missing = [name for name in REQUIRED_COLUMNS if name not in header]
    if missing:
        raise CommandError(
            f"{path}: the header row lacks {', '.join(missing)}; "
            f"expected the columns {','.join(FIELDS)}."
        )


def csv_record(header: list[str], cells: list[str]) -> dict:
    """A CSV row as API input: an empty cell counts as a missing field."""
    return {name: cell for name, cell in zip(header, cells, strict=False) if cell.strip()}


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


def errors_format(errors: dict) -> str:
    """`price: Price must be greater than 0; name: Name is required`."""
    parts = []
    for field, messages in errors.items():
        text = " ".join(str(message) for message in messages)
        parts.append(text if field == api_settings.NON_FIELD_ERRORS_KEY else f"{field}: {text}")
    return "; ".join(parts)


def summary(imported: int, rejected: int) -> str:
    text = counted(imported, "Imported {count} part", "Imported {count} parts")
    if rejected:
        text += counted(rejected, "; {count} row rejected", "; {count} rows rejected")
    return text + "."
