"""Reads of reviews."""

from django.db.models import QuerySet

from core.caching import versions

from .models import Review

REVIEWS = "reviews"  # a version bumped by every change of a review (reviews.services)

REVIEW_LIST_FIELDS = ("id", "name", "review", "ratings", "created_at")


def review_list(*, limit: int | None = None, offset: int = 0) -> QuerySet[Review]:
    """Shown reviews (not hidden by staff), newest first; `limit` of them from `offset` when
    given."""
    reviews = (
        Review.objects.filter(hidden=False).only(*REVIEW_LIST_FIELDS).order_by("-created_at", "-id")
    )
    return reviews[offset:] if limit is None else reviews[offset : offset + limit]


def newest_reviews(limit: int) -> list[Review]:
    """The newest `limit` reviews (the home page's), kept until reviews change."""
    return versions.get_or_set(
        f"reviews:newest:{limit}", lambda: list(review_list(limit=limit)), names=[REVIEWS]
    )
