"""Part images sent as files: the one place that checks, cleans and stores them, for the API,
the dashboard's part forms and Django admin alike.

A file is taken only when Pillow decodes it as a PNG, JPEG or WebP (its name and declared
content type count for nothing): an HTML or SVG page called "photo.png" is refused, and no
other decoder of Pillow ever sees the bytes. Its size in pixels is checked from the header
before any pixel is decoded (a small file can unpack to gigabytes). What is stored is a new
file of the decoded pixels, in the same format: no EXIF (location, camera), no ICC profile,
no text chunks, no comments, no trailing bytes. Stored files get a new random name each,
through Django's storage API (the local media folder, or object storage when configured),
and a part keeps the stored file's URL as its `img`.
"""

import io
import uuid
import warnings
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from PIL import Image, ImageOps

MB = 1024 * 1024
IMAGE_MAX_BYTES = 5 * MB
IMAGE_MAX_PIXELS = 40_000_000  # a 40-megapixel photo: about 160 MB once decoded
UPLOAD_FOLDER = "parts"

IMAGE_INVALID = "Upload a PNG, JPEG or WebP image"
IMAGE_TOO_BIG = "The image must be at most 5 MB"
IMAGE_TOO_MANY_PIXELS = "The image must be at most 40 megapixels"


@dataclass(frozen=True)
class Format:
    extension: str
    content_type: str
    save_options: dict


# Pillow's format name: how a cleaned image of that format is written.
FORMATS = {
    "PNG": Format("png", "image/png", {"optimize": True}),
    "JPEG": Format("jpg", "image/jpeg", {"quality": 90, "optimize": True}),
    "WEBP": Format("webp", "image/webp", {"quality": 90}),
}


@dataclass(frozen=True)
class CleanImage:
    """An uploaded image re-encoded from its pixels alone, ready to store."""

    content: bytes
    format: str  # a key of FORMATS
    width: int
    height: int

    @property
    def extension(self) -> str:
        return FORMATS[self.format].extension

    @property
    def content_type(self) -> str:
        return FORMATS[self.format].content_type


def image_clean(*, file) -> CleanImage:
    """Check an uploaded file (a Django File or anything with read/seek/size) and re-encode it.

    Raises ValidationError with the shop's message when it is over 5 MB, is not a PNG, JPEG or
    WebP that decodes, or has more than IMAGE_MAX_PIXELS pixels.
    """
    size = getattr(file, "size", None)
    if size is not None and size > IMAGE_MAX_BYTES:
        raise ValidationError(IMAGE_TOO_BIG, code="too_big")
    raw = _read(file)
    if not raw:
        raise ValidationError(IMAGE_INVALID, code="invalid")
    try:
        with warnings.catch_warnings():
            # Pillow's own bomb guard warns from MAX_IMAGE_PIXELS on: refuse it, never decode.
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(raw), formats=list(FORMATS)) as probe:
                _check_pixels(probe)
                probe.verify()  # the file's structure and checksums, no pixels decoded yet
            with Image.open(io.BytesIO(raw), formats=list(FORMATS)) as image:
                _check_pixels(image)
                image.load()
                return _re_encoded(image)
    except ValidationError:
        raise
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise ValidationError(IMAGE_TOO_MANY_PIXELS, code="too_many_pixels") from None
    except Exception:  # whatever a broken or hostile file makes a decoder raise: never a 500
        raise ValidationError(IMAGE_INVALID, code="invalid") from None


def _read(file) -> bytes:
    """The whole upload, at most one byte past the limit (a size that lied is caught too)."""
    if hasattr(file, "seek"):
        file.seek(0)
    raw = file.read(IMAGE_MAX_BYTES + 1)
    if len(raw) > IMAGE_MAX_BYTES:
        raise ValidationError(IMAGE_TOO_BIG, code="too_big")
    return raw


def _check_pixels(image: Image.Image) -> None:
    width, height = image.size
    if width * height > IMAGE_MAX_PIXELS:
        raise ValidationError(IMAGE_TOO_MANY_PIXELS, code="too_many_pixels")


def _re_encoded(image: Image.Image) -> CleanImage:
    """A new file of `image`'s first frame, upright, with nothing but its pixels."""
    source_format = image.format
    try:
        upright = ImageOps.exif_transpose(image)  # as the camera meant it, before EXIF goes
    except Exception:  # an unreadable orientation tag: the pixels as they are stored
        upright = image
    has_alpha = "A" in upright.getbands() or "transparency" in upright.info
    mode = "RGBA" if has_alpha and source_format != "JPEG" else "RGB"
    pixels = upright.convert(mode)
    pixels.info = {}  # convert() copies the metadata along: none of it is written
    out = io.BytesIO()
    pixels.save(out, format=source_format, **FORMATS[source_format].save_options)
    return CleanImage(
        content=out.getvalue(), format=source_format, width=pixels.width, height=pixels.height
    )


def image_save(*, image: CleanImage) -> str:
    """Store a cleaned image under a new name; its URL (what a part keeps as `img`)."""
    name = f"{UPLOAD_FOLDER}/{uuid.uuid4().hex}.{image.extension}"
    stored = default_storage.save(name, ContentFile(image.content))
    return default_storage.url(stored)
