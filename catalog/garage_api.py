"""My Garage's endpoints: the caller's saved bikes and the active one (an account's, or a
visitor's session's). Every answer is personal: `Cache-Control: private, no-store`. Visitors'
writes are limited per client address (THROTTLE_VISITOR_WRITES)."""

from django.utils.cache import patch_cache_control
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api import MAX_ID, errors
from core.throttles import VisitorWriteThrottle

from . import garage
from .fitment_serializers import VehicleSerializer


class GarageOutputSerializer(serializers.Serializer):
    active = VehicleSerializer(allow_null=True)
    vehicles = VehicleSerializer(many=True)


def _vehicle_id(name: str, message: str):
    return serializers.IntegerField(
        min_value=1,
        max_value=MAX_ID,
        error_messages=dict.fromkeys(
            ("invalid", "max_string_length", "min_value", "max_value", "null"), message
        )
        | {"required": "This field is required."},
    )


class GarageAddSerializer(serializers.Serializer):
    vehicle = _vehicle_id("vehicle", garage.UNKNOWN_VEHICLE)


class GarageActivateSerializer(serializers.Serializer):
    active = _vehicle_id("active", garage.NOT_SAVED)


def _answer(found: garage.Garage) -> Response:
    response = Response(GarageOutputSerializer(found).data)
    patch_cache_control(response, private=True, no_store=True)
    return response


def _caller(request) -> dict:
    return {"user": request.user, "session": request.session}


class GarageApi(APIView):
    """GET the garage; POST {"vehicle"} saves a bike and makes it active; PUT {"active"}
    makes a saved bike active."""

    throttle_classes = [VisitorWriteThrottle]

    @extend_schema(responses={200: GarageOutputSerializer, **errors(401)})
    def get(self, request):
        return _answer(garage.garage_read(**_caller(request)))

    @extend_schema(
        request=GarageAddSerializer,
        responses={200: GarageOutputSerializer, **errors(400, 401, 415)},
    )
    def post(self, request):
        data = GarageAddSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        vehicle_id = data.validated_data["vehicle"]
        return _answer(garage.garage_add(**_caller(request), vehicle_id=vehicle_id))

    @extend_schema(
        request=GarageActivateSerializer,
        responses={200: GarageOutputSerializer, **errors(400, 401, 415)},
    )
    def put(self, request):
        data = GarageActivateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        vehicle_id = data.validated_data["active"]
        return _answer(garage.garage_activate(**_caller(request), vehicle_id=vehicle_id))


class GarageBikeApi(APIView):
    """DELETE /api/garage/{vehicleId}: the bike leaves the garage."""

    throttle_classes = [VisitorWriteThrottle]

    # 404: an id that is not a whole number names no route.
    @extend_schema(responses={200: GarageOutputSerializer, **errors(401, 404)})
    def delete(self, request, pk):
        return _answer(garage.garage_remove(**_caller(request), vehicle_id=pk))
