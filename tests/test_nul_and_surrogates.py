"""Text PostgreSQL cannot take (a NUL character) or UTF-8 cannot write (a lone surrogate, which
JSON allows as "\\ud800") gets the field's message, never a 500: each case once failed."""

import json

import pytest

from catalog.models import Category
from catalog.serializers import CATEGORY_UNKNOWN
from catalog.tests.factories import PartFactory
from core.tests.pages import field_error

pytestmark = pytest.mark.django_db

PART = {"name": "Lever", "minimumOrderQuantity": 1, "availableQuantity": 3, "price": "9.99"}


def test_a_sign_in_with_a_lone_surrogate_is_refused_not_a_500(anon):
    body = json.dumps({"email": "\ud800@example.com", "password": "x"})
    response = anon.post("/api/token", body, content_type="application/json")
    assert response.status_code in (400, 401), response.content


def test_a_category_with_a_nul_is_unknown_on_the_api(as_admin):
    Category.objects.create(name="Brakes", slug="brakes")
    created = as_admin.post("/api/allparts", {**PART, "category": "bra\x00kes"}, format="json")
    assert (created.status_code, created.json()) == (400, {"category": [CATEGORY_UNKNOWN]})
    part = PartFactory()
    patched = as_admin.patch(f"/api/allparts/{part.pk}", {"category": "a\x00b"}, format="json")
    assert (patched.status_code, patched.json()) == (400, {"category": [CATEGORY_UNKNOWN]})


def test_a_category_with_a_nul_is_unknown_on_add_parts(client, admin_user):
    client.force_login(admin_user)
    response = client.post("/dashboard/addparts", {**PART, "category": "a\x00b"})
    assert response.status_code in (200, 400)
    assert field_error(response, "category") == CATEGORY_UNKNOWN


def test_a_bike_with_a_nul_in_the_fitment_editor_is_the_form_again(client, admin_user):
    client.force_login(admin_user)
    part = PartFactory()
    row = {"form": "fitment", "action": "add", "make": "a\x00b", "model": "c\x00d"}
    response = client.post(f"/dashboard/parts/{part.pk}/edit", {**row, "yearFrom": "2020"})
    assert response.status_code in (200, 400)
    assert "Add a new bike" not in response.content.decode()
