"""Shared API plumbing: error mapping, optional trailing slashes, schema hooks."""

from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404, JsonResponse
from rest_framework import exceptions, serializers, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from .errors import ShopError


def exception_handler(exc, context):
    """DRF's handler, plus the services' errors: a Django ValidationError is a 400 with field
    messages, a ShopError its status with {"detail": message}."""
    if isinstance(exc, DjangoValidationError):
        detail = (
            exc.message_dict if hasattr(exc, "error_dict") else {"non_field_errors": exc.messages}
        )
        exc = exceptions.ValidationError(detail=detail)
    elif isinstance(exc, ShopError):
        error = exceptions.APIException(detail=exc.message)
        error.status_code = exc.status_code
        exc = error
    return drf_exception_handler(exc, context)


def drop_trailing_slash_duplicates(endpoints):
    """drf-spectacular hook: list each operation once, under its slash-less path."""
    return [e for e in endpoints if not e[0].endswith("/")]


def with_count(output_class, field: str):
    """Schema of an answer: `output_class` plus one integer (the spec's insertedId, modifiedCount)."""
    name = output_class.__name__.replace("Output", field[0].upper() + field[1:])
    meta = type("Meta", (output_class.Meta,), {"fields": [*output_class.Meta.fields, field]})
    return type(name, (output_class,), {field: serializers.IntegerField(), "Meta": meta})


def created(data: dict, pk: int) -> Response:
    """201 with the new object and its insertedId."""
    return Response({**data, "insertedId": pk}, status=status.HTTP_201_CREATED)


class DetailSerializer(serializers.Serializer):
    """Schema of `{"detail": "…"}` error bodies."""

    detail = serializers.CharField()


MAX_ID = 2**63 - 1


def get_or_404(queryset, pk: int):
    """The object with this id in `queryset`, else 404 (ids beyond the database's range too)."""
    obj = queryset.filter(pk=pk).first() if 0 < pk <= MAX_ID else None
    if obj is None:
        raise Http404
    return obj


def not_found(request, *args, **kwargs):
    """JSON 404 for paths under /api/ that name no endpoint."""
    return JsonResponse({"detail": "Not found."}, status=404)
