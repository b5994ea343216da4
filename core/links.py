"""Absolute links to the shop, always at SITE_URL: the address shoppers reach it at.

Never from the request: its Host and X-Forwarded-* headers say whatever the client sent, and a
page kept for visitors (core.caching.pages) or a mail would carry them to everyone after it. Links
inside pages stay relative; only what must be absolute (structured data, mail) comes from here.
"""

from urllib.parse import urlsplit

from django.conf import settings


def absolute_url(location: str) -> str:
    """`location` as an absolute URL: a path of the shop at SITE_URL; a URL that names its own
    host (a part's image kept elsewhere) as it is."""
    if urlsplit(location).netloc:
        return location
    return f"{settings.SITE_URL}/{location.lstrip('/')}"


def at_site_url(url: str) -> str:
    """A link to the shop that was built from a request (allauth's mails), moved to SITE_URL:
    its path, query and fragment kept, the scheme and host the request named dropped."""
    return absolute_url(urlsplit(url)._replace(scheme="", netloc="").geturl())
