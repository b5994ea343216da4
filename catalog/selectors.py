"""Reads of the catalog."""

from django.db.models import QuerySet

from .models import Part

PART_LIST_FIELDS = (
    "id",
    "name",
    "img",
    "description",
    "price",
    "minimum_order_quantity",
    "available_quantity",
)


def part_list(*, limit: int | None = None, offset: int = 0) -> QuerySet[Part]:
    """Parts, newest first; a slice when limit is given."""
    parts = Part.objects.only(*PART_LIST_FIELDS).order_by("-created_at", "-id")
    if limit is None:
        return parts[offset:]
    return parts[offset : offset + limit]
