"""The admin's part pages: Manage Parts (with delete) and Add product."""

import re
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from catalog import serializers as s
from catalog.models import Part
from catalog.tests.factories import PartFactory
from catalog.validators import IMG_INVALID
from catalog.views import PARTS_ADDED
from core.tests.pages import buttons, field_error, fields, images, label_of, toasts

pytestmark = pytest.mark.django_db

MANAGE = "/dashboard/manageparts"
ADD = "/dashboard/addparts"
VALID = {
    "name": "Steel braided brake line",
    "minimumOrderQuantity": "2",
    "description": "Stainless, DOT approved.",
    "availableQuantity": "40",
    "price": "19.99",
    "img": "https://example.com/brake-line.jpg",
}
REQUIRED = {
    "name": s.NAME_REQUIRED,
    "minimumOrderQuantity": s.MIN_ORDER_REQUIRED,
    "availableQuantity": s.STOCK_REQUIRED,
    "price": s.PRICE_REQUIRED,
}


@pytest.fixture
def as_admin_page(client, admin_user):
    client.force_login(admin_user)
    return client


def delete_url(part_id) -> str:
    return f"{MANAGE}/{part_id}/delete"


# --- Guards ---------------------------------------------------------------------------------


@pytest.mark.parametrize("url", [MANAGE, ADD])
def test_anonymous_visitors_go_to_login_remembering_the_page(client, url):
    response = client.get(url)
    assert response.status_code == 302
    assert response["Location"] == f"/login?next={url}"


@pytest.mark.parametrize("method", ["get", "post"])
@pytest.mark.parametrize("url", [MANAGE, ADD])
def test_a_non_admin_is_signed_out_and_sent_to_login(client, user, url, method):
    client.force_login(user)

    response = getattr(client, method)(url, VALID)

    assert response.status_code == 302
    assert response["Location"] == "/login"
    assert "_auth_user_id" not in client.session
    assert not Part.objects.exists()


def test_a_non_admin_cannot_delete_a_part(client, user):
    part = PartFactory()
    client.force_login(user)

    response = client.post(delete_url(part.pk))

    assert response["Location"] == "/login"
    assert "_auth_user_id" not in client.session
    assert Part.objects.filter(pk=part.pk).exists()


def test_an_anonymous_visitor_cannot_delete_a_part(client):
    part = PartFactory()

    response = client.post(delete_url(part.pk))

    assert response.status_code == 302
    assert response["Location"].startswith("/login?next=")
    assert Part.objects.filter(pk=part.pk).exists()


# --- Manage Parts ---------------------------------------------------------------------------


def test_manage_parts_shows_a_card_per_part_with_a_confirmed_delete(as_admin_page):
    part = PartFactory(name="Iridium spark plug", available_quantity=17)
    nameless_image = PartFactory(name="Grip tape", img="")

    response = as_admin_page.get(MANAGE)

    html = response.content.decode()
    assert response.status_code == 200
    assert "Manage Parts" in html
    assert "Iridium spark plug" in html and "Available Quantity: 17" in html
    cards = {img["alt"]: img for img in images(response)}
    assert cards["Iridium spark plug"]["src"] == "/static/img/parts/brake-pads.svg"
    assert cards["Grip tape"]["src"] == "/static/img/parts/placeholder.svg"
    for img in cards.values():
        assert (img["width"], img["height"], img["loading"]) == ("400", "300", "lazy")
    for each in (part, nameless_image):
        assert (
            f'<form method="post" action="{delete_url(each.pk)}" data-confirm="Are you sure?"'
        ) in html
    assert buttons(response).count("Delete") == 2
    assert "lg:grid-cols-3" in html and "grid-cols-1" in html


def test_manage_parts_without_parts_points_to_add_parts(as_admin_page):
    response = as_admin_page.get(MANAGE)

    assert "No parts yet." in response.content.decode()
    assert f'href="{ADD}"' in response.content.decode()


def count_queries(client, url) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


def test_manage_parts_needs_the_same_number_of_queries_for_1_or_30_parts(as_admin_page):
    PartFactory()
    one = count_queries(as_admin_page, MANAGE)
    PartFactory.create_batch(29)

    assert count_queries(as_admin_page, MANAGE) == one


def test_deleting_an_unknown_part_is_404(as_admin_page):
    part = PartFactory()

    for pk in (part.pk + 1, 2**63, 10**30):
        assert as_admin_page.post(delete_url(pk)).status_code == 404
    assert Part.objects.count() == 1


