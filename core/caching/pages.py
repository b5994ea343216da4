"""Whole pages kept in the shared cache, answered before the rest of the middleware runs: the
pages of visitors without a session, and a signed-in person's own pages, kept per session.

A view says what its page shows with one of two decorators (names may hold the view's URL
arguments: "part:{pk}"):

- `cache_page_for_visitors(*names)`: a page that is the same for every visitor with the same
  bike. Kept under its scheme, host and path and the visitor's active bike (none without a
  session) at the versions of `names` (core.caching.versions: the service that writes bumps
  them, on every app server at once). Its absolute links come from SITE_URL (core.links),
  never from the request, so what one visitor's headers said reaches nobody else. Served to
  requests without a session cookie, and to visitors whose session (not signed in, no pending
  message) holds the bike their `bike` cookie names (the cookie says which page to fetch, the
  session, read in the same round trip as the versions, whether it is theirs); kept only when
  the answer sets no cookie.
- `cache_page_per_session(*names)`, under @login_required: a page of one person's data. Kept
  for the session that saw it (a digest of the session key, the CSRF cookie, whose token the
  page's forms carry, and the path) and served again only when, in one round trip to the
  shared cache: the session is still there (signing out or expiring deletes it) and holds no
  message; it is still the same person with the same password hash (a password change signs
  the other sessions out); the versions of `names` and of "accounts" (a user's change, but a
  sign-in) are the ones it was rendered under. A page that changes with time alone (an unpaid
  order's minutes left) says how long it holds with `keep_page_for`. Kept only when the
  answer's cookies just renew the CSRF cookie the request came with; served without renewing
  its expiry (a year; every page with a form renders it again).

Neither is kept nor served for anything but a GET or HEAD without a query string (but a page
number, or an API list's `limit` and `offset`), a bearer token or a pending message in a cookie. `PageCacheMiddleware`, right after
core.middleware.PrivateAnswerMiddleware (which marks the per-session pages `private,
no-store`, answered from here too), keeps what the decorated views render and learns which
paths they are; the next request for a learned path is answered before sessions,
authentication, CSRF, messages and the Content-Security-Policy run.
"""

import hashlib
import re
from dataclasses import dataclass
from functools import wraps
from importlib import import_module

from django.conf import settings
from django.contrib.auth import HASH_SESSION_KEY, SESSION_KEY
from django.core.cache import cache
from django.http import HttpResponse
from django.utils.cache import patch_vary_headers

from . import versions

ACCOUNTS = "accounts"  # bumped by every change of a user but a sign-in
# A visitor's active bike (catalog.garage): its id in their session under this key, mirrored
# in a cookie of this name ("0": none), by which their pages are found before the session is
# read. Only visitors' sessions carry it: a signed-in request costs no look for a kept page.
BIKE = "bike"
NO_BIKE = "0"
BIKE_COOKIE = re.compile(r"^\d{1,19}$")
MESSAGES_COOKIE = "messages"  # django.contrib.messages' cookie storage: pending messages
MESSAGES = "_messages"  # where its session storage keeps pending ones
# Query strings worth keeping (short numbers keep the key space small): none, a page number,
# or the API's page of a list (`limit`, then `offset`; API clients page the catalog so).
CACHEABLE_QUERY = re.compile(r"^(page=\d{1,3}|limit=\d{1,3}(&offset=\d{1,5})?)?$")
SESSION_COOKIE = re.compile(r"^[a-z0-9]{32}$")  # the session keys Django makes
LEARNED_PATHS = 20_000  # paths remembered per process (then forgotten and learned again)
_SESSION_STORE = import_module(settings.SESSION_ENGINE).SessionStore
# Only sessions that live in the default cache can be checked in the page's round trip.
SESSIONS_IN_CACHE = settings.SESSION_CACHE_ALIAS == "default" and hasattr(
    _SESSION_STORE, "cache_key_prefix"
)
PAGES = "pages"  # the alias of this process's copies of visitors' pages (settings.CACHES)
_NOTE = "_kept_page"  # on the request: what the decorated view rendered its page from
_MISSED = "_kept_page_missed"  # on the request: (names, version) the middleware found no page at
_LIFETIME = "_kept_page_lifetime"

# (per session or not, path with its query string) -> the names its page shows. Learned per
# process, forgotten all at once when full (and learned again).
_learned: dict[tuple[bool, str], tuple[str, ...]] = {}


@dataclass(frozen=True)
class Note:
    names: tuple[str, ...]
    version: str
    session_key: str | None = None  # a per-session page's
    rendered: bool = True  # a visitor's page: rendered now, not served from the cache
    bike: str = ""  # a visitor's page: the active bike it shows ("" none)


def may_be_kept(request) -> bool:
    """A read with no query string but a page number, no bearer token, no pending message
    in a cookie."""
    return (
        request.method in ("GET", "HEAD")
        and CACHEABLE_QUERY.match(request.META.get("QUERY_STRING", "")) is not None
        and "HTTP_AUTHORIZATION" not in request.META
        and MESSAGES_COOKIE not in request.COOKIES
    )


