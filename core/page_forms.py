"""Server-rendered forms validated by the API's own input serializers (one rule, two doors)."""

from collections.abc import Mapping

from django.contrib import messages
from django.shortcuts import redirect
from rest_framework import serializers


def submitted(data: Mapping) -> dict:
    """The fields a person filled in: an empty or blank input counts as not given, so the
    serializer answers with its "is required" message instead of a type error."""
    return {key: data[key] for key in data if str(data[key]).strip()}


def validate(
    serializer_class: type[serializers.Serializer], data: Mapping, files: Mapping | None = None
) -> tuple[dict | None, dict[str, list[str]]]:
    """(validated_data, {}) when `data` (and the uploaded `files`, if any) pass
    `serializer_class`, else (None, field errors).

    The errors are keyed by input name (as in the API's 400 body) with plain-text messages,
    ready for a template: `errors.price.0`.
    """
    chosen = {name: files[name] for name in files or {}}  # a file input left empty sends none
    serializer = serializer_class(data={**submitted(data), **chosen})
    if serializer.is_valid():
        return serializer.validated_data, {}
    return None, {
        field: [str(m) for m in messages] for field, messages in serializer.errors.items()
    }


def handle_form(request, serializer_class, *, save, success: str, initial: Mapping | None = None):
    """One page form, the same way everywhere: on a valid POST `save(validated_data)`, then
    redirect back with the `success` message; else the template's {"values", "errors"}.

    Returns (redirect, None) or (None, context).
    """
    values, errors = initial or {}, {}
    if request.method == "POST":
        data, errors = validate(serializer_class, request.POST, request.FILES)
        if data is not None:
            save(data)
            messages.success(request, success)
            return redirect(request.path), None
        values = request.POST
    return None, {"values": values, "errors": errors}
