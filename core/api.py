"""Shared API plumbing: error mapping, optional trailing slashes, schema hooks."""

from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404, HttpResponse, JsonResponse
from django.views import defaults
from django.views.decorators.csrf import csrf_exempt
from drf_spectacular.extensions import OpenApiSerializerExtension
from rest_framework import exceptions, serializers, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler
from rest_framework.views import set_rollback

from .errors import ShopError
from .middleware import database_unavailable, is_database_error
from .paging import counted_slice
from .routing import MAX_ID


def exception_handler(exc, context):
    """DRF's handler, plus the services' errors: a Django ValidationError is a 400 with field
    messages, a ShopError its status with {"detail": message} (and its extra fields), a lost
    database a 503."""
    if isinstance(exc, ShopError) and exc.extra:
        # Not through APIException, which would turn every extra value into a string.
        set_rollback()
        return Response({"detail": exc.message, **exc.extra}, status=exc.status_code)
    if isinstance(exc, DjangoValidationError):
        detail = (
            exc.message_dict if hasattr(exc, "error_dict") else {"non_field_errors": exc.messages}
        )
        exc = exceptions.ValidationError(detail=detail)
    elif isinstance(exc, ShopError):
        error = exceptions.APIException(detail=exc.message)
        error.status_code = exc.status_code
        exc = error
    elif is_database_error(exc):  # the database is out of reach: 503, as for pages
        return database_unavailable(context["request"], exc)
    return drf_exception_handler(exc, context)


def drop_trailing_slash_duplicates(endpoints):
    """drf-spectacular hook: list each operation once, under its slash-less path."""
    return [e for e in endpoints if not e[0].endswith("/")]


def with_count(output_class, field: str):
    """Schema of an answer: `output_class` plus one integer (insertedId, modifiedCount)."""
    name = output_class.__name__.replace("Output", field[0].upper() + field[1:])
    meta = type("Meta", (output_class.Meta,), {"fields": [*output_class.Meta.fields, field]})
    return type(name, (output_class,), {field: serializers.IntegerField(), "Meta": meta})


def created(data: dict, pk: int) -> Response:
    """201 with the new object and its insertedId."""
    return Response({**data, "insertedId": pk}, status=status.HTTP_201_CREATED)


class DetailSerializer(serializers.Serializer):
    """Schema of `{"detail": "…"}` error bodies."""

    detail = serializers.CharField()


class ValidationErrorSerializer(serializers.Serializer):
    """Schema of 400 bodies: `{"<field>": ["message", …]}` (a nested object's fields under
    its name: `{"<field>": {"<its field>": ["message", …]}}`), or `{"detail": "…"}` when the
    request as a whole is refused (unreadable JSON, a payment that does not check out)."""


class ValidationErrorExtension(OpenApiSerializerExtension):
    target_class = ValidationErrorSerializer

    def map_serializer(self, auto_schema, direction):
        detail = {
            "type": "object",
            "properties": {"detail": {"type": "string"}},
            "required": ["detail"],
        }
        messages = {"type": "array", "items": {"type": "string"}}
        nested = {"type": "object", "additionalProperties": messages}
        field_messages = {
            "type": "object",
            "additionalProperties": {"oneOf": [messages, nested]},
            "minProperties": 1,
        }
        return {"oneOf": [field_messages, detail]}


def errors(*codes: int) -> dict:
    """The error answers of an operation, for @extend_schema(responses=…): 400 as field
    messages (or a detail), every other status as `{"detail": "…"}`."""
    return {code: ValidationErrorSerializer if code == 400 else DetailSerializer for code in codes}


MAX_PAGE = 500  # the most rows one list answer gives


class PageInputSerializer(serializers.Serializer):
    """Optional `?limit=N&offset=M` of list endpoints: 400 on the parameter that is wrong."""

    limit = serializers.IntegerField(required=False, min_value=1, max_value=MAX_PAGE)
    offset = serializers.IntegerField(required=False, min_value=0, max_value=MAX_ID, default=0)


def page_response(
    items,
    serializer_class,
    page: PageInputSerializer,
    *,
    total: int | None = None,
    count_in_rows: bool = False,
    write=None,
    encode=None,
) -> HttpResponse:
    """One `?limit=N&offset=M` slice of `items` (a queryset or core.paging.Rows, in its order)
    serialized by `serializer_class` (or written by `write(rows)`, the same JSON by a quicker
    way, or `encode(rows)`: that JSON's body, already encoded), with X-Total-Count: how many
    items there are before the slice (`total` when the caller knows it, e.g. from a cache;
    else counted: core.paging)."""
    offset = page.validated_data["offset"]
    limit = page.validated_data.get("limit")
    stop = offset + limit if limit else None
    rows, total = counted_slice(items, offset, stop, total=total, count_in_rows=count_in_rows)
    if encode:
        response = HttpResponse(encode(rows), content_type="application/json")
    else:
        response = Response(write(rows) if write else serializer_class(rows, many=True).data)
    response["X-Total-Count"] = str(total)
    return response


def get_or_404(queryset, pk: int):
    """The object with this id in `queryset`, else 404 (ids beyond the database's range too)."""
    obj = queryset.filter(pk=pk).first() if 0 < pk <= MAX_ID else None
    if obj is None:
        raise Http404
    return obj


@csrf_exempt
def not_found(request, *args, **kwargs):
    """JSON 404 for paths under /api/ that name no endpoint."""
    return JsonResponse({"detail": "Not found."}, status=404)


BAD_REQUEST = "The request could not be read (too large, or malformed)."


def bad_request(request, exception):
    """handler400: Django's answer to a request it refuses before any view runs (a body over
    DATA_UPLOAD_MAX_MEMORY_SIZE, too many fields, …): JSON under /api/, the page elsewhere."""
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": BAD_REQUEST}, status=400)
    return defaults.bad_request(request, exception)
