"""The part admin for staff: pages, searches, filters, stock read-only (adjusted with a reason),
image URLs and uploads."""

from datetime import timedelta
from decimal import Decimal
from urllib.parse import urlencode

import pytest
from django.utils import timezone

from catalog.images import IMAGE_INVALID
from catalog.models import Part
from catalog.stock import CHANGE_ZERO
from catalog.tests.factories import PartFactory
from catalog.tests.pictures import HTML_AS_PNG, SVG, png_bytes, upload
from catalog.validators import IMG_INVALID

CHANGELIST = "/admin/catalog/part/"


def part_form(**changes) -> dict:
    data = {
        "name": "Chain kit 520",
        "img": "https://example.com/chain.jpg",
        "description": "O-ring chain with sprockets.",
        "price": "89.90",
        "minimum_order_quantity": "1",
        "available_quantity": "12",
    }
    data.update(changes)
    return data


def since(moment) -> str:
    """The query string of the "created at" filter, as its links build it (aware times)."""
    return "?" + urlencode({"created_at__gte": str(moment)})


def until(moment) -> str:
    return "?" + urlencode({"created_at__lt": str(moment)})


@pytest.mark.parametrize(
    "query",
    [
        "",
        "?q=brake",
        "?q=sintered",
        "?o=4",
        # an id of its own: the same in every pytest-xdist worker (its time is not)
        pytest.param(since(timezone.now() - timedelta(days=1)), id="?created_at__gte=yesterday"),
    ],
)
def test_changelist_answers(staff_client, query):
    part = PartFactory()
    response = staff_client.get(CHANGELIST + query)
    assert response.status_code == 200
    assert list(response.context["cl"].result_list) == [part]


def test_search_and_filter_leave_out_other_parts(staff_client):
    PartFactory(name="Air filter", description="Foam")
    assert list(staff_client.get(CHANGELIST + "?q=brake").context["cl"].result_list) == []
    response = staff_client.get(CHANGELIST + until(timezone.now() - timedelta(days=1)))
    assert list(response.context["cl"].result_list) == []


def test_change_and_add_pages_answer(staff_client):
    part = PartFactory()
    assert staff_client.get(f"{CHANGELIST}{part.pk}/change/").status_code == 200
    assert staff_client.get(f"{CHANGELIST}add/").status_code == 200
    assert staff_client.get(f"{CHANGELIST}{part.pk}/delete/").status_code == 200


def stock_edit(part, stock: str) -> dict:
    """The changelist form data that would set one part's stock in the list."""
    return {
        "form-TOTAL_FORMS": "1",
        "form-INITIAL_FORMS": "1",
        "form-MIN_NUM_FORMS": "0",
        "form-MAX_NUM_FORMS": "1000",
        "form-0-id": str(part.pk),
        "form-0-available_quantity": stock,
        "_save": "Save",
    }


def test_stock_is_not_editable_in_the_list(staff_client):
    part = PartFactory(available_quantity=50, price=Decimal("25.50"))
    assert staff_client.get(CHANGELIST).context["cl"].list_editable == ()
    staff_client.post(CHANGELIST, stock_edit(part, "7"))
    part.refresh_from_db()
    assert part.available_quantity == 50


def change_form_data(response, **changes) -> dict:
    """What a browser posts back from the change page it was shown, with `changes` typed in."""
    form = response.context["adminform"].form
    data = {
        name: value
        for name, value in form.initial.items()
        if name in form.fields and value is not None
    }
    if "category" in data:
        data["category"] = data["category"] or ""
    for inline in response.context["inline_admin_formsets"]:
        management = inline.formset.management_form
        data.update({management.add_prefix(k): v for k, v in management.initial.items()})
        for form_in in inline.formset.forms:
            data[form_in.add_prefix("id")] = form_in.instance.pk or ""  # "" on an extra row
    data.update(changes, _save="Save")
    return data


