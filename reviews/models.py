from django.conf import settings
from django.db import models

MIN_RATING = 1
MAX_RATING = 5


class Review(models.Model):
    """A customer's review of the shop, rated out of 5."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="reviews"
    )
    name = models.CharField(max_length=150)
    review = models.TextField()
    ratings = models.PositiveSmallIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)
    # Staff hide an abusive review in Django admin: it stays on record, off the shop's pages.
    hidden = models.BooleanField(
        default=False, help_text="Hidden reviews show nowhere in the shop."
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(ratings__gte=MIN_RATING, ratings__lte=MAX_RATING),
                name="reviews_review_ratings_1_to_5",
            ),
        ]

    def __str__(self):
        return f"{self.name}: {self.ratings}/5"


TITLE_MAX = 120
BODY_MAX = 5000


class PartReview(models.Model):
    """A rider's review of a part: one per account and part (edited, never written twice),
    with the bike they ride and whether the part fitted it. Whether its author bought the
    part (a paid order of it, not refunded) is read with it (reviews.selectors), never kept:
    a refund takes it back at once."""

    # A removed account's reviews stay under the name they were written with (as site
    # reviews do); a deleted part takes its reviews with it.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="part_reviews",
    )
    part = models.ForeignKey(
        "catalog.Part", on_delete=models.CASCADE, related_name="reviews", db_index=False
    )
    name = models.CharField(max_length=150)
    rating = models.PositiveSmallIntegerField()
    title = models.CharField(max_length=TITLE_MAX)
    body = models.TextField()
    # The rider's bike ("Rides a 2019 Yamaha MT-07"); and did the part fit it (None: not said).
    vehicle = models.ForeignKey(
        "catalog.Vehicle", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    fits = models.BooleanField(null=True, blank=True)
    hidden = models.BooleanField(
        default=False, help_text="Hidden reviews show nowhere in the shop and count in no rating."
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["user", "part"], name="reviews_partreview_one"),
            models.CheckConstraint(
                condition=models.Q(rating__gte=MIN_RATING, rating__lte=MAX_RATING),
                name="reviews_partreview_rating_1_to_5",
            ),
        ]
        indexes = [
            # A part's reviews, newest first (its page, the API).
            models.Index(fields=["part", "-created_at", "-id"], name="reviews_partreview_newest"),
        ]

    def __str__(self):
        return f"{self.name} on part {self.part_id}: {self.rating}/5"
