"""Review shapes of the API."""

from rest_framework import serializers

from core.api import MAX_PAGE, PageInputSerializer
from core.fields import required

from .models import MAX_RATING, MIN_RATING, Review

RATINGS_INVALID = "Ratings must be a whole number from 1 to 5"
REVIEW_REQUIRED = "Review is required"
MAX_REVIEW_LENGTH = 2000
REVIEW_TOO_LONG = f"Review must be at most {MAX_REVIEW_LENGTH:,} characters"


class ReviewOutputSerializer(serializers.ModelSerializer):
    _id = serializers.IntegerField(source="pk", read_only=True)
    createdAt = serializers.DateTimeField(source="created_at")

    class Meta:
        model = Review
        fields = ["_id", "name", "review", "ratings", "createdAt"]


class ReviewInputSerializer(serializers.Serializer):
    """name defaults to the reviewer's display name."""

    name = serializers.CharField(max_length=150, required=False, allow_blank=True, allow_null=True)
    review = serializers.CharField(
        max_length=MAX_REVIEW_LENGTH,
        error_messages={**required(REVIEW_REQUIRED), "max_length": REVIEW_TOO_LONG},
    )
    ratings = serializers.IntegerField(
        min_value=MIN_RATING,
        max_value=MAX_RATING,
        error_messages={
            **required(RATINGS_INVALID),
            "invalid": RATINGS_INVALID,
            "min_value": RATINGS_INVALID,
            "max_value": RATINGS_INVALID,
        },
    )


class ReviewPageInputSerializer(PageInputSerializer):
    """GET /api/review's paging: the newest 50 unless `limit` says otherwise."""

    limit = serializers.IntegerField(required=False, default=50, min_value=1, max_value=MAX_PAGE)
