"""Add parts and Edit part take an image by URL or as an upload,
through the same checks as the API (catalog/images.py), with the shop's own messages."""

from pathlib import Path

import pytest
from django.conf import settings

from catalog.images import IMAGE_INVALID, IMAGE_TOO_BIG
from catalog.models import Part
from catalog.tests.factories import PartFactory
from catalog.tests.pictures import HTML_AS_PNG, SVG, metadata_of, png_bytes, upload
from core.tests.pages import field_error, fields, images, label_of, toasts

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin(client, admin_user):
    client.force_login(admin_user)
    return client


def new_part(**fields) -> dict:
    return {
        "name": "Chain kit 520",
        "minimumOrderQuantity": "1",
        "description": "O-ring chain with sprockets.",
        "availableQuantity": "12",
        "price": "89.90",
        "img": "",
        **fields,
    }


def stored(url: str) -> bytes:
    return (Path(settings.MEDIA_ROOT) / url.removeprefix(settings.MEDIA_URL)).read_bytes()


@pytest.mark.parametrize("path", ["/dashboard/addparts", "/dashboard/parts/{pk}/edit"])
def test_both_forms_offer_a_url_an_upload_and_a_preview(admin, path):
    part = PartFactory(img="/static/img/parts/chain.svg")
    response = admin.get(path.format(pk=part.pk))

    html = response.content.decode()
    assert 'enctype="multipart/form-data"' in html
    inputs = fields(response)
    assert inputs["image"]["type"] == "file"
    assert inputs["image"]["accept"] == "image/png,image/jpeg,image/webp"
    assert label_of(response, "image") == "or upload an image"
    assert label_of(response, "img") == "Image URL"
    assert inputs["img"]["data-preview"] == inputs["image"]["data-preview"] == "id_image_preview"
    preview = next(img for img in images(response) if img.get("id") == "id_image_preview")
    assert preview["alt"] == "Preview of the part's image"
    # The part's image as it is now, or the shop's placeholder until there is one.
    placeholder = "/static/img/parts/placeholder.svg"
    expected = "/static/img/parts/chain.svg" if "edit" in path else placeholder
    assert (preview["src"], preview["data-fallback"]) == (expected, placeholder)
    assert "hidden" not in preview


def test_add_parts_with_an_upload(admin):
    response = admin.post("/dashboard/addparts", new_part(image=upload(png_bytes())), follow=True)

    assert "Parts Added" in toasts(response)
    part = Part.objects.get(name="Chain kit 520")
    assert part.img.startswith("/media/parts/") and part.img.endswith(".png")
    assert metadata_of(stored(part.img))["exif"] == {}
    assert admin.get(part.img).status_code == 200


def test_edit_part_with_an_upload_replaces_the_url(admin):
    part = PartFactory(img="/static/img/parts/chain.svg")

    response = admin.post(
        f"/dashboard/parts/{part.pk}/edit",
        {
            "name": part.name,
            "price": str(part.price),
            "minimumOrderQuantity": part.minimum_order_quantity,
            "img": part.img,  # still in its box: the file wins
            "image": upload(png_bytes()),
        },
        follow=True,
    )

    assert "Part updated" in toasts(response)
    part.refresh_from_db()
    assert part.img.startswith("/media/parts/")


@pytest.mark.parametrize(
    ("content", "name", "content_type", "message"),
    [
        (HTML_AS_PNG, "part.png", "image/png", IMAGE_INVALID),
        (SVG, "part.svg", "image/svg+xml", IMAGE_INVALID),
        (png_bytes() + b"\0" * (5 * 1024 * 1024), "big.png", "image/png", IMAGE_TOO_BIG),
    ],
    ids=["html-pretending-to-be-png", "svg", "over-5-mb"],
)
def test_a_refused_file_shows_the_shops_message_and_keeps_the_form(
    admin, content, name, content_type, message
):
    part = PartFactory(img="/static/img/parts/chain.svg")

    added = admin.post("/dashboard/addparts", new_part(image=upload(content, name, content_type)))
    edited = admin.post(
        f"/dashboard/parts/{part.pk}/edit",
        {
            "name": "New name",
            "price": "30",
            "minimumOrderQuantity": "1",
            "image": upload(content, name, content_type),
        },
    )

    for response in (added, edited):
        assert response.status_code == 200
        assert field_error(response, "image") == message
        assert fields(response)["image"]["aria-invalid"] == "true"
    assert fields(added)["name"]["value"] == "Chain kit 520"  # what was typed stays
    assert Part.objects.count() == 1
    part.refresh_from_db()
    assert (part.name, part.img) != ("New name", "/static/img/parts/chain.svg")
    assert part.img == "/static/img/parts/chain.svg"
