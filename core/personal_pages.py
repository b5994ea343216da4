"""A signed-in person's own pages (My Order, an order's page), kept per session.

Such a page shows one person's data, so it is kept for the session that saw it and nobody
else: its key is a digest of the session key, the CSRF cookie (the page's forms carry a token
made from it) and the path. It is served again only when, in the same round trip to the shared
cache:

- the session is still there (signing out or expiring deletes it) and holds no message;
- it is still the same person's session, with the same password hash (a password change
  signs the other sessions out);
- the versions of the data the page shows are the ones it was rendered under, "accounts"
  among them (bumped by every change of a user, but a sign-in: a new name, a password, the
  admin flag, a deactivated account).

A page that changes with time alone (an unpaid order's minutes left) says how long it holds
with `keep_page_for`. Anything else (no session cookie, a pending message cookie, a query
string, a bearer token, a page that sets a new cookie) gets the page rendered as ever. A kept
page is served without renewing the CSRF cookie's expiry (a year; every rendered page with a
form renews it).

`cache_page_per_session(*names)` on a view notes what its page was rendered from;
`PersonalPageMiddleware`, right after core.page_cache.VisitorPageMiddleware, keeps it and
answers the next request for the path before sessions, authentication and the rest run.
"""

import hashlib
import re
from functools import wraps
from importlib import import_module

from django.conf import settings
from django.contrib.auth import HASH_SESSION_KEY, SESSION_KEY
from django.core.cache import cache

from .page_cache import LearnedPaths, answer, kept_headers, may_be_kept
from .versioned_cache import TIMEOUT, versions, versions_and

ACCOUNTS = "accounts"  # a version bumped by accounts.signals on every change of a user
MESSAGES = "_messages"  # where django.contrib.messages' session storage keeps pending ones
SESSION_COOKIE = re.compile(r"^[a-z0-9]{32}$")  # the session keys Django makes
_SESSION_STORE = import_module(settings.SESSION_ENGINE).SessionStore
# Only sessions that live in the default cache can be checked in the page's round trip.
SESSIONS_IN_CACHE = settings.SESSION_CACHE_ALIAS == "default" and hasattr(
    _SESSION_STORE, "cache_key_prefix"
)
_NOTE = "_personal_page"  # on the request: (names, versions, session key) of a rendered page
_LIFETIME = "_personal_page_lifetime"

_learned = LearnedPaths()


def keep_page_for(request, seconds: float) -> None:
    """The page rendered for `request` holds no longer than `seconds` (it changes with time
    alone then); 0 keeps it not at all."""
    setattr(request, _LIFETIME, min(int(seconds), getattr(request, _LIFETIME, TIMEOUT)))


def _session_key(request) -> str | None:
    """The request's session key when its page may be kept or served from the cache."""
    if not (SESSIONS_IN_CACHE and may_be_kept(request)):
        return None
    key = request.COOKIES.get(settings.SESSION_COOKIE_NAME, "")
    return key if SESSION_COOKIE.match(key) else None


def _page_key(request, session_key: str) -> str:
    csrf = request.COOKIES.get(settings.CSRF_COOKIE_NAME, "")
    seen = "\0".join((session_key, csrf, request.get_full_path()))
    return f"personal-page:{hashlib.sha256(seen.encode()).hexdigest()}"


def _session_cache_key(session_key: str) -> str:
    return _SESSION_STORE.cache_key_prefix + session_key


def _recall(request, session_key: str, names: tuple[str, ...]):
    """The kept page, if it may be served to this request now; else None."""
    session_at, page_at = _session_cache_key(session_key), _page_key(request, session_key)
    current, found = versions_and(names, [session_at, page_at])
    session, page = found.get(session_at), found.get(page_at)
    if current is None or session is None or page is None or MESSAGES in session:
        return None
    person = (session.get(SESSION_KEY), session.get(HASH_SESSION_KEY))
    if page["versions"] != current or page["person"] != person:
        return None
    return page["content"], page["headers"]


def _keep(request, note, response) -> None:
    names, current, session_key = note
    lifetime = getattr(request, _LIFETIME, TIMEOUT)
    session = request.session
    if lifetime <= 0 or session.session_key != session_key or SESSION_KEY not in session:
        return
    page = {
        "versions": current,
        "person": (session.get(SESSION_KEY), session.get(HASH_SESSION_KEY)),
        "content": response.content,
        "headers": kept_headers(response),
    }
    cache.set(_page_key(request, session_key), page, lifetime)
    _learned.learn(request.get_full_path(), names)


def cache_page_per_session(*names: str):
    """Keep the view's page for the session that saw it, while `names` (and the accounts)
    hold. Put it under @login_required."""
    names = (*names, ACCOUNTS)

    def decorator(view):
        @wraps(view)
        def wrapper(request, *args, **kwargs):
            session_key = _session_key(request)
            # Read before the view reads its data: a change meanwhile bumps past these.
            current = versions(*names) if session_key else None
            response = view(request, *args, **kwargs)
            if current is not None:
                setattr(request, _NOTE, (names, current, session_key))
            return response

        return wrapper

    return decorator


class PersonalPageMiddleware:
    """Answers a session's kept pages before the middleware after it; keeps what the
    decorated views render. Put it right after VisitorPageMiddleware."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        session_key = _session_key(request)
        names = _learned.get(request.get_full_path()) if session_key else None
        if names is not None:
            request.get_host()  # a Host outside ALLOWED_HOSTS is refused (400), as ever
            kept = _recall(request, session_key, names)
            if kept is not None:
                return answer(kept)
        response = self.get_response(request)
        note = getattr(request, _NOTE, None)
        if (
            note is not None
            and response.status_code == 200
            and _sets_no_new_cookie(request, response)
            and not response.streaming
        ):
            _keep(request, note, response)
        return response


def _sets_no_new_cookie(request, response) -> bool:
    """Whether the response's cookies only renew the CSRF cookie the request came with
    (Django sends it again with every page that has a form, to push its expiry back)."""
    return all(
        name == settings.CSRF_COOKIE_NAME and morsel.value == request.COOKIES.get(name)
        for name, morsel in response.cookies.items()
    )
