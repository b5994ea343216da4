"""Writes to the catalog (stock changes are catalog.stock's). Each write makes stale what it
changed itself (catalog.selectors' versions): no caller, signal or page has to remember it."""

import logging
from contextlib import nullcontext

from django.db import DatabaseError, connection, transaction
from django.utils import timezone

from core.caching import versions

from . import images, stock
from .models import Category, Fitment, Part, PartNumber, Vehicle
from .selectors import CATALOG, CATEGORIES, FITMENT, PARTS, VEHICLES, part_version
from .signals import part_deleting

logger = logging.getLogger(__name__)

STOCK_NOT_HERE = "available_quantity changes only through catalog.stock"
# A part's fields that decide which lists it is in, and where (sorts and filters): a change
# of one makes the catalog stale, not only the part.
LISTED_BY = {"name", "price", "category"}


@transaction.atomic
def part_create(
    *,
    name: str,
    price,
    minimum_order_quantity: int,
    available_quantity: int,
    img: str = "",
    description: str = "",
    category: Category | None = None,
    part_number: str = "",
    brand: str = "",
    universal: bool = False,
    weight: int = 0,
    image: images.CleanImage | None = None,
    by=None,
) -> Part:
    """A new part; its first stock is kept as the "initial stock" movement. An uploaded
    `image` is stored and its URL becomes the part's `img`."""
    if image is not None:
        img = images.image_save(image=image)
    part = Part.objects.create(
        category=category,
        name=name,
        price=price,
        minimum_order_quantity=minimum_order_quantity,
        available_quantity=available_quantity,
        img=img,
        description=description,
        part_number=part_number,
        brand=brand,
        universal=universal,
        weight=weight,
    )
    stock.stock_initial(part=part, by=by)
    versions.bump(part_version(part.pk), PARTS, CATALOG)
    return part


def part_update(*, part: Part, image: images.CleanImage | None = None, **fields) -> Part:
    """Change the given fields of a part (names as on the model) and only those: a stale
    copy of the part never writes its other fields back. Stock is not one of them. An
    uploaded `image` is stored and its URL becomes the part's `img`."""
    if "available_quantity" in fields:
        raise ValueError(STOCK_NOT_HERE)
    if image is not None:
        fields["img"] = images.image_save(image=image)
    if not fields:
        return part
    for field, value in fields.items():
        setattr(part, field, value)
    part.save(update_fields=list(fields))
    changed = [part_version(part.pk), PARTS]
    if LISTED_BY & fields.keys():
        changed.append(CATALOG)
    if "universal" in fields:  # which bikes it is listed for
        changed.append(FITMENT)
    versions.bump(*changed)
    return part


@transaction.atomic
def part_delete(*, part: Part) -> None:
    """Delete a part; its orders keep their snapshot (the link becomes null), and so do its
    stock movements. Whoever listens to `part_deleting` acts first, in the same transaction:
    a refusal there (e.g. Stripe unreachable) deletes nothing."""
    part_deleting.send(sender=Part, part=part)
    pk = part.pk
    part.delete()
    versions.bump(part_version(pk), PARTS, CATALOG)


@transaction.atomic
def part_numbers_set(*, part: Part, numbers: list[dict]) -> list[PartNumber]:
    """The part's other numbers are exactly these (each a dict of number, kind and brand, no
    two the same once normalised: catalog.serializers.numbers_clean): the stored ones are
    replaced. Search finds parts by them, so the catalog's lists are stale too."""
    PartNumber.objects.filter(part=part).delete()
    made = PartNumber.objects.bulk_create(
        [
            PartNumber(part=part, number=n["number"], kind=n["kind"], brand=n.get("brand", ""))
            for n in numbers
        ]
    )
    part_numbers_changed(part_ids=[part.pk])
    return made


def part_rating_set(*, part_id: int, average, count: int) -> None:
    """A part's riders' rating is now `average` (to one decimal; None without reviews) of
    `count` reviews: the reviews app's services call it after every change of a review, or of
    what a review shows (its author's purchase). Its page, card and JSON are stale (the page
    lists the reviews too), the lists re-made from kept cards; no other part's."""
    Part.objects.filter(pk=part_id).update(rating_average=average, rating_count=count)
    versions.bump(part_version(part_id), PARTS)


def part_numbers_changed(*, part_ids) -> None:
    """Other numbers of these parts were written outside part_numbers_set (Django admin's
    inline, import_numbers' bulk insert): their pages, the lists and searches are stale."""
    part_ids = set(part_ids)
    if len(part_ids) > MANY_PARTS:
        versions.bump(CATEGORIES, PARTS, CATALOG)
    else:
        versions.bump(*(part_version(pk) for pk in part_ids), PARTS, CATALOG)


def category_get_or_create(*, name: str, slug: str) -> Category:
    """The category with this slug, created with `name` when missing."""
    category, created = Category.objects.get_or_create(slug=slug, defaults={"name": name})
    if created:
        versions.bump(CATALOG, CATEGORIES)
    return category


def category_save(*, category: Category) -> Category:
    """Save a new or changed category (Django admin): part cards show its name."""
    category.save()
    versions.bump(CATALOG, CATEGORIES)
    return category


def category_delete(*, category: Category) -> None:
    """Delete a category; its parts stay, on no category."""
    category.delete()
    versions.bump(CATALOG, CATEGORIES)


