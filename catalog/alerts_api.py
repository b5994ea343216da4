"""POST /api/allparts/{id}/alerts: "Email me when it's back" (catalog.alerts). Anyone may ask:
a signed-in caller for their account's address (the payload's `email` is not needed), a
visitor for the `email` sent, whose alert starts once the link mailed to it is opened."""

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api import DetailSerializer, errors, get_or_404
from core.throttles import VisitorWriteThrottle

from . import alerts
from .models import Part
from .throttles import AlertThrottle


class AlertInputSerializer(serializers.Serializer):
    email = serializers.EmailField(max_length=254)


class PartAlertsApi(APIView):
    throttle_classes = [AlertThrottle, VisitorWriteThrottle]

    @extend_schema(
        request=AlertInputSerializer,
        responses={201: DetailSerializer, **errors(400, 401, 404, 409, 415, 429)},
    )
    def post(self, request, pk):
        """Ask for one mail when the part is back in stock (409 while it is in stock; at most
        20 alerts per e-mail address: 400 on `email`)."""
        part = get_or_404(Part.objects.only("pk"), pk)
        email = ""
        if not request.user.is_authenticated:
            data = AlertInputSerializer(data=request.data)
            data.is_valid(raise_exception=True)
            email = data.validated_data["email"]
        alerts.stock_alert_ask(part_id=part.pk, user=request.user, email=email)
        return Response({"detail": alerts.STARTED}, status=status.HTTP_201_CREATED)
