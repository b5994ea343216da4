"""Real image files for the upload tests, made with Pillow, with the metadata a camera or an
editor leaves in them (EXIF with a location, text chunks, an ICC profile, a comment)."""

import io
import struct
import zlib

from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image, ImageCms, PngImagePlugin

GPS_IFD = 0x8825
ORIENTATION = 0x0112
SECRET = "Secret workshop, 51.5N 0.12W"


def exif(*, orientation: int | None = None) -> Image.Exif:
    data = Image.Exif()
    data[0x010F] = "PhoneMaker"  # Make
    data[0x0131] = SECRET  # Software
    data.get_ifd(GPS_IFD)[2] = (51.0, 30.0, 0.0)  # GPSLatitude
    if orientation:
        data[ORIENTATION] = orientation
    return data


def picture(size=(64, 48), mode="RGB") -> Image.Image:
    """A picture with a left half red and a right half blue (so orientation shows)."""
    image = Image.new(mode, size, "red")
    image.paste("blue", (size[0] // 2, 0, size[0], size[1]))
    return image


def png_bytes(size=(64, 48), mode="RGB", **save) -> bytes:
    info = PngImagePlugin.PngInfo()
    info.add_text("Comment", SECRET)
    info.add_itxt("Author", SECRET)
    srgb = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()
    out = io.BytesIO()
    picture(size, mode).save(out, "PNG", pnginfo=info, exif=exif(), icc_profile=srgb, **save)
    return out.getvalue()


def jpeg_bytes(size=(64, 48), *, orientation: int | None = None) -> bytes:
    out = io.BytesIO()
    picture(size).save(out, "JPEG", exif=exif(orientation=orientation), comment=SECRET.encode())
    return out.getvalue()


def webp_bytes(size=(64, 48)) -> bytes:
    """A lossless WebP with a transparent corner."""
    image = picture(size, "RGBA")
    image.paste((0, 0, 0, 0), (0, 0, 8, 8))
    out = io.BytesIO()
    image.save(out, "WEBP", exif=exif(), lossless=True)
    return out.getvalue()


def gif_bytes() -> bytes:
    out = io.BytesIO()
    picture().save(out, "GIF")
    return out.getvalue()


def png_header(width: int, height: int) -> bytes:
    """A PNG that claims `width` × `height` pixels in a few bytes (a decompression bomb's
    header: the pixels are never there)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        )

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    idat = zlib.compress(b"\0" * 16)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", idat) + chunk(b"IEND", b"")


HTML_AS_PNG = b"<!DOCTYPE html><html><body><script>alert(document.cookie)</script></body></html>"
SVG = (
    b'<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">'
    b'<script>alert(1)</script><rect width="10" height="10"/></svg>'
)


def upload(content: bytes, name: str = "part.png", content_type: str = "image/png"):
    return SimpleUploadedFile(name, content, content_type=content_type)


def metadata_of(raw: bytes) -> dict:
    """What a stored file says besides its pixels: its info and EXIF, and the secret's bytes."""
    with Image.open(io.BytesIO(raw)) as image:
        return {
            "format": image.format,
            "info": {k: v for k, v in image.info.items() if k not in ("dpi",)},
            "exif": dict(image.getexif()),
            "secret": SECRET.encode() in raw,
        }
