"""The benchmark's bare view (bench/views.py) is routed by bench/urls.py only, which becomes the
root URLconf when BENCH_BARE_VIEW is on: the shop's own URLs never answer it."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.urls import resolve

import shop.urls
from shop import views

ROOT = Path(__file__).resolve().parents[2]


def root_urlconf(**env: str) -> str:
    """ROOT_URLCONF as a fresh process reads it from the environment."""
    code = "from django.conf import settings; print(settings.ROOT_URLCONF)"
    clean = {k: v for k, v in os.environ.items() if k != "BENCH_BARE_VIEW"}
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**clean, "DJANGO_SETTINGS_MODULE": "shop.settings", **env},
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()


def test_the_setting_chooses_the_bench_urls_only_when_on():
    assert root_urlconf() == "shop.urls"
    assert root_urlconf(BENCH_BARE_VIEW="0") == "shop.urls"
    assert root_urlconf(BENCH_BARE_VIEW="1") == "bench.urls"


def test_the_shop_urls_answer_the_404_page(client, db, settings):
    assert settings.ROOT_URLCONF == "shop.urls"
    assert resolve("/bench/bare", urlconf=shop.urls).func is views.page_not_found
    assert client.get("/bench/bare").status_code == 404


@pytest.mark.urls("bench.urls")
def test_the_bench_urls_answer_a_short_text_through_the_middleware(client, db):
    response = client.get("/bench/bare")
    assert response.status_code == 200
    assert response.content == b"ok"
    assert response["X-Frame-Options"] == "DENY"  # the site's middleware ran


@pytest.mark.urls("bench.urls")
def test_the_bench_urls_keep_every_page_of_the_shop(client, db):
    assert client.get("/").status_code == 200
    assert client.get("/nowhere").status_code == 404
    assert b"Page not found" in client.get("/nowhere").content
