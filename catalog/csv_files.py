"""Reading the operators' import files (import_parts, import_fitment): UTF-8 text, CSV rows
labelled with the line they start on, and a rejected row's errors as one line of text."""

import csv
import io
from collections.abc import Iterable
from pathlib import Path

from django.core.management.base import CommandError
from rest_framework.settings import api_settings

Row = tuple[str, object]  # (where it is, e.g. "line 3" or "item 2"; the raw fields)


def text_read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as exc:
        raise CommandError(f"Cannot read {path}: it is not UTF-8 text.") from exc
    except OSError as exc:
        raise CommandError(f"Cannot read {path}: {exc.strerror}.") from exc


def csv_rows(text: str, path: Path, *, check_header) -> list[Row]:
    """Rows labelled with the file line they start on; blank lines are skipped.
    `check_header(header)` raises CommandError for a header that lacks a column."""
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        header = [name.strip() for name in next(reader, [])]
        check_header(header)
        rows, last_line = [], reader.line_num
        for cells in reader:
            first_line, last_line = last_line + 1, reader.line_num
            if any(cell.strip() for cell in cells):
                rows.append((f"line {first_line}", csv_record(header, cells)))
    except csv.Error as exc:
        raise CommandError(f"{path}: malformed CSV at line {reader.line_num}: {exc}.") from exc
    return rows


def csv_record(header: list[str], cells: list[str]) -> dict:
    """A CSV row as API input: an empty cell counts as a missing field."""
    return {name: cell for name, cell in zip(header, cells, strict=False) if cell.strip()}


def missing_columns(header: Iterable[str], required: Iterable[str]) -> list[str]:
    return [name for name in required if name not in header]


def part_header_check(header: list[str], path: Path, *, columns, required) -> None:
    """CommandError for the header of a file of rows that each name a part (partNumber or
    partId) when it lacks that or one of the `required` columns."""
    missing = missing_columns(header, required)
    if "partNumber" not in header and "partId" not in header:
        missing.insert(0, "partNumber (or partId)")
    if missing:
        raise CommandError(
            f"{path}: the header row lacks {', '.join(missing)}; "
            f"expected the columns {','.join(columns)}."
        )


def errors_format(errors: dict) -> str:
    """`price: Price must be greater than 0; name: Name is required`."""
    parts = []
    for field, messages in errors.items():
        text = " ".join(str(message) for message in messages)
        parts.append(text if field == api_settings.NON_FIELD_ERRORS_KEY else f"{field}: {text}")
    return "; ".join(parts)
