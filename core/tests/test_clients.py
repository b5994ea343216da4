"""core.clients.client_address: the address the throttles count, for API views and pages."""

import pytest
from django.test import RequestFactory
from rest_framework.request import Request

from core.clients import client_address


@pytest.fixture
def proxies(settings):
    """Behind `n` trusted proxies (TRUSTED_PROXY_COUNT, DRF's NUM_PROXIES)."""

    def behind(n: int) -> None:
        settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": n}

    return behind


def page_request(**meta):
    return RequestFactory().get("/", **meta)


def api_request(**meta):
    return Request(page_request(**meta))


@pytest.mark.parametrize("make", [page_request, api_request], ids=["page", "api"])
class TestClientAddress:
    def test_the_peer_without_proxies(self, make, proxies):
        proxies(0)
        request = make(REMOTE_ADDR="198.51.100.4", HTTP_X_FORWARDED_FOR="203.0.113.9")
        assert client_address(request) == "198.51.100.4"  # a header anyone can send: ignored

    def test_the_address_the_trusted_proxy_saw(self, make, proxies):
        proxies(1)
        forwarded = "192.0.2.66, 203.0.113.9"  # what the client claimed, then what nginx saw
        request = make(REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR=forwarded)
        assert client_address(request) == "203.0.113.9"

    def test_ipv6_is_written_one_way(self, make, proxies):
        proxies(0)
        assert client_address(make(REMOTE_ADDR="2001:DB8:0::1")) == "2001:db8::1"

    def test_what_is_not_an_address_is_none(self, make, proxies):
        proxies(1)
        request = make(REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="not-an-address")
        assert client_address(request) is None
