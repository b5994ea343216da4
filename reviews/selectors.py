"""Reads of reviews: the site's, and riders' reviews of parts."""

from decimal import ROUND_HALF_UP, Decimal

from django.db.models import (
    Avg,
    BooleanField,
    Case,
    Count,
    Exists,
    ExpressionWrapper,
    IntegerField,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Value,
    When,
)

from catalog.models import Vehicle
from core.caching import versions
from orders.models import BookingLine

from .models import PartReview, Review

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


# --- Part reviews -----------------------------------------------------------------------------

PART_REVIEWS_SHOWN = 20  # on a part's page, newest first (the API pages through them all)


def bought(user_ref="user_id", part_ref="part_id") -> Exists:
    """Whether the review's author has a paid order of its part that was not refunded (as a
    column of the review: one read, whatever the number of reviews)."""
    return Exists(
        BookingLine.objects.filter(
            booking__user_id=OuterRef(user_ref),
            part_id=OuterRef(part_ref),
            booking__paid=True,
            booking__refunded_at__isnull=True,
        )
    )


def part_reviews(*, part_id: int) -> QuerySet[PartReview]:
    """A part's shown reviews, newest first, each with its bike and `verified_buyer`."""
    return (
        PartReview.objects.filter(part_id=part_id, hidden=False)
        .select_related("vehicle")
        .annotate(verified_buyer=bought())
        .order_by("-created_at", "-id")
    )


def part_review_list(*, part_id: int, limit: int | None = None, offset: int = 0):
    reviews = part_reviews(part_id=part_id)
    return reviews[offset:] if limit is None else reviews[offset : offset + limit]


def part_fit_counts(*, part_id: int) -> list[dict]:
    """Per vehicle, how many verified buyers said the part fitted it and how many said it did
    not (shown reviews only), by make, model and year: the API's `fit`."""
    rows = (
        PartReview.objects.filter(
            part_id=part_id, hidden=False, vehicle__isnull=False, fits__isnull=False
        )
        .filter(bought())
        .values("vehicle_id", "vehicle__make", "vehicle__model", "vehicle__year")
        .annotate(fits_n=Count("id", filter=Q(fits=True)), not_n=Count("id", filter=Q(fits=False)))
        .order_by("vehicle__make", "vehicle__model", "vehicle__year")
    )
    return [
        {
            "vehicle": Vehicle(
                pk=row["vehicle_id"],
                make=row["vehicle__make"],
                model=row["vehicle__model"],
                year=row["vehicle__year"],
            ),
            "fits": row["fits_n"],
            "doesNotFit": row["not_n"],
        }
        for row in rows
    ]


def fit_confirmed_count(*, part_id: int, vehicle_id: int):
    """How many verified buyers said the part fitted this vehicle (shown reviews): a
    subquery, so the part page reads it with its reviews."""
    confirmed = PartReview.objects.filter(
        part_id=OuterRef("part_id"), vehicle_id=vehicle_id, fits=True, hidden=False
    ).filter(bought())
    return Subquery(
        confirmed.order_by().values("part_id").annotate(n=Count("id")).values("n")[:1],
        output_field=IntegerField(),
    )


def part_page_reviews(*, part_id: int, user=None, vehicle_id: int | None = None) -> list:
    """The reviews a part's page shows, in one query: the newest PART_REVIEWS_SHOWN shown
    ones and, for a signed-in `user`, their own first (hidden or not: theirs to edit), each
    with `verified_buyer`, `mine`, and with `vehicle_id` given, `fit_confirmed` (the same on
    every row: the count of verified buyers whose bike it is and who said it fitted; with no
    row there is nothing confirmed)."""
    reviews = PartReview.objects.filter(part_id=part_id).select_related("vehicle")
    mine = Value(False)
    if user is not None and user.is_authenticated:
        reviews = reviews.filter(Q(hidden=False) | Q(user=user))
        mine = Case(When(user=user, then=Value(True)), default=Value(False))
    else:
        reviews = reviews.filter(hidden=False)
    reviews = reviews.annotate(
        verified_buyer=bought(), mine=ExpressionWrapper(mine, output_field=BooleanField())
    )
    if vehicle_id is not None:
        reviews = reviews.annotate(
            fit_confirmed=fit_confirmed_count(part_id=part_id, vehicle_id=vehicle_id)
        )
    return list(reviews.order_by("-mine", "-created_at", "-id")[: PART_REVIEWS_SHOWN + 1])


def part_review_of(*, user, part_id: int) -> PartReview | None:
    """The account's own review of the part (hidden or not), with its bike."""
    return (
        PartReview.objects.filter(user=user, part_id=part_id)
        .select_related("vehicle")
        .annotate(verified_buyer=bought())
        .first()
    )


def part_review_get(*, pk: int) -> PartReview | None:
    return (
        PartReview.objects.filter(pk=pk)
        .select_related("vehicle")
        .annotate(verified_buyer=bought())
        .first()
    )


def part_rating_of(*, part_id: int) -> tuple[Decimal | None, int]:
    """The average (to one decimal, None without any) and count of a part's shown reviews."""
    found = PartReview.objects.filter(part_id=part_id, hidden=False).aggregate(
        average=Avg("rating"), count=Count("id")
    )
    average = found["average"]
    if average is None:
        return None, 0
    return Decimal(str(average)).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP), found["count"]
