"""Writes to reviews."""

from django.core.exceptions import ValidationError

from .models import Review

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
