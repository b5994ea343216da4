"""Part review endpoints: a part's riders' reviews, writing one's own, and hiding (admins)."""

from django.http import Http404
from django.utils.cache import patch_cache_control
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from catalog.models import Part
from core.api import errors, get_or_404
from core.permissions import IsShopAdmin
from core.throttles import record

from . import selectors, services
from .models import PartReview
from .serializers import (
    PartReviewHiddenInputSerializer,
    PartReviewInputSerializer,
    PartReviewOutputSerializer,
    PartReviewsOutputSerializer,
    ReviewPageInputSerializer,
)
from .throttles import PartReviewThrottle


def _part(pk: int) -> Part:
    return get_or_404(Part.objects.only("id", "rating_average", "rating_count"), pk)


def _review_answer(review: PartReview, status_code: int = status.HTTP_200_OK) -> Response:
    # Read again with `verified_buyer` (a write's object has none).
    review = selectors.part_review_get(pk=review.pk)
    return Response(PartReviewOutputSerializer(review).data, status=status_code)


class PartReviewsApi(APIView):
    """GET a part's shown reviews with its rating and the verified buyers' fit answers; POST
    the caller's review of it (one per account and part)."""

    throttle_classes = [PartReviewThrottle]  # reviews written, per user

    def get_permissions(self):
        return [IsAuthenticated()] if self.request.method == "POST" else []

    @extend_schema(
        parameters=[ReviewPageInputSerializer],
        responses={200: PartReviewsOutputSerializer, **errors(400, 401, 404)},
    )
    def get(self, request, pk: int):
        part = _part(pk)
        page = ReviewPageInputSerializer(data=request.query_params)
        page.is_valid(raise_exception=True)
        answer = {
            "average": None if part.rating_average is None else float(part.rating_average),
            "count": part.rating_count,
            "fit": selectors.part_fit_counts(part_id=pk),
            "reviews": selectors.part_review_list(part_id=pk, **page.validated_data),
        }
        return Response(PartReviewsOutputSerializer(answer).data)

    @extend_schema(
        request=PartReviewInputSerializer,
        responses={201: PartReviewOutputSerializer, **errors(400, 401, 404, 409, 415, 429)},
    )
    def post(self, request, pk: int):
        part = _part(pk)
        data = PartReviewInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        review = services.part_review_create(user=request.user, part=part, **data.validated_data)
        record(request, self)
        return _review_answer(review, status.HTTP_201_CREATED)


class MyPartReviewApi(APIView):
    """PUT /api/allparts/{id}/reviews/mine: its author changes their review of the part."""

    permission_classes = [IsAuthenticated]
    throttle_classes = [PartReviewThrottle]

    @extend_schema(
        request=PartReviewInputSerializer,
        responses={200: PartReviewOutputSerializer, **errors(400, 401, 404, 415, 429)},
    )
    def put(self, request, pk: int):
        review = selectors.part_review_of(user=request.user, part_id=pk)
        if review is None:
            raise Http404
        data = PartReviewInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        review = services.part_review_update(review=review, **data.validated_data)
        record(request, self)
        response = _review_answer(review)
        patch_cache_control(response, private=True, no_store=True)
        return response


class PartReviewHideApi(APIView):
    """PUT /api/part-reviews/{id} {"hidden": bool}: a shop admin hides a review (or shows it
    again); it then counts in no rating."""

    permission_classes = [IsShopAdmin]

    @extend_schema(
        request=PartReviewHiddenInputSerializer,
        responses={200: PartReviewOutputSerializer, **errors(400, 401, 403, 404, 415)},
    )
    def put(self, request, pk: int):
        get_or_404(PartReview.objects.only("id"), pk)
        data = PartReviewHiddenInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.part_review_set_hidden(
            reviews=PartReview.objects.filter(pk=pk), hidden=data.validated_data["hidden"]
        )
        return _review_answer(PartReview(pk=pk))
