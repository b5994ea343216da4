"""A signed-in person's own pages, kept per session (core.caching.pages).

A page is kept for the session that saw it (its key: the session, the CSRF cookie and the
path) and served again only when:

- in one round trip to the shared cache: the session is still there and holds no pending
  message, it is still the same person with the same password hash, and the versions of what
  the page shows (its `names`, and ACCOUNTS: any change of a user but a sign-in) are those it
  was rendered under;
- in one indexed read of the database, live: the session has not ended there (signed out,
  expired) and the person's row is as it was when the page was kept, but for the fields no
  page shows (Django's `last_login`, and those an app names with `person_fields_not_shown`):
  a role, the active flag, the password. No cache and no channel that could go quiet stands
  between a sign-out, a role taken back, a deactivation or a password change, made on any
  server, and the next request.
"""

import functools
from functools import wraps

from django.conf import settings
from django.contrib.auth import HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.core.cache import cache
from django.db import DatabaseError
from django.db.models import Exists, IntegerField
from django.db.models.functions import Now
from django.utils.crypto import salted_hmac

from .. import versions
from ..statements import Statement, stand_in_numbers, stand_in_text
from .keys import (
    MESSAGES,
    NOTE,
    SESSION_STORE,
    Note,
    answer,
    kept_headers,
    learn,
    learned,
    named,
    session_at,
    session_key,
    session_page_key,
)

ACCOUNTS = "accounts"  # bumped by every change of a user but a sign-in
KEPT_FOR = "_kept_page_lifetime"  # on the request: how long its page may be kept
_NOT_SHOWN = {"last_login"}  # a sign-in writes it


def person_fields_not_shown(*names: str) -> None:
    """Fields of the user model that no page shows: a change of them alone leaves the pages
    kept (an app's bookkeeping, say revoked API tokens)."""
    _NOT_SHOWN.update(names)


def _fields() -> list[str]:
    return [f.attname for f in get_user_model()._meta.concrete_fields if f.name not in _NOT_SHOWN]


def _digest(values) -> str:
    """The person's row, as the page remembers it (never the password hash itself)."""
    return salted_hmac("core.caching.pages.sessions", repr(tuple(values))).hexdigest()


def _standing_now(user_id, key: str) -> str | None:
    """The digest of the person's row as the database has it now, while the session `key`
    lives there; None when it does not (or the database cannot say)."""
    statement = _live_row()
    if statement is None:
        return None
    try:
        rows = statement.run(key=key, person=int(user_id))
    except (DatabaseError, TypeError, ValueError):
        return None
    return _digest(rows[0]) if rows else None


@functools.cache
def _live_row() -> Statement | None:
    """The person's row while the session lives in the database, in one indexed statement
    compiled once per process (core.caching.statements). None for a user model whose primary
    key is not an integer: its pages are then never served kept."""
    user = get_user_model()
    if not isinstance(user._meta.pk, IntegerField):
        return None
    sessions = SESSION_STORE.get_model_class()._meta.default_manager

    def live_row(key, person):
        live = sessions.filter(session_key=key, expire_date__gt=Now())
        people = user._meta.default_manager.filter(Exists(live), pk=person).order_by()
        return people.values_list(*_fields())[:1]

    key, (person,) = stand_in_text("session key"), stand_in_numbers(1)
    return Statement.of(live_row, key=key, person=person)


def keep_page_for(request, seconds: float) -> None:
    """The page rendered for `request` holds no longer than `seconds` (it changes with time
    alone then); 0 keeps it not at all."""
    lifetime = getattr(request, KEPT_FOR, versions.TIMEOUT)
    setattr(request, KEPT_FOR, min(int(seconds), lifetime))


def cache_page_per_session(*names: str):
    """Keep the view's page for the session that saw it, while `names` (and the accounts)
    hold. Put it under @login_required."""

    def decorator(view):
        @wraps(view)
        def wrapper(request, *args, **kwargs):
            key = session_key(request)
            shown = (*named(names, kwargs), ACCOUNTS)
            # Read before the view reads its data: a change meanwhile bumps past these.
            version = versions.current(*shown) if key else None
            response = view(request, *args, **kwargs)
            if version is not None:
                setattr(request, NOTE, Note(shown, version, session_key=key))
            return response

        return wrapper

    return decorator


def sessions_page(request, key: str):
    """The page kept for this session, if it may be served to this request now."""
    names = learned(True, request)
    if names is None:
        return None
    request.get_host()  # a Host outside ALLOWED_HOSTS is refused (400), as ever
    at, page_at = session_at(key), session_page_key(request, key)
    numbers, found = versions.read(names, [at, page_at])
    session, page = found.get(at), found.get(page_at)
    if numbers is None or session is None or page is None or MESSAGES in session:
        return None
    person = (session.get(SESSION_KEY), session.get(HASH_SESSION_KEY))
    if page["version"] != versions.stamp(numbers) or page["person"] != person:
        return None
    if page["standing"] != _standing_now(person[0], key):
        return None
    return answer(page["content"], page["headers"])


def keep_for_session(request, note: Note, response) -> None:
    lifetime = getattr(request, KEPT_FOR, versions.TIMEOUT)
    session = request.session
    if (
        lifetime <= 0
        or session.session_key != note.session_key
        or SESSION_KEY not in session
        or not _sets_no_new_cookie(request, response)
    ):
        return
    standing = _standing_now(session[SESSION_KEY], note.session_key)
    if standing is None:
        return
    page = {
        "version": note.version,
        "person": (session.get(SESSION_KEY), session.get(HASH_SESSION_KEY)),
        "standing": standing,  # read as it will be read to serve the page
        "content": response.content,
        "headers": kept_headers(response),
    }
    at = session_page_key(request, note.session_key)
    cache.set(at, page, min(lifetime, versions.LIFETIME))  # no longer than its versions
    learn(True, request.get_full_path(), note.names)


def _sets_no_new_cookie(request, response) -> bool:
    """Whether the response's cookies only renew the CSRF cookie the request came with
    (Django sends it again with every page that has a form, to push its expiry back)."""
    return all(
        name == settings.CSRF_COOKIE_NAME and morsel.value == request.COOKIES.get(name)
        for name, morsel in response.cookies.items()
    )
