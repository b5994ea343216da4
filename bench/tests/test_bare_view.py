"""The benchmark's bare view (shop/bench_views.py) is routed only when BENCH_BARE_VIEW is on.

Each test sets up what it checks (no test relies on one run before it): the routes are
rebuilt from the settings on the way in and again on the way out.
"""

import importlib
from contextlib import contextmanager

import pytest
from django.test import override_settings
from django.urls import clear_url_caches

import shop.urls


def load_urls() -> None:
    importlib.reload(shop.urls)
    clear_url_caches()


@contextmanager
def bare_view(on: bool):
    """The routes as they are with BENCH_BARE_VIEW `on`; the settings' own routes after."""
    try:
        with override_settings(BENCH_BARE_VIEW=on):
            load_urls()
            yield
    finally:
        load_urls()


@pytest.fixture
def bare_view_on():
    with bare_view(True):
        yield


def test_off_by_default_the_path_is_the_404_page(client, db, settings):
    assert not settings.BENCH_BARE_VIEW
    with bare_view(False):
        assert client.get("/bench/bare").status_code == 404


def test_on_it_answers_a_short_text_through_the_middleware(client, db, bare_view_on):
    response = client.get("/bench/bare")
    assert response.status_code == 200
    assert response.content == b"ok"
    assert response["X-Frame-Options"] == "DENY"  # the site's middleware ran


def test_switched_off_again_the_path_is_the_404_page_again(client, db):
    with bare_view(True):
        assert client.get("/bench/bare").status_code == 200
    assert client.get("/bench/bare").status_code == 404
