"""Part images sent as files (docs/api.md, "Image uploads"): checked by decoding them,
re-encoded from their pixels alone, stored through Django's storage API and served at their
URL; refused with a message on `image` when they are not a PNG, JPEG or WebP of at most 5 MB."""

import io
import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import pytest
from django.conf import settings
from django.core.exceptions import ValidationError
from django.test import Client
from PIL import Image
from rest_framework.test import APIClient

from catalog import images
from catalog.images import IMAGE_INVALID, IMAGE_TOO_BIG, IMAGE_TOO_MANY_PIXELS, image_clean
from catalog.models import Part
from catalog.tests.factories import PartFactory
from catalog.tests.pictures import (
    HTML_AS_PNG,
    SVG,
    gif_bytes,
    jpeg_bytes,
    metadata_of,
    picture,
    png_bytes,
    png_header,
    upload,
    webp_bytes,
)
from conftest import bearer_client

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


def new_part(**fields) -> dict:
    return {
        "name": "Chain kit 520",
        "minimumOrderQuantity": "1",
        "description": "O-ring chain with sprockets.",
        "availableQuantity": "12",
        "price": "89.90",
        **fields,
    }


def stored_file(url: str) -> Path:
    assert url.startswith(settings.MEDIA_URL), url
    return Path(settings.MEDIA_ROOT) / url.removeprefix(settings.MEDIA_URL)


def stored_files() -> set[Path]:
    return {path for path in Path(settings.MEDIA_ROOT).rglob("*") if path.is_file()}


def pixels(raw: bytes) -> bytes:
    with Image.open(io.BytesIO(raw)) as image:
        return image.convert("RGBA").tobytes()


# --- The service: what is taken, and what is kept of it ------------------------------------


class TestClean:
    def test_a_png_keeps_its_pixels_and_nothing_else(self):
        raw = png_bytes()
        assert metadata_of(raw)["exif"] and metadata_of(raw)["secret"]  # there to be lost

        clean = image_clean(file=upload(raw))

        kept = metadata_of(clean.content)
        assert (clean.format, clean.content_type, clean.extension) == ("PNG", "image/png", "png")
        assert kept == {"format": "PNG", "info": {}, "exif": {}, "secret": False}
        assert pixels(clean.content) == pixels(raw)

    def test_a_jpeg_loses_its_exif_and_comment_and_stands_upright(self):
        raw = jpeg_bytes(size=(64, 48), orientation=6)  # the camera was turned: rotate 90°

        clean = image_clean(file=upload(raw, "photo.jpg", "image/jpeg"))

        kept = metadata_of(clean.content)
        assert (kept["format"], kept["exif"], kept["secret"]) == ("JPEG", {}, False)
        assert not {"exif", "comment", "icc_profile"} & set(kept["info"])
        assert (clean.width, clean.height) == (48, 64)

    def test_a_webp_keeps_its_transparency_but_not_its_exif(self):
        clean = image_clean(file=upload(webp_bytes(), "part.webp", "image/webp"))

        kept = metadata_of(clean.content)
        assert (kept["format"], kept["exif"], kept["secret"]) == ("WEBP", {}, False)
        with Image.open(io.BytesIO(clean.content)) as image:
            assert image.mode == "RGBA"
            assert image.getpixel((0, 0))[3] == 0

    def test_a_palette_png_with_transparency_stays_transparent(self):
        image = picture(mode="RGBA").convert("P")
        out = io.BytesIO()
        image.save(out, "PNG", transparency=0)
        clean = image_clean(file=upload(out.getvalue()))
        with Image.open(io.BytesIO(clean.content)) as stored:
            assert stored.mode == "RGBA"

    @pytest.mark.parametrize(
        ("content", "name", "content_type"),
        [
            (HTML_AS_PNG, "part.png", "image/png"),
            (SVG, "part.svg", "image/svg+xml"),
            (SVG, "part.png", "image/png"),
            (gif_bytes(), "part.gif", "image/gif"),
            (b"GIF89a" + HTML_AS_PNG, "part.png", "image/png"),
            (png_bytes()[:60], "part.png", "image/png"),  # cut short
            (b"", "part.png", "image/png"),
        ],
        ids=["html-as-png", "svg", "svg-as-png", "gif", "gif-header-html", "truncated", "empty"],
    )
    def test_anything_that_is_not_a_png_jpeg_or_webp_is_refused(self, content, name, content_type):
        with pytest.raises(ValidationError) as refusal:
            image_clean(file=upload(content, name, content_type))
        assert refusal.value.messages == [IMAGE_INVALID]

    def test_over_5_mb_is_refused_before_it_is_decoded(self):
        raw = png_bytes() + b"\0" * (5 * 1024 * 1024)
        with pytest.raises(ValidationError) as refusal:
            image_clean(file=upload(raw))
        assert refusal.value.messages == [IMAGE_TOO_BIG]

    @pytest.mark.parametrize("size", [(8000, 6000), (100_000, 100_000)], ids=["48MP", "10GP"])
    def test_a_decompression_bomb_is_refused_from_its_header(self, size):
        with pytest.raises(ValidationError) as refusal:
            image_clean(file=upload(png_header(*size)))
        assert refusal.value.messages == [IMAGE_TOO_MANY_PIXELS]

    def test_stored_under_a_new_name_in_the_media_folder(self):
        clean = image_clean(file=upload(png_bytes(), "../../evil name.png"))

        first, second = images.image_save(image=clean), images.image_save(image=clean)

        assert first != second
        for url in (first, second):
            assert url.startswith("/media/parts/") and url.endswith(".png")
            assert stored_file(url).read_bytes() == clean.content


