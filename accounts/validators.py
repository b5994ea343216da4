"""The account rules and their messages, shared by the API, the allauth forms and the admin."""

import re

from django.core.exceptions import ValidationError
from django.core.validators import validate_email

MIN_PASSWORD_LENGTH = 6

EMAIL_REQUIRED = "Email is required"
EMAIL_INVALID = "Provide a valid email"
EMAIL_TAKEN = "An account with this email already exists"
PASSWORD_REQUIRED = "Password is required"
PASSWORD_TOO_SHORT = "Must be 6 characters or longer"
NAME_REQUIRED = "Name is required"
# Look-alike letters (a Cyrillic "а" in "аttacker") make one address pass for another.
EMAIL_NOT_ASCII = "Use only plain letters (a-z), digits and symbols in an email address"

# A deliberately simple pattern: lowercase letters/digits, @, lowercase letters, dot, 2-3 letters.
SPEC_EMAIL_PATTERN = re.compile(r"[a-z0-9]+@[a-z]+\.[a-z]{2,3}")


def validate_shop_email(value: str) -> None:
    """Raise ValidationError with the shop's message unless value is a usable address."""
    if not value.isascii():
        raise ValidationError(EMAIL_NOT_ASCII, code="not_ascii")
    if not SPEC_EMAIL_PATTERN.search(value):
        raise ValidationError(EMAIL_INVALID, code="invalid")
    try:
        validate_email(value)
    except ValidationError as exc:
        raise ValidationError(EMAIL_INVALID, code="invalid") from exc


class MinimumLengthValidator:
    """Django password validator: at least MIN_PASSWORD_LENGTH characters, with its message."""

    def validate(self, password, user=None):
        if len(password or "") < MIN_PASSWORD_LENGTH:
            raise ValidationError(PASSWORD_TOO_SHORT, code="password_too_short")

    def get_help_text(self):
        return PASSWORD_TOO_SHORT


LINKEDIN_INVALID = "Provide a valid URL starting with http:// or https://"


def validate_http_url(value: str) -> None:
    """Only http(s) URLs: no javascript:, data: or other schemes."""
    from django.core.validators import URLValidator

    try:
        URLValidator(schemes=["http", "https"])(value)
    except ValidationError as exc:
        raise ValidationError(LINKEDIN_INVALID, code="invalid") from exc


# An address's postcode: 2-12 letters, digits, spaces or dashes; in the US a ZIP code.
POSTCODE_REQUIRED = "Postcode is required"
POSTCODE_INVALID = "Provide a valid postcode (2 to 12 letters, digits, spaces or dashes)"
US_POSTCODE_INVALID = "Provide a valid US ZIP code (5 digits, or 5+4 like 62701-1234)"
POSTCODE_PATTERN = re.compile(r"^[A-Za-z0-9 -]{2,12}$")
US_POSTCODE_PATTERN = re.compile(r"^[0-9]{5}(-[0-9]{4})?$")


def validate_postcode(value: str, *, country: str = "") -> None:
    """The postcode rule of API.md; a US address needs a ZIP code (`country` upper case)."""
    if not POSTCODE_PATTERN.match(value):
        raise ValidationError(POSTCODE_INVALID, code="invalid")
    if country == "US" and not US_POSTCODE_PATTERN.match(value):
        raise ValidationError(US_POSTCODE_INVALID, code="invalid_us")
