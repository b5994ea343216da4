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
