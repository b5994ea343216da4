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


class FlatListField(serializers.ListField):
    """A list whose bad items' messages are the field's own, each once: the API's 400 is a list
    of messages per field (DRF's ListField answers {index: [messages]}). Its child is a plain
    field, whose errors are a list of messages (not a serializer's, by field)."""

    def to_internal_value(self, data):
        try:
            return super().to_internal_value(data)
        except serializers.ValidationError as invalid:
            if not isinstance(invalid.detail, dict):
                raise
            once = {}  # by their words: the same words under two codes are one message
            for messages in invalid.detail.values():
                for message in messages:
                    once.setdefault(str(message), message)
            raise serializers.ValidationError(list(once.values())) from invalid


class SlugLookupField(serializers.SlugRelatedField):
    """DRF's SlugRelatedField, where a value with a NUL character is an unknown slug without a
    lookup: PostgreSQL refuses such text in a query (a 500)."""

    def to_internal_value(self, data):
        if isinstance(data, str) and "\x00" in data:
            self.fail("does_not_exist", slug_name=self.slug_field, value=data)
        return super().to_internal_value(data)
