"""Other numbers loaded in bulk (manage.py import_numbers): rows of a part (its part number or
id), a number, its kind (oem, superseded, aftermarket) and its brand.

Every row is checked with the API's rules (PartNumberInputSerializer), its part looked up as
import_fitment looks them up (catalog.fitment_import). Then, in one transaction, the numbers
are written in batches, a number the part already has (compared without case, spaces or
dashes) taking the row's kind and brand: the import can be run again.
"""

from dataclasses import dataclass, field

from django.db import transaction
from rest_framework import serializers

from .csv_files import Row, errors_format
from .fitment_import import chunks, normalised, part_ids_of, part_named
from .models import PartNumber
from .serializers import PartNumberInputSerializer
from .services import part_numbers_changed

LISTED_BEFORE = "number: {number} is listed for this part on {where} already"


@dataclass
class NumbersImport:
    """What an import did: rows imported and rejected (where, why)."""

    imported: int = 0
    rejected: list[tuple[str, str]] = field(default_factory=list)


@dataclass
class _Good:
    where: str
    part_number: str | None  # as normalised, when the row names its part by number
    part_id: int | None
    number: str
    kind: str
    brand: str


def numbers_import(rows: list[Row]) -> NumbersImport:
    """Import the rows that pass; report the others by where they are."""
    report = NumbersImport()
    check = PartNumberInputSerializer()
    good = [row for row in (_checked(where, data, report, check) for where, data in rows) if row]
    part_ids = part_ids_of(good, report)
    numbers, seen = [], {}
    for row in good:
        if row.where not in part_ids:
            continue
        key = (part_ids[row.where], normalised(row.number))
        if key in seen:
            report.rejected.append(
                (row.where, LISTED_BEFORE.format(number=row.number, where=seen[key]))
            )
            continue
        seen[key] = row.where
        numbers.append(
            PartNumber(part_id=key[0], number=row.number, kind=row.kind, brand=row.brand)
        )
    with transaction.atomic():
        for chunk in chunks(numbers):
            PartNumber.objects.bulk_create(
                chunk,
                update_conflicts=True,
                unique_fields=["part", "number_normalised"],
                update_fields=["number", "kind", "brand"],
            )
        report.imported = len(numbers)
        part_numbers_changed(part_ids={n.part_id for n in numbers})
    order = {where: number for number, (where, _) in enumerate(rows)}
    report.rejected.sort(key=lambda rejection: order[rejection[0]])
    return report


def _checked(where: str, data, report: NumbersImport, check) -> _Good | None:
    """The row, checked; None (and the reason in the report) when it is bad."""
    try:
        fields = check.run_validation(
            {name: data.get(name) for name in ("number", "kind", "brand") if data.get(name)}
        )
    except serializers.ValidationError as invalid:
        report.rejected.append((where, errors_format(invalid.detail)))
        return None
    part = part_named(data)
    if isinstance(part, str):
        report.rejected.append((where, part))
        return None
    return _Good(
        where=where,
        part_number=part.number,
        part_id=part.pk,
        number=fields["number"].strip(),
        kind=fields["kind"],
        brand=fields.get("brand", "").strip(),
    )