def _for_visitors(request) -> bool:
    return may_be_kept(request) and settings.SESSION_COOKIE_NAME not in request.COOKIES


def _visitors_bike(request) -> str | None:
    """In a view: the bike whose visitors' page this request may be given and its page kept
    as ("" none), or None when it may not (a signed-in session, a pending message)."""
    if _for_visitors(request):
        return ""  # no session: no garage
    if _session_key(request) is None:
        return None
    session = request.session
    if SESSION_KEY in session or MESSAGES in session:
        return None
    return str(session.get(BIKE) or "")


def _session_key(request) -> str | None:
    """The request's session key when its page may be kept or served per session."""
    if not (SESSIONS_IN_CACHE and may_be_kept(request)):
        return None
    key = request.COOKIES.get(settings.SESSION_COOKIE_NAME, "")
    return key if SESSION_COOKIE.match(key) else None


def _named(names: tuple[str, ...], kwargs: dict) -> tuple[str, ...]:
    return tuple(name.format(**kwargs) for name in names)


def _learn(per_session: bool, path: str, names: tuple[str, ...]) -> None:
    if len(_learned) >= LEARNED_PATHS:
        _learned.clear()
    _learned[per_session, path] = names


def _answer(content: bytes, headers: list[tuple[str, str]]) -> HttpResponse:
    return HttpResponse(content, headers=headers)


def _kept_headers(response) -> list[tuple[str, str]]:
    """All but cookies (an answer setting one is never kept, and a cookie never replayed)."""
    return [(k, v) for k, v in response.headers.items() if k.lower() != "set-cookie"]


# --- Visitors' pages ------------------------------------------------------------------------


def _visitor_key(request, bike: str) -> str:
    """Per scheme, host, path and bike: what one host was answered never reaches another
    (get_host() refuses a Host outside ALLOWED_HOSTS: 400), nor one bike's page another's."""
    page = f"{request.scheme}://{request.get_host()}{request.get_full_path()} {bike}"
    return f"page:{hashlib.blake2b(page.encode(), digest_size=16).hexdigest()}"


def cache_page_for_visitors(*names: str):
    """Serve the view's page to visitors from the cache (per bike) while `names` hold; it
    serves a page any app server kept, and notes what it rendered."""

    def decorator(view):
        @wraps(view)
        def wrapper(request, *args, **kwargs):
            shown = _named(names, kwargs)
            bike = _visitors_bike(request)
            if bike is None:
                return view(request, *args, **kwargs)
            missed = getattr(request, _MISSED, None)
            if missed is not None and missed[0] == shown:  # looked for just now: not kept
                version, kept = missed[1], None
            else:
                version = versions.current(*shown)
                if version is None:
                    return view(request, *args, **kwargs)
                kept = versions.get(_visitor_key(request, bike), version=version, local=PAGES)
            response = view(request, *args, **kwargs) if kept is None else _answer(*kept)
            setattr(request, _NOTE, Note(shown, version, rendered=kept is None, bike=bike))
            patch_vary_headers(response, ["Cookie"])
            return response

        return wrapper

    return decorator


def _visitors_page(request) -> HttpResponse | None:
    names = _learned.get((False, request.get_full_path()))
    if names is None:
        return None
    version = versions.current(*names)
    kept = versions.get(_visitor_key(request, ""), version=version, local=PAGES)
    if kept is None and version is not None:
        setattr(request, _MISSED, (names, version))  # the view's decorator need not look again
    return None if kept is None else _answer(*kept)


def _visitor_sessions_page(request, session_key: str) -> HttpResponse | None:
    """The visitors' page of the bike the request's `bike` cookie names, if the session is a
    visitor's (not signed in, no pending message) whose active bike that is: the session and
    the versions in one round trip, the page from this process's copies (else one more)."""
    names = _learned.get((False, request.get_full_path()))
    bike = request.COOKIES.get(BIKE, "")
    if names is None or not BIKE_COOKIE.match(bike):
        return None
    bike = "" if bike == NO_BIKE else bike
    session_at = _SESSION_STORE.cache_key_prefix + session_key
    numbers, found = versions.read(names, [session_at])
    session = found.get(session_at)
    if numbers is None or session is None or SESSION_KEY in session or MESSAGES in session:
        return None
    if str(session.get(BIKE) or "") != bike:
        return None
    version = versions.stamp(numbers)
    kept = versions.get(_visitor_key(request, bike), version=version, local=PAGES)
    if kept is None:
        setattr(request, _MISSED, (names, version))  # the view's decorator need not look again
        return None
    return _answer(*kept)


def _keep_for_visitors(request, note: Note, response) -> None:
    if response.cookies:
        return
    _learn(False, request.get_full_path(), note.names)
    if note.rendered:
        kept = (response.content, _kept_headers(response))
        versions.set(_visitor_key(request, note.bike), kept, version=note.version, local=PAGES)


