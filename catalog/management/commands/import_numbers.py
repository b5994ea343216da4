"""Import parts' other numbers (OEM, superseded, aftermarket) from a CSV file, in bulk."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from catalog.csv_files import csv_rows, part_header_check, text_read
from catalog.numbers_import import numbers_import
from core.wording import counted

COLUMNS = ("partNumber", "partId", "number", "kind", "brand")
REQUIRED_COLUMNS = ("number", "kind")


class Command(BaseCommand):
    help = (
        "Import parts' other numbers from FILE.csv, a header row then one row per number: "
        f"{', '.join(COLUMNS)}. The part is named by its partNumber (compared without case, "
        "spaces or dashes) or its partId; kind is oem, superseded or aftermarket; brand may be "
        "empty. A number the part already has takes the row's kind and brand. Good rows are "
        "imported, bad rows are skipped and reported by line (the header is line 1). The exit "
        "status is 0 even when rows were rejected: read the summary line. A file that cannot "
        "be read or parsed imports nothing and exits with status 1."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="path to a .csv file")

    def handle(self, *args, **options):
        path = Path(options["file"])
        if path.suffix.lower() != ".csv":
            raise CommandError(f"{path}: unknown file type; give a .csv file.")
        rows = csv_rows(text_read(path), path, check_header=lambda h: header_check(h, path))
        report = numbers_import(rows)
        for where, reason in report.rejected:
            self.stderr.write(f"{where}: {reason}")
        style = self.style.WARNING if report.rejected else self.style.SUCCESS
        self.stdout.write(style(summary(report)))


def header_check(header: list[str], path: Path) -> None:
    part_header_check(header, path, columns=COLUMNS, required=REQUIRED_COLUMNS)


def summary(report) -> str:
    text = counted(report.imported, "Imported {count} number", "Imported {count} numbers")
    rejected = len(report.rejected)
    if rejected:
        text += counted(rejected, "; {count} row rejected", "; {count} rows rejected")
    return text + "."
