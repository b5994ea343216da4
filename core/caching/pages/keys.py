"""Which requests may be given a kept page or leave one, the keys pages are kept under, and the
paths each process has learned are kept (core.caching.pages)."""

import hashlib
import re
from dataclasses import dataclass
from importlib import import_module

from django.conf import settings
from django.http import HttpResponse

MESSAGES_COOKIE = "messages"  # django.contrib.messages' cookie storage: pending messages
MESSAGES = "_messages"  # where its session storage keeps pending ones
# Query strings worth keeping (short numbers keep the key space small): none, a page number,
# or the API's page of a list (`limit`, then `offset`, as API clients page a list).
CACHEABLE_QUERY = re.compile(r"^(page=\d{1,3}|limit=\d{1,3}(&offset=\d{1,5})?)?$")
# Paths whose pages may also be kept per a query string of the view's own form (say, one
# search box's words: `cache_page_for_visitors(…, query=…)`), noted when the view first runs.
_own_queries: dict[str, re.Pattern] = {}
SESSION_COOKIE = re.compile(r"^[a-z0-9]{32}$")  # the session keys Django makes
LEARNED_PATHS = 20_000  # paths remembered per process (then forgotten and learned again)
SESSION_STORE = import_module(settings.SESSION_ENGINE).SessionStore
# Only sessions that live in the default cache can be checked in the page's round trip.
SESSIONS_IN_CACHE = settings.SESSION_CACHE_ALIAS == "default" and hasattr(
    SESSION_STORE, "cache_key_prefix"
)
PAGES = "pages"  # the alias of this process's copies of visitors' pages (settings.CACHES)
NOTE = "_kept_page"  # on the request: what the decorated view rendered its page from
MISSED = "_kept_page_missed"  # on the request: (names, version) the middleware found no page at

# (per session or not, path with its query string) -> the names its page shows. Learned per
# process, forgotten all at once when full (and learned again).
_learned: dict[tuple[bool, str], tuple[str, ...]] = {}


@dataclass(frozen=True)
class Note:
    """What a decorated view's page was rendered from, for the middleware to keep it."""

    names: tuple[str, ...]
    version: str
    session_key: str | None = None  # a per-session page's
    rendered: bool = True  # a visitor's page: rendered now, not served from the cache
    variant: str = ""  # a visitor's page: the variant it shows (core.caching.pages.variants)


def may_be_kept(request) -> bool:
    """A read with no query string but a page number (or one of the path's own form), no
    bearer token, no pending message in a cookie."""
    return (
        request.method in ("GET", "HEAD")
        and _query_kept(request)
        and "HTTP_AUTHORIZATION" not in request.META
        and MESSAGES_COOKIE not in request.COOKIES
    )


def _query_kept(request) -> bool:
    query = request.META.get("QUERY_STRING", "")
    if CACHEABLE_QUERY.match(query) is not None:
        return True
    own = _own_queries.get(request.path)
    return own is not None and own.fullmatch(query) is not None


def keep_query(path: str, pattern: re.Pattern) -> None:
    """Pages at `path` may also be kept per a query string that `pattern` matches whole."""
    if _own_queries.get(path) is not pattern:
        _own_queries[path] = pattern


def for_visitors(request) -> bool:
    """A request that may be given a visitors' page before its session is read: it has none."""
    return may_be_kept(request) and settings.SESSION_COOKIE_NAME not in request.COOKIES


def session_key(request) -> str | None:
    """The request's session key when its page may be kept or served per session."""
    if not (SESSIONS_IN_CACHE and may_be_kept(request)):
        return None
    key = request.COOKIES.get(settings.SESSION_COOKIE_NAME, "")
    return key if SESSION_COOKIE.match(key) else None


def session_at(key: str) -> str:
    """Where the shared cache holds the session `key` (Django's cached_db)."""
    return SESSION_STORE.cache_key_prefix + key


def visitor_key(request, variant: str) -> str:
    """Per scheme, host, path and variant: what one host was answered never reaches another
    (get_host() refuses a Host outside ALLOWED_HOSTS: 400), nor one variant's page another's."""
    page = f"{request.scheme}://{request.get_host()}{request.get_full_path()} {variant}"
    return f"page:{hashlib.blake2b(page.encode(), digest_size=16).hexdigest()}"


def session_page_key(request, key: str) -> str:
    """Per session, CSRF cookie (whose token the page's forms carry) and path."""
    csrf = request.COOKIES.get(settings.CSRF_COOKIE_NAME, "")
    seen = "\0".join((key, csrf, request.get_full_path()))
    return f"personal-page:{hashlib.sha256(seen.encode()).hexdigest()}"


def named(names: tuple[str, ...], kwargs: dict) -> tuple[str, ...]:
    """The names a view's page shows, its URL arguments filled in ("item:{pk}")."""
    return tuple(name.format(**kwargs) for name in names)


def learn(per_session: bool, path: str, names: tuple[str, ...]) -> None:
    if len(_learned) >= LEARNED_PATHS:
        _learned.clear()
    _learned[per_session, path] = names


def learned(per_session: bool, request) -> tuple[str, ...] | None:
    """The names the page at the request's path shows, once a page of it has been kept here."""
    return _learned.get((per_session, request.get_full_path()))


def answer(content: bytes, headers: list[tuple[str, str]]) -> HttpResponse:
    return HttpResponse(content, headers=headers)


def kept_headers(response) -> list[tuple[str, str]]:
    """All but cookies (an answer setting one is never kept, and a cookie never replayed)."""
    return [(k, v) for k, v in response.headers.items() if k.lower() != "set-cookie"]