@transaction.atomic
def fitment_set(*, part: Part, universal: bool, vehicle_ids: list[int]) -> Part:
    """The part fits exactly these vehicles (ids of existing ones), and every bike when
    `universal`: rows no longer listed are deleted, new ones added."""
    wanted = set(vehicle_ids)
    if part.universal != universal:
        part.universal = universal
        part.save(update_fields=["universal"])
    Fitment.objects.filter(part=part).exclude(vehicle_id__in=wanted).delete()
    Fitment.objects.bulk_create(
        [Fitment(part=part, vehicle_id=pk) for pk in sorted(wanted)], ignore_conflicts=True
    )
    versions.bump(part_version(part.pk), PARTS, FITMENT)
    return part


def vehicle_get_or_create(*, make: str, model: str, year: int) -> Vehicle:
    """The vehicle of this make, model and year whatever their case; a new one is written as
    the make and model already are elsewhere ("yamaha" joins "Yamaha"), else as given."""
    make, model = make.strip(), model.strip()
    found = Vehicle.objects.filter(make__iexact=make, model__iexact=model, year=year).first()
    if found:
        return found
    make = known_spelling("make", make)
    model = known_spelling("model", model, make=make)
    vehicle, created = Vehicle.objects.get_or_create(make=make, model=model, year=year)
    if created:
        versions.bump(VEHICLES)
    return vehicle


def known_spelling(field: str, value: str, **within) -> str:
    """`value` as the vehicles already write it (make, or model within a make), else as is."""
    same = Vehicle.objects.filter(**{f"{field}__iexact": value}, **within)
    return same.values_list(field, flat=True).first() or value


@transaction.atomic
def fitment_add(*, part: Part, make: str, model: str, year_from: int, year_to: int) -> int:
    """The part also fits this make and model in these years (vehicles created as needed);
    how many fitment rows were new."""
    vehicles = [
        vehicle_get_or_create(make=make, model=model, year=year)
        for year in range(year_from, year_to + 1)
    ]
    before = Fitment.objects.filter(part=part).count()
    Fitment.objects.bulk_create(
        [Fitment(part=part, vehicle=vehicle) for vehicle in vehicles], ignore_conflicts=True
    )
    added = Fitment.objects.filter(part=part).count() - before
    versions.bump(part_version(part.pk), PARTS, FITMENT)
    return added


@transaction.atomic
def fitment_remove(*, part: Part, make: str, model: str, year_from: int, year_to: int) -> int:
    """The part no longer fits this make and model in these years; how many rows went."""
    removed, _ = Fitment.objects.filter(
        part=part,
        vehicle__make__iexact=make.strip(),
        vehicle__model__iexact=model.strip(),
        vehicle__year__gte=year_from,
        vehicle__year__lte=year_to,
    ).delete()
    versions.bump(part_version(part.pk), PARTS, FITMENT)
    return removed


# Past this many parts, a change of fitment makes every part page stale at once (CATEGORIES,
# which every part page is kept under) rather than each part's: one Redis round trip instead
# of thousands (an import of 200,000 rows touches 10,000 parts).
MANY_PARTS = 200


def fitment_changed(*, part_ids) -> None:
    """Fitment rows of these parts were written outside fitment_set/add/remove (Django
    admin's inline, import_fitment's bulk insert): their pages and the lists are stale."""
    part_ids = set(part_ids)
    if len(part_ids) > MANY_PARTS:
        versions.bump(CATEGORIES, PARTS, FITMENT)
    else:
        versions.bump(*(part_version(pk) for pk in part_ids), PARTS, FITMENT)


def vehicle_save(*, vehicle: Vehicle) -> Vehicle:
    """Save a new or changed vehicle (Django admin): the makes list, the picker and the pages
    of the parts that fit it name it."""
    vehicle.save()
    part_ids = list(vehicle.fitments.values_list("part_id", flat=True))
    fitment_changed(part_ids=part_ids)
    versions.bump(VEHICLES)
    return vehicle


@transaction.atomic
def vehicle_delete(*, vehicle: Vehicle) -> None:
    """Delete a vehicle and its fitment rows; the parts that fitted it say so no more."""
    part_ids = list(vehicle.fitments.values_list("part_id", flat=True))
    vehicle.delete()
    fitment_changed(part_ids=part_ids)
    versions.bump(VEHICLES)


MISSED_WORDS_LENGTH = 100  # characters of a search's words kept (MissedSearch.words)
# One statement, whoever else counts the same words at the same moment: PostgreSQL and
# SQLite (3.24+) alike.
_COUNT_MISSED = (
    'INSERT INTO "catalog_missedsearch" ("words", "day", "count", "last_at")'
    ' VALUES (%s, %s, 1, %s) ON CONFLICT ("words", "day") DO UPDATE SET'
    ' "count" = "catalog_missedsearch"."count" + 1, "last_at" = excluded."last_at"'
)


def missed_words(q: str) -> str:
    """A search's words as they are counted: lowercase, runs of spaces as one, trimmed, cut."""
    return " ".join(q.lower().split())[:MISSED_WORDS_LENGTH].strip()


def missed_search_count(*, q: str) -> None:
    """Count a search with words `q` that found nothing (today's row of its words, +1). Never
    raises: a failure to count is logged, and the search answers all the same."""
    words = missed_words(q)
    if not words:
        return
    now, ops = timezone.now(), connection.ops
    params = [words, ops.adapt_datefield_value(timezone.localdate(now))]
    params.append(ops.adapt_datetimefield_value(now))
    try:
        # Inside a transaction, a savepoint: a failed statement must not spoil the rest of it.
        within = transaction.atomic() if connection.in_atomic_block else nullcontext()
        with within, connection.cursor() as cursor:
            cursor.execute(_COUNT_MISSED, params)
    except DatabaseError:
        logger.exception("Could not count a search that found nothing")
