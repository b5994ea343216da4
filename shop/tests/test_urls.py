"""The project's URLs (shop/urls.py): the OpenAPI schema and its docs, and the JSON 404 under
/api/ and the shop's 404 page everywhere else, whatever the method or the characters."""

import pytest
from django.core.management import call_command
from django.test import Client


def test_openapi_schema_builds_without_warnings(tmp_path):
    out = tmp_path / "schema.yml"
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(out))
    schema = out.read_text()
    for path in (
        "/api/allparts:",
        "/api/booking/{id}:",
        "/api/user/admin/{email}:",
        "/api/review:",
    ):
        assert path in schema


@pytest.mark.django_db
def test_schema_and_docs_pages_are_served(client):
    assert client.get("/api/schema").status_code == 200
    docs = client.get("/api/docs")
    assert docs.status_code == 200
    assert b"swagger" in docs.content.lower()


@pytest.mark.django_db
def test_unknown_api_path_is_a_json_404(client):
    response = client.get("/api/no-such-thing")
    assert response.status_code == 404
    assert response.json() == {"detail": "Not found."}


@pytest.mark.django_db
@pytest.mark.parametrize("method", ["post", "put", "patch", "delete"])
def test_unknown_api_path_is_a_json_404_for_unsafe_methods_too(method):
    """Not Django's HTML CSRF page (found by fuzzing: DELETE /api/allparts/null,null was a 403)."""
    response = getattr(Client(enforce_csrf_checks=True), method)("/api/allparts/abc")
    assert response.status_code == 404
    assert response.json() == {"detail": "Not found."}


@pytest.mark.django_db
def test_a_post_to_an_unknown_page_is_the_404_page_not_a_csrf_error():
    response = Client(enforce_csrf_checks=True).post("/no/such/page", {"x": "1"})
    assert response.status_code == 404
    assert b"WE ARE SORRY, THE PAGE YOU REQUESTED WAS NOT FOUND" in response.content


API_PATHS = [
    "/api/no-such-thing",
    "/api/booking/%0A",  # a newline, as a fuzzer sends it
    "/api/booking/%0A%0D1",
    "/api/%0A",
    "/api/allparts/%00x",
    "/api/allparts/x%09y%0B",
]


@pytest.mark.django_db
@pytest.mark.parametrize("debug", [False, True], ids=["DEBUG off", "DEBUG on"])
@pytest.mark.parametrize("path", API_PATHS)
def test_every_unknown_api_path_is_the_json_404(client, settings, debug, path):
    """Control characters too: no URL pattern matched them, so Django answered its technical
    HTML 404 (DEBUG on: the site's URLs listed) or the shop's page (DEBUG off)."""
    settings.DEBUG = debug
    response = client.get(path)

    assert response.status_code == 404
    assert response.json() == {"detail": "Not found."}


@pytest.mark.django_db
@pytest.mark.parametrize("debug", [False, True], ids=["DEBUG off", "DEBUG on"])
@pytest.mark.parametrize("path", ["/no/such/page", "/no%0Asuch", "/parts/%0A", "/%0D%0A"])
def test_every_unknown_page_is_the_shops_404_page(client, settings, debug, path):
    settings.DEBUG = debug
    response = client.get(path)

    assert response.status_code == 404
    assert b"WE ARE SORRY, THE PAGE YOU REQUESTED WAS NOT FOUND" in response.content
