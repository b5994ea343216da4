"""Review endpoints (API.md, "Reviews")."""

from drf_spectacular.utils import extend_schema
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from shop.api import DetailSerializer, created, with_count

from . import services
from .models import Review
from .serializers import ReviewInputSerializer, ReviewOutputSerializer


class ReviewApi(APIView):
    def get_permissions(self):
        return [IsAuthenticated()] if self.request.method == "POST" else []

    @extend_schema(responses=ReviewOutputSerializer(many=True))
    def get(self, request):
        reviews = Review.objects.order_by("-created_at", "-id")
        return Response(ReviewOutputSerializer(reviews, many=True).data)

    @extend_schema(
        request=ReviewInputSerializer,
        responses={
            201: with_count(ReviewOutputSerializer, "insertedId"),
            401: DetailSerializer,
            403: DetailSerializer,
        },
    )
    def post(self, request):
        data = ReviewInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        review = services.review_create(user=request.user, **data.validated_data)
        return created(ReviewOutputSerializer(review).data, review.pk)