def test_adjust_stock_receives_and_writes_off_with_a_reason(staff_client, staff):
    part = PartFactory(available_quantity=10)
    url = f"{CHANGELIST}{part.pk}/stock/"
    assert staff_client.get(url).status_code == 200
    received = {"change": "5", "reason": "received", "note": "Delivery 4411"}
    assert staff_client.post(url, received).status_code == 302
    written_off = {"change": "-3", "reason": "written_off", "note": "Damaged in the store"}
    assert staff_client.post(url, written_off).status_code == 302
    part.refresh_from_db()
    assert part.available_quantity == 12
    movements = list(part.stock_movements.values_list("change", "reason", "note", "by"))
    assert movements[:2] == [
        (-3, "written_off", "Damaged in the store", staff.pk),
        (5, "received", "Delivery 4411", staff.pk),
    ]


@pytest.mark.parametrize(("change", "message"), [("-11", "below 0"), ("0", CHANGE_ZERO)])
def test_adjust_stock_refuses_below_zero_and_nothing(staff_client, change, message):
    part = PartFactory(available_quantity=10)
    response = staff_client.post(
        f"{CHANGELIST}{part.pk}/stock/", {"change": change, "reason": "written_off"}
    )
    assert response.status_code == 200
    assert message in " ".join(response.context["form"].errors["change"])
    part.refresh_from_db()
    assert part.available_quantity == 10


def test_add_part(staff_client):
    response = staff_client.post(f"{CHANGELIST}add/", part_form(img=" /static/img/chain.svg "))
    assert response.status_code == 302
    part = Part.objects.get(name="Chain kit 520")
    assert part.img == "/static/img/chain.svg"
    assert part.price == Decimal("89.90")


@pytest.mark.parametrize(
    "img", ["javascript:alert(1)", "data:image/png;base64,AAAA", "/static/../settings.py"]
)
def test_unsafe_image_urls_are_rejected(staff_client, img):
    response = staff_client.post(f"{CHANGELIST}add/", part_form(img=img))
    assert response.status_code == 200
    assert response.context["adminform"].form.errors["img"] == [IMG_INVALID]
    assert not Part.objects.exists()


def test_unsafe_image_url_is_rejected_on_change(staff_client):
    part = PartFactory()
    response = staff_client.post(
        f"{CHANGELIST}{part.pk}/change/", part_form(img="javascript:alert(1)")
    )
    assert response.status_code == 200
    part.refresh_from_db()
    assert part.img == "/static/img/parts/brake-pads.svg"


def test_add_part_with_an_uploaded_image(staff_client):
    image = upload(png_bytes())
    response = staff_client.post(f"{CHANGELIST}add/", part_form(img="", image=image))
    assert response.status_code == 302
    part = Part.objects.get(name="Chain kit 520")
    assert part.img.startswith("/media/parts/") and part.img.endswith(".png")
    assert staff_client.get(part.img).status_code == 200


def test_change_part_with_an_uploaded_image_keeps_the_stock(staff_client):
    part = PartFactory(available_quantity=10)
    url = f"{CHANGELIST}{part.pk}/change/"
    page = staff_client.get(url)
    assert b'enctype="multipart/form-data"' in page.content
    assert "or upload an image" in page.content.decode()

    response = staff_client.post(url, change_form_data(page, image=upload(png_bytes())))

    assert response.status_code == 302
    part.refresh_from_db()
    assert part.img.startswith("/media/parts/")
    assert part.available_quantity == 10


@pytest.mark.parametrize(
    ("content", "name", "content_type"),
    [(HTML_AS_PNG, "part.png", "image/png"), (SVG, "part.svg", "image/svg+xml")],
    ids=["html-pretending-to-be-png", "svg"],
)
def test_a_file_that_is_not_an_image_is_refused(staff_client, content, name, content_type):
    image = upload(content, name, content_type)
    response = staff_client.post(f"{CHANGELIST}add/", part_form(image=image))
    assert response.status_code == 200
    assert response.context["adminform"].form.errors["image"] == [IMAGE_INVALID]
    assert not Part.objects.exists()


def test_a_part_s_weight_is_set_in_django_admin_empty_is_0(staff_client):
    staff_client.post(f"{CHANGELIST}add/", part_form(name="Disc", weight="1150"))
    staff_client.post(f"{CHANGELIST}add/", part_form(name="Plug", weight=""))

    assert Part.objects.get(name="Disc").weight == 1150
    assert Part.objects.get(name="Plug").weight == 0
