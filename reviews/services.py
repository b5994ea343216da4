"""Writes to reviews. Each one makes the cached reviews (the home page's) stale itself: the
admin's forms and actions come through here too."""

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
    created = Review.objects.create(
        user=user, name=name or user.get_short_name(), review=review, ratings=ratings
    )
    versions.bump(REVIEWS)
    return created


def review_save(*, review: Review) -> Review:
    """Store a review written or edited by hand in Django admin."""
    review.save()
    versions.bump(REVIEWS)
    return review


def review_set_hidden(*, reviews: QuerySet[Review], hidden: bool) -> int:
    """Hide reviews from the shop (or show them again); how many changed."""
    changed = reviews.exclude(hidden=hidden).update(hidden=hidden)
    if changed:
        versions.bump(REVIEWS)
    return changed


def review_delete(*, reviews: QuerySet[Review]) -> int:
    """Delete reviews for good (hiding keeps them on record); how many were."""
    deleted, _ = reviews.delete()
    if deleted:
        versions.bump(REVIEWS)
    return deleted
