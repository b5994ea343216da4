"""Saved parts' endpoints: GET/POST /api/saved, DELETE /api/saved/{partId}, for anyone (an
account's saved parts, or a visitor's session's). Each answers the whole list, the latest saved
first: {"parts": [<part> plus "savedPrice"], "count"}. Every answer is personal:
`Cache-Control: private, no-store`. Visitors' writes are limited per client address
(THROTTLE_VISITOR_WRITES)."""

from django.conf import settings
from django.utils.cache import patch_cache_control
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api import MAX_ID, errors
from core.fields import required
from core.throttles import VisitorWriteThrottle

from . import saved
from .serializers import PartOutputSerializer, with_other_numbers

# Not personal, not secret: it tells the page's script that this browser may have saved
# parts, so the "Save" buttons are marked "Saved" without making visitors' pages personal
# (site.js, lib/saved.js): set by every answer while there are saved parts, deleted after.
HINT_COOKIE = "saved_parts"


class SavedPartOutputSerializer(PartOutputSerializer):
    """`<part>` as the parts API answers it, plus its price when saved."""

    savedPrice = serializers.DecimalField(
        source="saved_price", max_digits=10, decimal_places=2, coerce_to_string=False
    )

    class Meta(PartOutputSerializer.Meta):
        fields = [*PartOutputSerializer.Meta.fields, "savedPrice"]


class SavedPartsOutputSerializer(serializers.Serializer):
    parts = SavedPartOutputSerializer(many=True)
    count = serializers.IntegerField()


class SavedPartInputSerializer(serializers.Serializer):
    partId = serializers.IntegerField(
        min_value=1,
        max_value=MAX_ID,
        error_messages={
            **required(saved.PART_REQUIRED),
            "invalid": saved.PART_NOT_WHOLE,
            "max_string_length": saved.PART_NOT_WHOLE,
            "min_value": saved.UNKNOWN_PART,
            "max_value": saved.UNKNOWN_PART,
        },
    )


def keep_hint(request, response, count: int) -> None:
    """The hint cookie says whether there are saved parts (HINT_COOKIE)."""
    if count:
        if request.COOKIES.get(HINT_COOKIE) != "1":
            response.set_cookie(
                HINT_COOKIE,
                "1",
                max_age=settings.SESSION_COOKIE_AGE,
                samesite="Lax",
                secure=settings.SESSION_COOKIE_SECURE,
            )
    elif HINT_COOKIE in request.COOKIES:
        response.delete_cookie(HINT_COOKIE, samesite="Lax")


def _answer(request, parts) -> Response:
    with_other_numbers(parts)
    response = Response(SavedPartsOutputSerializer({"parts": parts, "count": len(parts)}).data)
    patch_cache_control(response, private=True, no_store=True)
    keep_hint(request, response, len(parts))
    return response


def _caller(request) -> dict:
    return {"user": request.user, "session": request.session}


class SavedPartsApi(APIView):
    """GET the saved parts; POST {"partId"} saves one (at its price now; a part saved already
    keeps its first price)."""

    permission_classes = [AllowAny]
    throttle_classes = [VisitorWriteThrottle]

    @extend_schema(responses={200: SavedPartsOutputSerializer, **errors(401)})
    def get(self, request):
        return _answer(request, saved.saved_parts_read(**_caller(request)))

    @extend_schema(
        request=SavedPartInputSerializer,
        responses={200: SavedPartsOutputSerializer, **errors(400, 401, 415)},
    )
    def post(self, request):
        data = SavedPartInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        part_id = data.validated_data["partId"]
        return _answer(request, saved.saved_part_add(**_caller(request), part_id=part_id))


class SavedPartApi(APIView):
    """DELETE /api/saved/{partId}: the part leaves the saved parts (a part not saved, or no
    such part: nothing to do, 200 all the same)."""

    permission_classes = [AllowAny]
    throttle_classes = [VisitorWriteThrottle]

    # 404: an id that is not a whole number names no route.
    @extend_schema(responses={200: SavedPartsOutputSerializer, **errors(401, 404)})
    def delete(self, request, pk):
        return _answer(request, saved.saved_part_remove(**_caller(request), part_id=pk))
