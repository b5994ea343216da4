"""Fitment loaded in bulk (manage.py import_fitment): rows of a part (its part number or id),
a make, a model and a range of years.

Every row is checked with Edit part's rules (FitmentRowInputSerializer), its part looked up
by part number (compared as search compares them: no case, spaces or dashes) or id. Then, in
one transaction, the vehicles missing are created in bulk (spelt as the shop already spells
the make and model, else as first written in the file) and the fitment rows are inserted in
batches with ON CONFLICT DO NOTHING (a row already there is no error: the import can be run
again). A file of 200,000 rows takes seconds, not a query per row (docs/features.md).
"""

from collections import defaultdict
from dataclasses import dataclass, field

from django.db import transaction
from django.db.models.functions import Upper
from rest_framework import serializers

from core.caching import versions

from .csv_files import Row, errors_format
from .fitment_serializers import FitmentRowInputSerializer
from .models import Fitment, Part, Vehicle
from .selectors import VEHICLES
from .services import fitment_changed

BATCH = 5_000
PART_REQUIRED = "give the part's partNumber or partId"
PART_ID_INVALID = "partId: must be a part's id (a whole number)"
NO_PART_NUMBERED = "partNumber: no part has the part number {number}"
PARTS_NUMBERED = "partNumber: {count} parts have the part number {number}: give partId instead"
NO_PART_ID = "partId: no part has the id {pk}"

Key = tuple[str, str, int]  # a vehicle as compared: UPPER(make), UPPER(model), year


@dataclass
class FitmentImport:
    """What an import did: rows imported and rejected (where, why), rows and vehicles added."""

    imported: int = 0
    rejected: list[tuple[str, str]] = field(default_factory=list)
    fitment_added: int = 0
    vehicles_added: int = 0


@dataclass
class _Good:
    where: str
    part_number: str | None  # as normalised, when the row names its part by number
    part_id: int | None
    make: str
    model: str
    years: range


def fitment_import(rows: list[Row]) -> FitmentImport:
    """Import the rows that pass; report the others by where they are."""
    report = FitmentImport()
    check = _RowCheck()
    good = [row for row in (_checked(where, data, report, check) for where, data in rows) if row]
    part_ids = part_ids_of(good, report)
    good = [row for row in good if row.where in part_ids]
    with transaction.atomic():
        vehicle_ids = _vehicles(good, report)
        pairs = {
            (part_ids[row.where], vehicle_ids[(row.make.upper(), row.model.upper(), year)])
            for row in good
            for year in row.years
        }
        before = Fitment.objects.count()
        for chunk in chunks(sorted(pairs)):  # a batch of objects at a time in memory too
            Fitment.objects.bulk_create(
                [Fitment(part_id=p, vehicle_id=v) for p, v in chunk], ignore_conflicts=True
            )
        report.fitment_added = Fitment.objects.count() - before
        report.imported = len(good)
        fitment_changed(part_ids={part for part, _ in pairs})
        if report.vehicles_added:
            versions.bump(VEHICLES)
    order = {where: number for number, (where, _) in enumerate(rows)}
    report.rejected.sort(key=lambda rejection: order[rejection[0]])
    return report


class _RowCheck:
    """FitmentRowInputSerializer's answer for a row's make, model and years: one serializer
    for the whole file (a new one per row copies its fields each time: most of the import's
    time), and one answer per distinct make, model and years (a file repeats them)."""

    def __init__(self):
        self.serializer = FitmentRowInputSerializer()
        self.answers: dict[tuple, tuple[dict | None, str]] = {}

    def __call__(self, data: dict) -> tuple[dict | None, str]:
        """(validated fields, "") or (None, what is wrong)."""
        fields = tuple(data.get(name) for name in ("make", "model", "yearFrom", "yearTo"))
        if fields not in self.answers:
            try:
                self.answers[fields] = (self.serializer.run_validation(data), "")
            except serializers.ValidationError as invalid:
                self.answers[fields] = (None, errors_format(invalid.detail))
        return self.answers[fields]


def _checked(where: str, data, report: FitmentImport, check: _RowCheck) -> _Good | None:
    """The row, checked; None (and the reason in the report) when it is bad."""
    fields, errors = check(data)
    if fields is None:
        report.rejected.append((where, errors))
        return None
    part = part_named(data)
    if isinstance(part, str):
        report.rejected.append((where, part))
        return None
    return _Good(
        where=where,
        part_number=part.number,
        part_id=part.pk,
        make=fields["make"].strip(),
        model=fields["model"].strip(),
        years=range(fields["year_from"], fields["year_to"] + 1),
    )


