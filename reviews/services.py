"""Writes to reviews. Each one makes the cached reviews (the home page's; a part's page, card
and rating) stale itself: the admin's forms and actions come through here too."""

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import QuerySet

from catalog.models import Part, Vehicle
from catalog.services import part_rating_set
from core.caching import versions
from core.errors import Conflict

from . import selectors
from .models import PartReview, Review
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


# --- Part reviews -----------------------------------------------------------------------------

ALREADY_REVIEWED = "You have already reviewed this part: change your review instead."


def part_rating_refresh(*, part_id: int) -> None:
    """Keep the part's rating (average and count of its shown reviews) on the part, through
    the catalog's service, which makes its page, card and JSON stale."""
    average, count = selectors.part_rating_of(part_id=part_id)
    part_rating_set(part_id=part_id, average=average, count=count)


@transaction.atomic
def part_review_create(
    *,
    user,
    part: Part,
    rating: int,
    title: str,
    body: str,
    vehicle: Vehicle | None = None,
    fits: bool | None = None,
) -> PartReview:
    """The account's review of the part, under its display name. Conflict when it has one
    already (one per account and part: it is changed, never written twice)."""
    if PartReview.objects.filter(user=user, part=part).exists():
        raise Conflict(ALREADY_REVIEWED)
    try:
        with transaction.atomic():
            review = PartReview.objects.create(
                user=user,
                part=part,
                name=user.get_short_name() or "Rider",
                rating=rating,
                title=title,
                body=body,
                vehicle=vehicle,
                fits=fits,
            )
    except IntegrityError as clash:  # the same account's second post at the same moment
        raise Conflict(ALREADY_REVIEWED) from clash
    part_rating_refresh(part_id=part.pk)
    return review


@transaction.atomic
def part_review_update(
    *,
    review: PartReview,
    rating: int,
    title: str,
    body: str,
    vehicle: Vehicle | None = None,
    fits: bool | None = None,
) -> PartReview:
    """Its author changes their review (every field; the date it was written stays)."""
    review.vehicle = vehicle
    review.rating, review.title, review.body, review.fits = rating, title, body, fits
    review.save(update_fields=["vehicle", "rating", "title", "body", "fits", "updated_at"])
    part_rating_refresh(part_id=review.part_id)
    return review


def part_review_save(*, review: PartReview) -> PartReview:
    """Store a part review changed by hand in Django admin."""
    with transaction.atomic():
        review.save()
        part_rating_refresh(part_id=review.part_id)
    return review


@transaction.atomic
def part_review_set_hidden(*, reviews: QuerySet[PartReview], hidden: bool) -> int:
    """Hide part reviews from the shop and its ratings (or show them again); how many
    changed."""
    changing = reviews.exclude(hidden=hidden)
    part_ids = set(changing.values_list("part_id", flat=True))
    changed = changing.update(hidden=hidden)
    for part_id in sorted(part_ids):
        part_rating_refresh(part_id=part_id)
    return changed


@transaction.atomic
def part_review_delete(*, reviews: QuerySet[PartReview]) -> int:
    """Delete part reviews for good (hiding keeps them on record); how many were."""
    part_ids = set(reviews.values_list("part_id", flat=True))
    deleted, _ = reviews.delete()
    for part_id in sorted(part_ids):
        part_rating_refresh(part_id=part_id)
    return deleted


def part_reviews_purchase_changed(*, user_id: int, part_ids) -> None:
    """An order of these parts by this account was paid or refunded: its reviews of them
    now say "Verified buyer" or no longer do (and their fit answers count, or not), so those
    parts' pages are stale."""
    reviewed = PartReview.objects.filter(user_id=user_id, part_id__in=list(part_ids))
    for part_id in sorted(set(reviewed.values_list("part_id", flat=True))):
        part_rating_refresh(part_id=part_id)
