"""Review endpoints: the reviews list and posting a review."""

from drf_spectacular.utils import extend_schema
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api import created, errors, with_count
from core.throttles import record

from . import selectors, services
from .serializers import (
    ReviewInputSerializer,
    ReviewOutputSerializer,
    ReviewPageInputSerializer,
)
from .throttles import ReviewThrottle


class ReviewApi(APIView):
    throttle_classes = [ReviewThrottle]  # reviews posted, per user

    def get_permissions(self):
        return [IsAuthenticated()] if self.request.method == "POST" else []

    @extend_schema(
        parameters=[ReviewPageInputSerializer],
        responses={200: ReviewOutputSerializer(many=True), **errors(400, 401)},
    )
    def get(self, request):
        page = ReviewPageInputSerializer(data=request.query_params)
        page.is_valid(raise_exception=True)
        reviews = selectors.review_list(**page.validated_data)
        return Response(ReviewOutputSerializer(reviews, many=True).data)

    @extend_schema(
        request=ReviewInputSerializer,
        responses={
            201: with_count(ReviewOutputSerializer, "insertedId"),
            **errors(400, 401, 403, 415),
        },
    )
    def post(self, request):
        data = ReviewInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        review = services.review_create(user=request.user, **data.validated_data)
        record(request, self)
        return created(ReviewOutputSerializer(review).data, review.pk)
