"""Part images in Chromium (BEYOND.md, "Manage Parts"): Add parts and Edit part take an upload,
preview it at once (under the shop's Content-Security-Policy), and the part's page then shows
the stored image, served from the media folder."""

import re

import pytest
from playwright.sync_api import expect

from accounts.tests.factories import AdminFactory
from catalog.images import IMAGE_INVALID
from catalog.models import Part
from catalog.tests.factories import PartFactory
from catalog.tests.pictures import SVG, png_bytes
from tests.e2e.conftest import shot, sign_in

DATA_PNG = re.compile(r"^data:image/png;base64,")


@pytest.fixture
def admin(site):
    user = AdminFactory(name="Ada Admin")
    sign_in(site, user)
    return user


def png(name: str = "mirror.png") -> dict:
    return {"name": name, "mimeType": "image/png", "buffer": png_bytes(size=(120, 90))}


def expect_loaded(image) -> None:
    """The <img> shows a real picture (the browser decoded it), not a broken icon."""
    expect(image).to_be_visible()
    image.evaluate("img => img.decode()")
    assert image.evaluate("img => img.naturalWidth") == 120


def test_add_parts_uploads_an_image_with_a_preview(site, admin):
    site.goto("/dashboard/addparts")
    preview = site.get_by_role("img", name="Preview of the part's image")
    expect(preview).to_have_attribute("src", "/static/img/parts/placeholder.svg")
    site.get_by_label("Name").fill("Bar-end mirror")
    site.get_by_label("Minimum Order Quantity").fill("1")
    site.get_by_label("Available Quantity").fill("8")
    site.get_by_label("Price").fill("24.00")

    site.get_by_label("or upload an image").set_input_files(png())

    expect(preview).to_have_attribute("src", DATA_PNG)
    expect_loaded(preview)
    shot(site, "admin-addparts-upload-preview")
    site.get_by_role("button", name="Add parts").click()
    expect(site.get_by_text("Parts Added").first).to_be_visible()

    part = Part.objects.get(name="Bar-end mirror")
    assert part.img.startswith("/media/parts/")
    site.goto(f"/parts/{part.pk}")
    image = site.get_by_role("img", name="Bar-end mirror")
    expect(image).to_have_attribute("src", part.img)
    expect_loaded(image)
    shot(site, "part-page-uploaded-image")


def test_edit_part_replaces_the_image_with_an_upload(site, admin):
    part = PartFactory(name="Lever set", img="/static/img/parts/brake-pads.svg")
    site.goto(f"/dashboard/parts/{part.pk}/edit")
    preview = site.get_by_role("img", name="Preview of the part's image")
    expect(preview).to_have_attribute("src", "/static/img/parts/brake-pads.svg")

    site.get_by_label("or upload an image").set_input_files(png("levers.png"))

    expect(preview).to_have_attribute("src", DATA_PNG)
    expect_loaded(preview)
    shot(site, "admin-editpart-upload-preview")
    site.get_by_role("button", name="Save", exact=True).click()
    expect(site.get_by_text("Part updated").first).to_be_visible()

    part.refresh_from_db()
    assert part.img.startswith("/media/parts/")
    site.goto(f"/parts/{part.pk}")
    expect_loaded(site.get_by_role("img", name="Lever set"))


def test_a_typed_image_url_is_previewed(site, admin):
    site.goto("/dashboard/addparts")
    site.get_by_label("Image URL").fill("/static/img/parts/brake-pads.svg")
    site.get_by_label("Image URL").blur()
    preview = site.get_by_role("img", name="Preview of the part's image")
    expect(preview).to_have_attribute("src", "/static/img/parts/brake-pads.svg")
    expect(preview).to_be_visible()


def test_an_svg_is_refused_in_the_browser_with_the_shops_words(site, admin):
    site.goto("/dashboard/addparts")
    upload = site.get_by_label("or upload an image")

    upload.set_input_files({"name": "logo.svg", "mimeType": "image/svg+xml", "buffer": SVG})

    expect(site.get_by_text(IMAGE_INVALID)).to_be_visible()
    expect(upload).to_have_attribute("aria-invalid", "true")
    assert upload.evaluate("input => input.files.length") == 0
    preview = site.get_by_role("img", name="Preview of the part's image")
    expect(preview).to_have_attribute("src", "/static/img/parts/placeholder.svg")


def test_a_file_pretending_to_be_a_png_is_refused_by_the_server(site, admin):
    """The browser trusts the name and type; the server decodes the file and says no."""
    site.goto("/dashboard/addparts")
    site.get_by_label("Name").fill("Fake part")
    site.get_by_label("Minimum Order Quantity").fill("1")
    site.get_by_label("Available Quantity").fill("8")
    site.get_by_label("Price").fill("24.00")
    fake = {"name": "fake.png", "mimeType": "image/png", "buffer": b"<html><body>hi</body></html>"}
    site.get_by_label("or upload an image").set_input_files(fake)
    site.get_by_role("button", name="Add parts").click()

    expect(site.get_by_text(IMAGE_INVALID)).to_be_visible()
    assert not Part.objects.filter(name="Fake part").exists()
