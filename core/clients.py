"""Who is asking, as the shop counts it: the client's address, for API views and pages alike."""

import ipaddress

from rest_framework.throttling import BaseThrottle


def client_address(request) -> str | None:
    """The client's IP address as the throttles count it: DRF's `get_ident` (REMOTE_ADDR, or
    the address in X-Forwarded-For that the NUM_PROXIES trusted proxies vouch for) of a DRF
    or a Django request; None when that is not an IP address (proxies set up wrong)."""
    ident = BaseThrottle().get_ident(request)
    try:
        return str(ipaddress.ip_address(ident))
    except ValueError:
        return None
