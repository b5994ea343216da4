"""Whole pages for visitors without a session, served from the shared cache.

A visitor who is not signed in sees the same home page and catalog as every other such
visitor, so the rendered page is kept under keys carrying its scheme, host and path and the
versions of the data it shows ("catalog", "reviews": see core.versioned_cache); any change to
that data makes it stale on every app server at once. Its absolute links come from SITE_URL
(core.links), never from the request, so what one visitor's headers said reaches nobody else.
Anyone with a session, a pending message or an Authorization header gets a fresh answer: a
personal page is never kept, nor served from here.

Two pieces work together:

- `cache_page_for_visitors(*names)` on a view says which data its page shows. It serves a
  page kept by any app server, and notes on the request what the page was rendered from.
- `VisitorPageMiddleware`, right after Django's SecurityMiddleware, keeps the answer as it
  leaves the middleware (every header but cookies: an answer that sets one is not kept), and
  learns which paths are such pages. The next request for a learned path is answered from the
  cache before the rest of the middleware runs (sessions, authentication, CSRF, messages,
  the Content-Security-Policy are not needed for a page that is the same for every visitor
  and already carries their headers). The versions are still read from the shared cache on
  every request, so a change is seen at once on every server.
"""

import re
from functools import wraps

from django.conf import settings
from django.http import HttpResponse
from django.utils.cache import patch_vary_headers

from .versioned_cache import keep, recall, versions

MESSAGES_COOKIE = "messages"  # django.contrib.messages' cookie storage: pending messages
# Query strings worth caching: none, or a short page number (keeps the key space small).
CACHEABLE_QUERY = re.compile(r"^(page=\d{1,3})?$")
LEARNED_PATHS = 20_000  # paths remembered per process (then forgotten and learned again)
_NOTE = "_visitor_page"  # on the request: (key, whether the view rendered the page now)


class LearnedPaths(dict):
    """path (with its query string) -> the names of the data its page shows; learned per
    process, forgotten all at once when full (and learned again)."""

    def learn(self, path: str, names: tuple[str, ...]) -> None:
        if len(self) >= LEARNED_PATHS:
            self.clear()
        self[path] = names


_learned = LearnedPaths()


def may_be_kept(request) -> bool:
    """Whether the request's page may be kept or served from a kept copy, session or not
    (core.personal_pages adds the session's own checks): a read, with no query string but a
    page number, no bearer token and no pending message in a cookie."""
    return (
        request.method in ("GET", "HEAD")
        and CACHEABLE_QUERY.match(request.META.get("QUERY_STRING", "")) is not None
        and "HTTP_AUTHORIZATION" not in request.META
        and MESSAGES_COOKIE not in request.COOKIES
    )


def _cacheable(request) -> bool:
    return may_be_kept(request) and settings.SESSION_COOKIE_NAME not in request.COOKIES


def _key(names: tuple[str, ...], request) -> str | None:
    """The page's key at the data's current versions; None when the shared cache can't tell.
    Kept per scheme and host as well as path: what one host was answered never reaches
    another (get_host() refuses a Host outside ALLOWED_HOSTS: 400)."""
    page = f"{request.scheme}://{request.get_host()}{request.get_full_path()}"
    current = versions(*names)
    return None if current is None else f"visitor-answer:{current}:{page}"


def answer(kept: tuple[bytes, list[tuple[str, str]]]) -> HttpResponse:
    """A kept page as a response again."""
    content, headers = kept
    return HttpResponse(content, headers=headers)


def kept_headers(response) -> list[tuple[str, str]]:
    """The response's headers worth keeping: all but cookies (answers setting one are never
    kept, and a cookie is never replayed)."""
    return [(k, v) for k, v in response.headers.items() if k.lower() != "set-cookie"]


def cache_page_for_visitors(*names: str):
    """Serve the view's page to session-less visitors from the cache while `names` hold."""

    def decorator(view):
        @wraps(view)
        def wrapper(request, *args, **kwargs):
            key = _key(names, request) if _cacheable(request) else None
            if key is None:
                return view(request, *args, **kwargs)
            kept = recall(key)
            response = view(request, *args, **kwargs) if kept is None else answer(kept)
            setattr(request, _NOTE, (names, key, kept is None))
            patch_vary_headers(response, ["Cookie"])
            return response

        return wrapper

    return decorator


class VisitorPageMiddleware:
    """Answers learned visitor pages before the middleware after it; keeps what the
    decorated views render. Put it right after SecurityMiddleware (HTTPS redirect first)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        names = _learned.get(request.get_full_path()) if _cacheable(request) else None
        if names is not None:
            key = _key(names, request)
            kept = recall(key) if key is not None else None
            if kept is not None:
                return answer(kept)
        response = self.get_response(request)
        note = getattr(request, _NOTE, None)
        if note is not None and response.status_code == 200 and not response.cookies:
            self.learn(request.get_full_path(), note, response)
        return response

    @staticmethod
    def learn(path: str, note, response) -> None:
        names, key, rendered = note
        _learned.learn(path, names)
        if rendered and not response.streaming:
            keep(key, (response.content, kept_headers(response)))