# --- The API ---------------------------------------------------------------------------------


def test_admin_uploads_a_png_and_its_url_serves_the_clean_image(as_admin):
    response = as_admin.post(
        "/api/allparts", new_part(image=upload(png_bytes())), format="multipart"
    )

    assert response.status_code == 201, response.content
    body = response.json()
    part = Part.objects.get(pk=body["insertedId"])
    assert body["img"] == part.img
    assert part.img.startswith("/media/parts/") and part.img.endswith(".png")
    stored = stored_file(part.img).read_bytes()
    assert metadata_of(stored) == {"format": "PNG", "info": {}, "exif": {}, "secret": False}
    assert (part.name, part.price, part.available_quantity) == (
        "Chain kit 520",
        Decimal("89.90"),
        12,
    )

    served = Client().get(part.img)
    assert served.status_code == 200
    assert served["Content-Type"] == "image/png"
    assert served["X-Content-Type-Options"] == "nosniff"
    assert b"".join(served.streaming_content) == stored

    # The part's page shows it.
    assert f'src="{part.img}"' in Client().get(f"/parts/{part.pk}").content.decode()


@pytest.mark.parametrize(
    ("make", "name", "content_type"),
    [(jpeg_bytes, "photo.jpeg", "image/jpeg"), (webp_bytes, "part.webp", "image/webp")],
)
def test_jpeg_and_webp_are_taken_too(as_admin, make, name, content_type):
    response = as_admin.post(
        "/api/allparts", new_part(image=upload(make(), name, content_type)), format="multipart"
    )
    assert response.status_code == 201, response.content
    served = Client().get(response.json()["img"])
    assert served["Content-Type"] == content_type


def test_the_file_wins_over_a_url_sent_beside_it(as_admin):
    response = as_admin.post(
        "/api/allparts",
        new_part(img="https://example.com/a.jpg", image=upload(png_bytes())),
        format="multipart",
    )
    assert response.status_code == 201
    assert response.json()["img"].startswith("/media/parts/")


def test_patch_uploads_a_new_image_and_changes_nothing_else(as_admin):
    part = PartFactory(price=Decimal("25.50"))

    response = as_admin.patch(
        f"/api/allparts/{part.pk}", {"image": upload(png_bytes())}, format="multipart"
    )

    assert response.status_code == 200, response.content
    assert response.json()["modifiedCount"] == 1
    part.refresh_from_db()
    assert part.img == response.json()["img"] and part.img.startswith("/media/parts/")
    assert (part.price, part.available_quantity) == (Decimal("25.50"), 50)


def test_patch_multipart_still_refuses_the_stock(as_admin):
    part = PartFactory()
    response = as_admin.patch(
        f"/api/allparts/{part.pk}",
        {"availableQuantity": "3", "image": upload(png_bytes())},
        format="multipart",
    )
    assert response.status_code == 400
    assert list(response.json()) == ["availableQuantity"]


