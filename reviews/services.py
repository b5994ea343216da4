"""Writes to reviews."""

from django.core.exceptions import ValidationError
from django.db.models import QuerySet

from core.caching import versions

from .models import Review
from .selectors import REVIEWS

NAME_REQUIRED = "Name is required"


def review_create(*, user, review: str, ratings: int, name: str | None = "") -> Review:
    """Store a review under the given name, or the reviewer's display name when blank.

    A review from no account (demo data, an import) must bring its own name: the shop shows
    every review under a name and never invents one (400 on `name`).
    """
    name = (name or "").strip()
    if not name and user is None:
        raise ValidationError({"name": NAME_REQUIRED})
    return Review.objects.create(
        user=user, name=name or user.get_short_name(), review=review, ratings=ratings
    )


def review_set_hidden(*, reviews: QuerySet[Review], hidden: bool) -> int:
    """Hide reviews from the shop (or show them again); how many changed.

    A bulk update sends no signals, so the cached home-page reviews are made stale here.
    """
    changed = reviews.exclude(hidden=hidden).update(hidden=hidden)
    if changed:
        versions.bump(REVIEWS)
    return changed