@dataclass(frozen=True)
class PartNamed:
    """The part a CSV row names: by its id, or else by its part number (normalised)."""

    pk: int | None
    number: str | None


def part_named(data: dict) -> PartNamed | str:
    """The part a row of import_fitment or import_numbers names (`partId`, else
    `partNumber`), or why the row names none."""
    part_id, number = data.get("partId"), data.get("partNumber")
    if part_id is not None:
        try:
            part_id = int(str(part_id).strip())
        except ValueError:
            return PART_ID_INVALID
        if not 0 < part_id < 2**63:
            return NO_PART_ID.format(pk=part_id)
        return PartNamed(pk=part_id, number=None)
    if not number or not normalised(number):
        return PART_REQUIRED
    return PartNamed(pk=None, number=normalised(number))


def normalised(part_number: str) -> str:
    """As Part.part_number_normalised is: no case, spaces or dashes."""
    return part_number.lower().replace(" ", "").replace("-", "")


def part_ids_of(rows: list[_Good], report: FitmentImport) -> dict[str, int]:
    """{where: part id} of the rows whose part there is; the others rejected."""
    numbers = {row.part_number for row in rows if row.part_number is not None}
    ids = {row.part_id for row in rows if row.part_id is not None}
    by_number: dict[str, list[int]] = defaultdict(list)
    for chunk in chunks(sorted(numbers)):
        found = Part.objects.filter(part_number_normalised__in=chunk)
        for pk, number in found.values_list("pk", "part_number_normalised"):
            by_number[number].append(pk)
    known = set()
    for chunk in chunks(sorted(ids)):
        known.update(Part.objects.filter(pk__in=chunk).values_list("pk", flat=True))
    found_ids = {}
    for row in rows:
        if row.part_id is not None:
            if row.part_id in known:
                found_ids[row.where] = row.part_id
            else:
                report.rejected.append((row.where, NO_PART_ID.format(pk=row.part_id)))
            continue
        matches = by_number.get(row.part_number, [])
        if len(matches) == 1:
            found_ids[row.where] = matches[0]
        elif not matches:
            report.rejected.append((row.where, NO_PART_NUMBERED.format(number=row.part_number)))
        else:
            report.rejected.append(
                (row.where, PARTS_NUMBERED.format(count=len(matches), number=row.part_number))
            )
    return found_ids


def _vehicles(rows: list[_Good], report: FitmentImport) -> dict[Key, int]:
    """{key: vehicle id} of every vehicle the rows name, the missing ones created."""
    spelt: dict[Key, tuple[str, str]] = {}
    for row in rows:
        for year in row.years:
            spelt.setdefault((row.make.upper(), row.model.upper(), year), (row.make, row.model))
    makes = {key[0] for key in spelt}
    known = _known(makes)
    missing = [key for key in spelt if key not in known]
    if missing:
        make_as, model_as = _spellings(makes)
        new = []
        for key in missing:
            make, model = spelt[key]
            make = make_as.get(key[0], make)
            new.append(Vehicle(make=make, model=model_as.get((key[0], key[1]), model), year=key[2]))
        Vehicle.objects.bulk_create(new, batch_size=BATCH, ignore_conflicts=True)
        known = _known(makes)
        report.vehicles_added = len(missing)
    return known


def _known(makes: set[str]) -> dict[Key, int]:
    """{key: id} of the vehicles of these makes (compared in upper case)."""
    known = {}
    for chunk in chunks(sorted(makes)):
        vehicles = Vehicle.objects.annotate(upper_make=Upper("make")).filter(upper_make__in=chunk)
        for pk, make, model, year in vehicles.values_list("pk", "make", "model", "year"):
            known[(make.upper(), model.upper(), year)] = pk
    return known


def _spellings(makes: set[str]) -> tuple[dict[str, str], dict[tuple[str, str], str]]:
    """How the shop already writes these makes, and their models."""
    make_as, model_as = {}, {}
    for chunk in chunks(sorted(makes)):
        vehicles = Vehicle.objects.annotate(upper_make=Upper("make")).filter(upper_make__in=chunk)
        for make, model in vehicles.order_by().values_list("make", "model").distinct():
            make_as.setdefault(make.upper(), make)
            model_as.setdefault((make.upper(), model.upper()), model)
    return make_as, model_as


def chunks(items: list, size: int = BATCH):
    for start in range(0, len(items), size):
        yield items[start : start + size]
