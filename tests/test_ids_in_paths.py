"""An id in a path that no database can hold (0, 2**63, twenty digits) names nothing: every
route of the shop's with `<id:pk>` answers 404 to it, for every method, never a 500 (the
database refusing the number)."""

import pytest
from django.urls import get_resolver

from core.routing import MAX_ID

from .routes import METHODS, routes

pytestmark = pytest.mark.django_db

ID_ROUTES = sorted({r.rstrip("/") for r, _ in routes(get_resolver()) if "<id:pk>" in r})
BEYOND = ["0", str(MAX_ID + 1), "1" * 20]


def paths(route: str) -> list[str]:
    path = "/" + route.replace("<str:key>", "k" * 32)
    return [path.replace("<id:pk>", number) for number in BEYOND]


def test_the_sweep_covers_the_api_the_pages_and_admin():
    assert {r.split("/")[0] for r in ID_ROUTES} >= {"api", "dashboard", "parts", "admin"}


@pytest.mark.parametrize("route", [r for r in ID_ROUTES if r.startswith("api/")])
def test_an_api_id_beyond_the_database_is_a_404(route, as_admin):
    as_admin.raise_request_exception = False
    for path in paths(route):
        for method in METHODS:
            response = getattr(as_admin, method)(path, data={}, format="json")
            assert response.status_code == 404, (method, path, response.status_code)


@pytest.mark.parametrize("route", [r for r in ID_ROUTES if not r.startswith(("api/", "admin/"))])
def test_a_page_id_beyond_the_database_is_a_404(route, client, admin_user):
    client.force_login(admin_user)
    client.raise_request_exception = False
    for path in paths(route):
        for method in METHODS:
            response = getattr(client, method)(path)
            assert response.status_code == 404, (method, path, response.status_code)


def test_django_admins_stock_page_beyond_the_database_is_no_500(staff_client):
    staff_client.raise_request_exception = False
    for path in paths("admin/catalog/part/<id:pk>/stock"):
        assert staff_client.get(path).status_code != 500, path


def test_the_largest_id_still_reaches_the_view(as_user):
    """MAX_ID itself is an id: the garage's DELETE answers its usual 200 (nothing removed)."""
    response = as_user.delete(f"/api/garage/{MAX_ID}")
    assert response.status_code == 200
    assert response.json()["vehicles"] == []
