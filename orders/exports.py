"""The orders as CSV (GET /api/bookings.csv): one header row, then one row per line of each
order (its number on every row; the part, quantity, unit price and total are the line's, so the
totals add up to the orders' subtotals; the order's subtotal, discount, shipping and tax are on
its first row only, blank on its other lines, so that every column adds up too: an order's
total is its subtotal - discount + shipping, + tax unless prices include it; then its
voucher's code, shipping method and total, likewise), written as the rows are read (orders.selectors.booking_export),
so the export streams with flat memory.

Cells are safe to open in a spreadsheet: a text cell that begins with =, +, -, @, a tab or a
carriage return (a formula to Excel, LibreOffice or Google Sheets) gets a leading apostrophe,
which those programs show as text and never run (OWASP's "CSV injection"). A phone number
such as +44… therefore reads '+44… in the file.
"""

import csv
from collections.abc import Iterable, Iterator
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
    "subtotal",
    "discount",
    "shipping",
    "tax",
    # BEYOND.md's breakdown beyond API.md's four: the voucher's code, the method, the total.
    "voucher",
    "shipping method",
    "order total",
]
FORMULA_STARTS = frozenset("=+-@\t\r")
ROWS_PER_CHUNK = 500  # rows sent to the client at a time (not one write per row)


def text(value: str) -> str:
    """A text cell, defused: a leading apostrophe when it begins like a formula."""
    return "'" + value if value[:1] in FORMULA_STARTS else value


def money(value: Decimal) -> str:
    return f"{value:.2f}"


def cells(row: tuple) -> tuple:
    """One line of an order (orders.selectors.EXPORT_FIELDS) as its CSV cells: the date in
    ISO 8601, money with 2 decimals, every text a person typed defused."""
    number, date, email, name, part, quantity, price, total, state, txn, address, phone = row[:12]
    return (
        number,
        date.isoformat(),
        text(email),
        text(name),
        text(part),
        quantity,
        money(price),
        money(total),
        state,
        text(txn),
        text(address),
        text(phone),
        *(breakdown(value) for value in row[12:]),
    )


def breakdown(value) -> str:
    """A cell of the order's breakdown: money, a code or a method's name, or blank (not the
    order's first line)."""
    if value is None:
        return ""
    return money(value) if isinstance(value, Decimal) else text(value)


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
        lines.append(writer.writerow(cells(row)))
        if len(lines) >= ROWS_PER_CHUNK:
            yield "".join(lines).encode()
            lines = []
    if lines:
        yield "".join(lines).encode()
