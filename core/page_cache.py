"""Whole pages for visitors without a session, served from the shared cache.

A visitor who is not signed in sees the same home page and catalog as every other such
visitor, so the rendered page is kept under keys carrying the versions of the data it shows
("catalog", "reviews": see core.versioned_cache); any change to that data makes it stale on
every app server at once. Anyone with a session or a pending message gets a fresh render.
"""

import re
from functools import wraps

from django.conf import settings
from django.http import HttpResponse
from django.utils.cache import patch_vary_headers

from .versioned_cache import keep, recall, versions

PERSONAL_COOKIES = (settings.SESSION_COOKIE_NAME, "messages")
# Query strings worth caching: none, or a short page number (keeps the key space small).
CACHEABLE_QUERY = re.compile(r"^(page=\d{1,3})?$")


def _cacheable(request) -> bool:
    return (
        request.method in ("GET", "HEAD")
        and CACHEABLE_QUERY.match(request.META.get("QUERY_STRING", ""))
        and not any(name in request.COOKIES for name in PERSONAL_COOKIES)
    )


def cache_page_for_visitors(*names: str):
    """Serve the view's page to session-less visitors from the cache while `names` hold."""

    def decorator(view):
        @wraps(view)
        def wrapper(request, *args, **kwargs):
            current = versions(*names) if _cacheable(request) else None
            if current is None:
                return view(request, *args, **kwargs)
            key = f"visitor-page:{current}:{request.get_full_path()}"
            hit = recall(key)
            if hit is not None:
                response = HttpResponse(hit[0], content_type=hit[1])
            else:
                response = view(request, *args, **kwargs)
                if response.status_code == 200 and not response.cookies:
                    keep(key, (response.content, response["Content-Type"]))
            patch_vary_headers(response, ["Cookie"])
            return response

        return wrapper

    return decorator
