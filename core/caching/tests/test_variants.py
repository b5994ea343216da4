"""core.caching.pages.variants: what visitors' pages vary on is what an app registers (the
kernel knows no value of its own); the shop's catalog registers the visitor's active bike.
What a visitor with a bike is served: tests/test_page_cache_bikes.py."""

import pytest
from django.test import RequestFactory

from core.caching.pages import variants
from core.caching.pages.variants import Variant, vary_visitors_pages_on


@pytest.fixture
def variant():
    """A variant of the test's own, the shop's put back afterwards."""
    shops = variants.registered()
    vary_visitors_pages_on(Variant(cookie="colour", session_key="colour", pattern=r"[a-z]{1,9}"))
    yield variants.registered()
    vary_visitors_pages_on(shops)


def with_cookie(value: str | None, name: str = "colour"):
    request = RequestFactory().get("/")
    if value is not None:
        request.COOKIES[name] = value
    return request


def test_the_catalog_registers_the_active_bike():
    assert variants.registered() == Variant(cookie="bike", session_key="bike", pattern=r"\d{1,19}")


def test_a_cookie_names_a_variant_only_when_it_matches_in_full(variant):
    assert variants.of_cookie(with_cookie("red")) == "red"
    assert variants.of_cookie(with_cookie("0")) is None  # not a colour
    assert variants.of_cookie(with_cookie("red; path=/")) is None
    assert variants.of_cookie(with_cookie(None)) is None
    assert variants.of_session({"colour": "blue"}) == "blue"
    assert variants.of_session({}) == ""


def test_the_none_value_names_no_variant():
    assert variants.of_cookie(with_cookie("0", "bike")) == ""
    assert variants.of_cookie(with_cookie("42", "bike")) == "42"


def test_with_nothing_registered_pages_vary_on_nothing(variant):
    vary_visitors_pages_on(None)
    assert variants.of_cookie(with_cookie("red")) is None
    assert not variants.in_cookies(with_cookie("red"))
    assert variants.of_session({"colour": "blue"}) == ""
