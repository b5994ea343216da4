"""The benchmark's bare view (shop/bench_views.py) is routed only when BENCH_BARE_VIEW is on."""

import importlib

import pytest
from django.test import override_settings
from django.urls import clear_url_caches

import shop.urls


def load_urls() -> None:
    importlib.reload(shop.urls)
    clear_url_caches()


@pytest.fixture
def bare_view_on():
    with override_settings(BENCH_BARE_VIEW=True):
        load_urls()
        yield
    load_urls()


def test_off_by_default_the_path_is_the_404_page(client, db):
    assert client.get("/bench/bare").status_code == 404


def test_on_it_answers_a_short_text_through_the_middleware(client, db, bare_view_on):
    response = client.get("/bench/bare")
    assert response.status_code == 200
    assert response.content == b"ok"
    assert response["X-Frame-Options"] == "DENY"  # the site's middleware ran


def test_off_again_after_the_test_above(client, db):
    assert client.get("/bench/bare").status_code == 404