# --- A session's own pages -------------------------------------------------------------------


def keep_page_for(request, seconds: float) -> None:
    """The page rendered for `request` holds no longer than `seconds` (it changes with time
    alone then); 0 keeps it not at all."""
    lifetime = getattr(request, _LIFETIME, versions.TIMEOUT)
    setattr(request, _LIFETIME, min(int(seconds), lifetime))


def cache_page_per_session(*names: str):
    """Keep the view's page for the session that saw it, while `names` (and the accounts)
    hold. Put it under @login_required."""

    def decorator(view):
        @wraps(view)
        def wrapper(request, *args, **kwargs):
            session_key = _session_key(request)
            shown = (*_named(names, kwargs), ACCOUNTS)
            # Read before the view reads its data: a change meanwhile bumps past these.
            version = versions.current(*shown) if session_key else None
            response = view(request, *args, **kwargs)
            if version is not None:
                setattr(request, _NOTE, Note(shown, version, session_key=session_key))
            return response

        return wrapper

    return decorator


def _page_key(request, session_key: str) -> str:
    csrf = request.COOKIES.get(settings.CSRF_COOKIE_NAME, "")
    seen = "\0".join((session_key, csrf, request.get_full_path()))
    return f"personal-page:{hashlib.sha256(seen.encode()).hexdigest()}"


def _sessions_page(request, session_key: str) -> HttpResponse | None:
    """The page kept for this session, if it may be served to this request now."""
    names = _learned.get((True, request.get_full_path()))
    if names is None:
        return None
    request.get_host()  # a Host outside ALLOWED_HOSTS is refused (400), as ever
    session_at = _SESSION_STORE.cache_key_prefix + session_key
    page_at = _page_key(request, session_key)
    numbers, found = versions.read(names, [session_at, page_at])
    session, page = found.get(session_at), found.get(page_at)
    if numbers is None or session is None or page is None or MESSAGES in session:
        return None
    person = (session.get(SESSION_KEY), session.get(HASH_SESSION_KEY))
    if page["version"] != versions.stamp(numbers) or page["person"] != person:
        return None
    return _answer(page["content"], page["headers"])


def _keep_for_session(request, note: Note, response) -> None:
    lifetime = getattr(request, _LIFETIME, versions.TIMEOUT)
    session = request.session
    if (
        lifetime <= 0
        or session.session_key != note.session_key
        or SESSION_KEY not in session
        or not _sets_no_new_cookie(request, response)
    ):
        return
    page = {
        "version": note.version,
        "person": (session.get(SESSION_KEY), session.get(HASH_SESSION_KEY)),
        "content": response.content,
        "headers": _kept_headers(response),
    }
    cache.set(_page_key(request, note.session_key), page, lifetime)
    _learn(True, request.get_full_path(), note.names)


def _sets_no_new_cookie(request, response) -> bool:
    """Whether the response's cookies only renew the CSRF cookie the request came with
    (Django sends it again with every page that has a form, to push its expiry back)."""
    return all(
        name == settings.CSRF_COOKIE_NAME and morsel.value == request.COOKIES.get(name)
        for name, morsel in response.cookies.items()
    )


class PageCacheMiddleware:
    """Answers learned pages before the middleware after it; keeps what the decorated views
    render. Put it right after PrivateAnswerMiddleware (after SecurityMiddleware: the HTTPS
    redirect comes first)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if _for_visitors(request):
            kept = _visitors_page(request)
        else:
            session_key = _session_key(request)
            kept = _sessions_page(request, session_key) if session_key else None
            if kept is None and session_key and BIKE in request.COOKIES:
                kept = _visitor_sessions_page(request, session_key)
        if kept is not None:
            return kept
        response = self.get_response(request)
        _mirror_bike(request, response)
        note = getattr(request, _NOTE, None)
        if note is not None and response.status_code == 200 and not response.streaming:
            if note.session_key is None:
                _keep_for_visitors(request, note, response)
            else:
                _keep_for_session(request, note, response)
        return response


def _mirror_bike(request, response) -> None:
    """Keep the `bike` cookie equal to the active bike in a visitor's session (NO_BIKE for
    none), and away from signed-in sessions (their pages are never visitors'), when the request
    read the session."""
    session = getattr(request, "session", None)
    if session is None or not session.accessed:
        return
    bike = None
    if SESSION_KEY not in session and not session.is_empty():
        bike = str(session.get(BIKE) or NO_BIKE)
    if request.COOKIES.get(BIKE) == bike:
        return
    if bike:
        response.set_cookie(
            BIKE,
            bike,
            max_age=settings.SESSION_COOKIE_AGE,
            secure=settings.SESSION_COOKIE_SECURE,
            httponly=True,
            samesite="Lax",
        )
    elif BIKE in request.COOKIES:
        response.delete_cookie(BIKE, samesite="Lax")
