"""Visitors' pages: the same for every visitor with the same variant (core.caching.pages)."""

import re
from functools import wraps

from django.contrib.auth import SESSION_KEY
from django.utils.cache import patch_vary_headers

from .. import versions
from . import variants
from .keys import (
    MESSAGES,
    MISSED,
    NOTE,
    PAGES,
    Note,
    answer,
    for_visitors,
    keep_query,
    kept_headers,
    learn,
    learned,
    may_be_kept,
    named,
    session_at,
    session_key,
    visitor_key,
)


def visitors_variant(request, *, everyone: bool = False) -> str | None:
    """In a view: the variant whose visitors' page this request may be given and its page kept
    as ("" none), or None when it may not (a signed-in session, a pending message). `everyone`:
    the view answers everyone alike, so any request that may be kept gets "" (no session read)."""
    if everyone:
        return "" if may_be_kept(request) else None
    if for_visitors(request):
        return ""  # no session: nothing chosen
    if session_key(request) is None:
        return None
    session = request.session
    if SESSION_KEY in session or MESSAGES in session:
        return None
    return variants.of_session(session)


def cache_page_for_visitors(*names: str, query: str = "", everyone: bool = False):
    """Serve the view's page to visitors from the cache (per variant) while `names` hold; it
    serves a page any app server kept, and notes what it rendered. `query`: a pattern of the
    query strings its pages are also kept per (each its own page; say "q=[^&]{0,100}").
    `everyone`: the page is the same for everyone, signed in or not, whatever their session
    holds (the view reads none): it serves them all, and the session is never read."""
    own = re.compile(query) if query else None

    def decorator(view):
        @wraps(view)
        def wrapper(request, *args, **kwargs):
            if own is not None:
                keep_query(request.path, own)
            shown = named(names, kwargs)
            variant = visitors_variant(request, everyone=everyone)
            if variant is None:
                return view(request, *args, **kwargs)
            missed = getattr(request, MISSED, None)
            if missed is not None and missed[0] == shown:  # looked for just now: not kept
                version, kept = missed[1], None
            else:
                version = versions.current(*shown)
                if version is None:
                    return view(request, *args, **kwargs)
                kept = versions.get(visitor_key(request, variant), version=version, local=PAGES)
            response = view(request, *args, **kwargs) if kept is None else answer(*kept)
            setattr(request, NOTE, Note(shown, version, rendered=kept is None, variant=variant))
            patch_vary_headers(response, ["Cookie"])
            return response

        return wrapper

    return decorator


def visitors_page(request):
    """The page kept for visitors at the request's path (it has no session)."""
    names = learned(False, request)
    if names is None:
        return None
    version = versions.current(*names)
    kept = versions.get(visitor_key(request, ""), version=version, local=PAGES)
    if kept is None and version is not None:
        setattr(request, MISSED, (names, version))  # the view's decorator need not look again
    return None if kept is None else answer(*kept)


def visitor_sessions_page(request, key: str):
    """The visitors' page of the variant the request's cookie names, if the session is a
    visitor's (not signed in, no pending message) showing that variant: the session and the
    versions in one round trip, the page from this process's copies (else one more)."""
    names = learned(False, request)
    variant = variants.of_cookie(request)
    if names is None or variant is None:
        return None
    at = session_at(key)
    numbers, found = versions.read(names, [at])
    session = found.get(at)
    if numbers is None or session is None or SESSION_KEY in session or MESSAGES in session:
        return None
    if variants.of_session(session) != variant:
        return None
    version = versions.stamp(numbers)
    kept = versions.get(visitor_key(request, variant), version=version, local=PAGES)
    if kept is None:
        setattr(request, MISSED, (names, version))  # the view's decorator need not look again
        return None
    return answer(*kept)


def keep_for_visitors(request, note: Note, response) -> None:
    if response.cookies:
        return
    learn(False, request.get_full_path(), note.names)
    if note.rendered:
        kept = (response.content, kept_headers(response))
        versions.set(visitor_key(request, note.variant), kept, version=note.version, local=PAGES)
