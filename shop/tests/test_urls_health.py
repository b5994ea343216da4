"""/health/ (django-health-check): 200 while the database and the cache answer, an error status
when one does not; never cached, no session."""

import pytest
from django.test import Client

from scripts.servers import free_port

pytestmark = pytest.mark.django_db


def test_health_answers_200_with_database_and_cache_ok(client):
    response = client.get("/health/")
    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"]
    assert not response.cookies  # no session, no CSRF cookie: a load balancer keeps none
    assert client.get("/health").status_code == 200  # slashes are optional on every path


def test_health_json_names_each_check(client):
    response = client.get("/health/?format=json")
    assert response.status_code == 200
    assert response.json() == {
        "Database(alias='default')": "OK",
        "Cache(alias='default')": "OK",
    }


def test_health_fails_when_the_cache_does_not_answer(settings):
    """Redis on a port where nothing listens: the shop's cache keeps pages working, but the
    health check reports the cache as down."""
    settings.CACHES = {
        **settings.CACHES,
        "default": {
            "BACKEND": "core.caching.redis.RedisCache",
            "LOCATION": f"redis://127.0.0.1:{free_port()}/0",
            "OPTIONS": {"IGNORE_EXCEPTIONS": True},
        },
    }
    response = Client().get("/health/?format=json")
    assert response.status_code in (500, 503)
    assert response.json()["Database(alias='default')"] == "OK"
    assert response.json()["Cache(alias='default')"] != "OK"
