"""Review shapes of the API."""

from rest_framework import serializers

from catalog.fitment_serializers import VehicleSerializer
from catalog.garage import UNKNOWN_VEHICLE
from catalog.models import Vehicle
from catalog.selectors import vehicle_get
from core.api import MAX_PAGE, PageInputSerializer
from core.fields import required

from .models import BODY_MAX, MAX_RATING, MIN_RATING, TITLE_MAX, PartReview, Review

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


# --- Part reviews -----------------------------------------------------------------------------

RATING_INVALID = "Rating must be a whole number from 1 to 5"
TITLE_REQUIRED = "Title is required"
TITLE_TOO_LONG = f"Title must be at most {TITLE_MAX} characters"
BODY_REQUIRED = "Review is required"
BODY_TOO_LONG = f"Review must be at most {BODY_MAX:,} characters"
FITS_INVALID = "Did it fit? must be true, false or null"
HIDDEN_INVALID = "hidden must be true or false"


class PartReviewOutputSerializer(serializers.ModelSerializer):
    """<partReview>: `verifiedBuyer` as read with it (reviews.selectors.bought)."""

    _id = serializers.IntegerField(source="pk", read_only=True)
    vehicle = VehicleSerializer(allow_null=True)
    verifiedBuyer = serializers.BooleanField(source="verified_buyer", default=False)
    createdAt = serializers.DateTimeField(source="created_at")

    class Meta:
        model = PartReview
        fields = [
            "_id",
            "rating",
            "title",
            "body",
            "name",
            "vehicle",
            "fits",
            "verifiedBuyer",
            "createdAt",
        ]


class FitCountSerializer(serializers.Serializer):
    vehicle = VehicleSerializer()
    fits = serializers.IntegerField()
    doesNotFit = serializers.IntegerField()


class PartReviewsOutputSerializer(serializers.Serializer):
    average = serializers.FloatField(allow_null=True)
    count = serializers.IntegerField()
    fit = FitCountSerializer(many=True)
    reviews = PartReviewOutputSerializer(many=True)


class PartReviewInputSerializer(serializers.Serializer):
    """POST /api/allparts/{id}/reviews and PUT …/reviews/mine (and the part page's form):
    `vehicle` any vehicle the shop knows (not only one in the rider's garage: the bike they
    rode when it was bought may have left it), or null."""

    rating = serializers.IntegerField(
        min_value=MIN_RATING,
        max_value=MAX_RATING,
        error_messages={
            **required(RATING_INVALID),
            "invalid": RATING_INVALID,
            "min_value": RATING_INVALID,
            "max_value": RATING_INVALID,
            "max_string_length": RATING_INVALID,
        },
    )
    title = serializers.CharField(
        max_length=TITLE_MAX,
        error_messages={**required(TITLE_REQUIRED), "max_length": TITLE_TOO_LONG},
    )
    body = serializers.CharField(
        max_length=BODY_MAX,
        error_messages={**required(BODY_REQUIRED), "max_length": BODY_TOO_LONG},
    )
    vehicle = serializers.IntegerField(
        required=False,
        allow_null=True,
        default=None,
        error_messages=dict.fromkeys(
            ("invalid", "max_string_length", "min_value", "max_value"), UNKNOWN_VEHICLE
        ),
    )
    fits = serializers.BooleanField(
        required=False,
        allow_null=True,
        default=None,
        error_messages={"invalid": FITS_INVALID},
    )

    def validate_vehicle(self, value) -> Vehicle | None:
        if value is None:
            return None
        vehicle = vehicle_get(value)
        if vehicle is None:
            raise serializers.ValidationError(UNKNOWN_VEHICLE)
        return vehicle


class PartReviewHiddenInputSerializer(serializers.Serializer):
    hidden = serializers.BooleanField(
        error_messages={**required(HIDDEN_INVALID), "invalid": HIDDEN_INVALID}
    )
