"""The orders as CSV (GET /api/bookings.csv): one header row, then one row per order, written
as the rows are read (orders.selectors.booking_export), so the export streams with flat memory.

Cells are safe to open in a spreadsheet: a text cell that begins with =, +, -, @, a tab or a
carriage return (a formula to Excel, LibreOffice or Google Sheets) gets a leading apostrophe,
which those programs show as text and never run (OWASP's "CSV injection"). A phone number
such as +44… therefore reads '+44… in the file.
"""

import csv
from collections.abc import Iterable, Iterator
from datetime import datetime
from decimal import Decimal

HEADER = [
    "number",
    "date",
    "e-mail",
    "name",
    "part",
    "quantity",
    "unit price",
    "total",
    "state",
    "transaction id",
    "address",
    "phone",
]
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
ROWS_PER_CHUNK = 500  # rows sent to the client at a time (not one write per row)


def cell(value) -> str:
    """One value as its CSV cell: dates in ISO 8601, money with 2 decimals, text defused."""
    if value is None:
        return ""
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, Decimal):
        return f"{value:.2f}"
    if isinstance(value, int):
        return str(value)
    text = str(value)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


class _Line:
    """A file-like object whose write() hands back what it was given (csv.writer → a line)."""

    def write(self, text: str) -> str:
        return text


def csv_chunks(rows: Iterable[tuple]) -> Iterator[bytes]:
    """The header, then each row (a tuple in HEADER's order), as UTF-8 CSV, ROWS_PER_CHUNK
    lines at a time."""
    writer = csv.writer(_Line())
    lines = [writer.writerow(HEADER)]
    for row in rows:
        lines.append(writer.writerow([cell(value) for value in row]))
        if len(lines) >= ROWS_PER_CHUNK:
            yield "".join(lines).encode()
            lines = []
    if lines:
        yield "".join(lines).encode()
