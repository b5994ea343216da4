"""Serializer pieces every app's API uses."""

from rest_framework import serializers

from .phones import PHONE_REQUIRED, normalize_phone, validate_phone


def required(message: str) -> dict:
    """error_messages that say `message` when a field is missing, null or blank."""
    return {"required": message, "null": message, "blank": message}


class PhoneField(serializers.CharField):
    """A phone number: digits with an optional leading +, separators dropped."""

    def __init__(self, **kwargs):
        kwargs.setdefault("max_length", 20)
        kwargs.setdefault("error_messages", required(PHONE_REQUIRED))
        super().__init__(validators=[validate_phone], **kwargs)

    def to_internal_value(self, data):
        return normalize_phone(super().to_internal_value(data))
