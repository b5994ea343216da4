"""Writes to reviews."""

from .models import Review


def review_create(*, user, review: str, ratings: int, name: str | None = "") -> Review:
    """Store a review under the given name, or the reviewer's display name when blank."""
    return Review.objects.create(
        user=user, name=name or user.get_short_name(), review=review, ratings=ratings
    )
