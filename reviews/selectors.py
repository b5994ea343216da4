"""Reads of reviews."""

from django.db.models import QuerySet

from .models import Review

REVIEW_LIST_FIELDS = ("id", "name", "review", "ratings", "created_at")


def review_list(*, limit: int | None = None) -> QuerySet[Review]:
    """Reviews, newest first; the newest `limit` when given (the home page's list)."""
    reviews = Review.objects.only(*REVIEW_LIST_FIELDS).order_by("-created_at", "-id")
    return reviews if limit is None else reviews[:limit]