@pytest.mark.parametrize(
    ("content", "name", "content_type", "message"),
    [
        (HTML_AS_PNG, "part.png", "image/png", IMAGE_INVALID),
        (SVG, "part.svg", "image/svg+xml", IMAGE_INVALID),
        (gif_bytes(), "part.gif", "image/gif", IMAGE_INVALID),
        (png_bytes() + b"\0" * (5 * 1024 * 1024), "big.png", "image/png", IMAGE_TOO_BIG),
        (png_header(100_000, 100_000), "bomb.png", "image/png", IMAGE_TOO_MANY_PIXELS),
    ],
    ids=["html-pretending-to-be-png", "svg", "gif", "over-5-mb", "bomb"],
)
def test_refused_files_answer_400_on_image_and_store_nothing(
    as_admin, content, name, content_type, message
):
    part = PartFactory()
    before = stored_files()

    created = as_admin.post(
        "/api/allparts", new_part(image=upload(content, name, content_type)), format="multipart"
    )
    changed = as_admin.patch(
        f"/api/allparts/{part.pk}",
        {"image": upload(content, name, content_type)},
        format="multipart",
    )

    for response in (created, changed):
        assert response.status_code == 400
        assert response.json() == {"image": [message]}
    assert Part.objects.count() == 1
    assert stored_files() == before


def test_image_sent_as_json_text_is_a_field_error(as_admin):
    response = as_admin.post(
        "/api/allparts", new_part(image="https://example.com/a.png"), format="json"
    )
    assert response.status_code == 400
    assert response.json() == {"image": [IMAGE_INVALID]}


def test_a_body_over_7_mb_is_refused_before_it_is_read(as_admin):
    as_admin.raise_request_exception = False
    raw = b"\0" * (settings.FILE_UPLOAD_MAX_BODY_SIZE + 1)
    response = as_admin.post(
        "/api/allparts", new_part(image=upload(raw, "huge.png")), format="multipart"
    )
    assert response.status_code == 400
    assert response["Content-Type"] == "application/json"
    assert set(response.json()) == {"detail"}
    assert not Part.objects.exists()


@pytest.mark.parametrize(("caller", "status"), [("anonymous", 401), ("shopper", 403)])
def test_only_admins_upload(caller, status, user):
    client = bearer_client(user) if caller == "shopper" else APIClient()
    part = PartFactory()
    before = stored_files()

    created = client.post("/api/allparts", new_part(image=upload(png_bytes())), format="multipart")
    changed = client.patch(
        f"/api/allparts/{part.pk}", {"image": upload(png_bytes())}, format="multipart"
    )

    assert (created.status_code, changed.status_code) == (status, status)
    assert stored_files() == before
    assert Part.objects.count() == 1


# --- Serving the media folder ----------------------------------------------------------------


@pytest.mark.parametrize(
    "path", ["/media/parts/missing.png", "/media/../shop/settings.py", "/media/parts/", "/media/"]
)
def test_media_serves_only_stored_files(client, path):
    assert client.get(path).status_code == 404


def test_no_media_route_when_files_live_in_a_bucket(settings, client):
    clean = image_clean(file=upload(png_bytes()))
    url = images.image_save(image=clean)
    settings.STORAGES = {
        **settings.STORAGES,
        "default": {"BACKEND": "storages.backends.s3.S3Storage", "OPTIONS": {"bucket_name": "b"}},
    }
    assert client.get(url).status_code == 404


def settings_in_a_fresh_process(**env) -> str:
    code = (
        "import django; django.setup()\n"
        "from django.conf import settings\n"
        "from django.core.files.storage import default_storage as s\n"
        "print(s.__class__.__name__, settings.MEDIA_ROOT,"
        " getattr(s, 'bucket_name', ''), getattr(s, 'querystring_auth', ''))"
    )
    base = {"DJANGO_SETTINGS_MODULE": "shop.settings", "ENV_FILE": "", "SECRET_KEY": "x" * 50}
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={"PATH": "/usr/bin:/bin", **base, **env},
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout


@pytest.mark.slow  # Django started again in a process of its own
def test_storage_is_the_media_folder_unless_a_bucket_is_named(tmp_path):
    local = settings_in_a_fresh_process(MEDIA_ROOT=str(tmp_path))
    assert "FileSystemStorage" in local and str(tmp_path) in local

    bucket = settings_in_a_fresh_process(AWS_STORAGE_BUCKET_NAME="shop-images")
    assert "S3Storage" in bucket and "shop-images" in bucket and "False" in bucket
