"""Rules for part fields, shared by the API, the admin and import_parts."""

from django.core.exceptions import ValidationError
from django.core.validators import URLValidator

IMG_INVALID = (
    "Provide an image URL starting with http:// or https://, or a path under /static/ or /media/"
)
LOCAL_IMAGE_PREFIXES = ("/static/", "/media/")


def validate_image_url(value: str) -> None:
    """Images are http(s) URLs or the shop's own static/media paths (no javascript: etc.)."""
    if not value:
        return
    if value.startswith(LOCAL_IMAGE_PREFIXES):
        if ".." in value or any(ch.isspace() for ch in value) or "\\" in value:
            raise ValidationError(IMG_INVALID, code="invalid")
        return
    try:
        URLValidator(schemes=["http", "https"])(value)
    except ValidationError as exc:
        raise ValidationError(IMG_INVALID, code="invalid") from exc