def test_delete_is_post_only(as_admin_page):
    part = PartFactory()

    assert as_admin_page.get(delete_url(part.pk)).status_code == 405
    assert Part.objects.filter(pk=part.pk).exists()


# --- Add product ----------------------------------------------------------------------------


def test_add_product_has_the_specs_heading_fields_and_button(as_admin_page):
    response = as_admin_page.get(ADD)

    html = response.content.decode()
    assert response.status_code == 200
    assert "please add product" in html
    form = fields(response)
    kinds = {name: (field["tag"], field.get("type")) for name, field in form.items()}
    assert kinds == {
        "csrfmiddlewaretoken": ("input", "hidden"),
        "name": ("input", "text"),
        "minimumOrderQuantity": ("input", "number"),
        "description": ("textarea", None),
        "availableQuantity": ("input", "text"),
        "price": ("input", "number"),
        "img": ("input", "text"),
        "image": ("input", "file"),
        "weight": ("input", "number"),
        "partNumber": ("input", "text"),
        "brand": ("input", "text"),
    }
    assert form["price"]["step"] == "0.01"
    assert all(label_of(response, name) for name in VALID)
    assert label_of(response, "img") == "Image URL"
    assert "Add parts" in buttons(response)
    assert "novalidate data-loading" in html


def test_a_valid_part_is_added_and_says_parts_added(as_admin_page):
    response = as_admin_page.post(ADD, VALID)

    assert response.status_code == 302
    assert response["Location"] == ADD
    part = Part.objects.get()
    assert (
        part.name,
        part.minimum_order_quantity,
        part.description,
        part.available_quantity,
        part.price,
        part.img,
    ) == (
        "Steel braided brake line",
        2,
        "Stainless, DOT approved.",
        40,
        Decimal("19.99"),
        "https://example.com/brake-line.jpg",
    )
    assert toasts(as_admin_page.get(ADD)) == [PARTS_ADDED] == ["Parts Added"]
    assert "Steel braided brake line" in as_admin_page.get(MANAGE).content.decode()


def test_description_and_image_are_optional(as_admin_page):
    as_admin_page.post(ADD, {**VALID, "description": "", "img": ""})

    part = Part.objects.get()
    assert (part.description, part.img) == ("", "")


def test_an_empty_form_shows_every_required_message(as_admin_page):
    response = as_admin_page.post(ADD, dict.fromkeys(VALID, ""))

    assert response.status_code == 200
    assert {name: field_error(response, name) for name in REQUIRED} == REQUIRED
    assert field_error(response, "description") == field_error(response, "img") == ""
    assert not Part.objects.exists()
    assert toasts(response) == []


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("price", "0", s.PRICE_POSITIVE),
        ("price", "-3", s.PRICE_POSITIVE),
        ("price", "cheap", s.PRICE_INVALID),
        ("minimumOrderQuantity", "0", s.MIN_ORDER_TOO_LOW),
        ("availableQuantity", "-1", s.STOCK_NEGATIVE),
        ("availableQuantity", "lots", s.STOCK_WHOLE),
        ("img", "javascript:alert(1)", IMG_INVALID),
        ("img", "/static/../settings.py", IMG_INVALID),
    ],
)
def test_invalid_values_show_the_apis_message_and_keep_what_was_typed(
    as_admin_page, field, value, message
):
    response = as_admin_page.post(ADD, {**VALID, field: value})

    assert response.status_code == 200
    assert field_error(response, field) == message
    form = fields(response)
    assert form[field]["value"] == value
    assert form["name"]["value"] == VALID["name"]
    assert form["description"]["value"] == VALID["description"]
    assert not Part.objects.exists()


def link(html: str, rel: str) -> str | None:
    """The href of the page's link with this rel ("prev", "next"), None when there is none."""
    match = re.search(rf'<a\b[^>]*\brel="{rel}"[^>]*\bhref="([^"]*)"', html)
    return match and match.group(1)


def test_manage_parts_shows_24_parts_a_page_with_previous_and_next(as_admin_page):
    parts = PartFactory.create_batch(25)  # the newest first: parts[24] leads page 1

    first = as_admin_page.get(MANAGE)
    html = first.content.decode()
    assert buttons(first).count("Delete") == 24
    assert parts[24].name in html and f"{parts[0].name}<" not in html
    assert (link(html, "next"), link(html, "prev")) == ("?page=2", None)

    second = as_admin_page.get(f"{MANAGE}?page=2")
    html = second.content.decode()
    assert buttons(second).count("Delete") == 1
    assert f"{parts[0].name}<" in html
    assert (link(html, "prev"), link(html, "next")) == (MANAGE, None)
