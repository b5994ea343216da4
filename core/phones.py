"""Phone numbers as the shop takes them: on a profile and on an order."""

import re

from django.core.exceptions import ValidationError

PHONE_REQUIRED = "Phone is required"
PHONE_INVALID = "Provide a valid phone number (digits, optionally starting with +)"
PHONE_PATTERN = re.compile(r"^\+?[0-9]{4,15}$")


def normalize_phone(value: str) -> str:
    """Drop the spaces, dashes, dots and brackets people type between digits."""
    return re.sub(r"[\s\-.()]", "", value or "")


def validate_phone(value: str) -> None:
    if not PHONE_PATTERN.match(value):
        raise ValidationError(PHONE_INVALID, code="invalid")
