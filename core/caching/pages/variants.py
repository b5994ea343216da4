"""What visitors' pages vary on besides their address: a hook an app fills in (the kernel knows
no value of its own).

An app may keep, in a visitor's session, one value its pages show (say, a choice the visitor
made), and register it with `vary_visitors_pages_on(Variant(...))` in its AppConfig.ready.
Visitors' pages are then kept per value of it, and the value is mirrored in a cookie, so the
page kept for it is found before the session is read: the cookie says which page to fetch,
the session (read in the versions' round trip) whether it is the visitor's. Only visitors'
sessions carry the cookie: a signed-in request costs no look for a visitors' page.
"""

import re
from dataclasses import dataclass, field

from django.conf import settings
from django.contrib.auth import SESSION_KEY


@dataclass(frozen=True)
class Variant:
    """A value kept in a visitor's session under `session_key`, mirrored in the cookie
    `cookie` (`none` for a visitor's session without one). A cookie that does not match
    `pattern` in full finds no page."""

    cookie: str
    session_key: str
    pattern: str
    none: str = "0"
    matcher: re.Pattern = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        object.__setattr__(self, "matcher", re.compile(self.pattern))


_registered: list[Variant] = []  # at most one


def vary_visitors_pages_on(variant: Variant | None) -> None:
    """Keep visitors' pages per value of `variant` (None: on nothing but their address)."""
    _registered[:] = [variant] if variant is not None else []


def registered() -> Variant | None:
    return _registered[0] if _registered else None


def of_session(session) -> str:
    """The variant a visitor's session shows ("" none)."""
    variant = registered()
    return "" if variant is None else str(session.get(variant.session_key) or "")


def of_cookie(request) -> str | None:
    """The variant the request's cookie names ("" none), or None when it names none validly
    (no cookie, a forged one)."""
    variant = registered()
    value = request.COOKIES.get(variant.cookie) if variant is not None else None
    if value is None or variant.matcher.fullmatch(value) is None:
        return None
    return "" if value == variant.none else value


def in_cookies(request) -> bool:
    variant = registered()
    return variant is not None and variant.cookie in request.COOKIES


def mirror(request, response) -> None:
    """Keep the cookie equal to the variant in a visitor's session (`none` for none), and away
    from signed-in sessions (their pages are never visitors'), when the request read the
    session."""
    variant = registered()
    session = getattr(request, "session", None)
    if variant is None or session is None or not session.accessed:
        return
    value = None
    if SESSION_KEY not in session and not session.is_empty():
        value = str(session.get(variant.session_key) or variant.none)
    if request.COOKIES.get(variant.cookie) == value:
        return
    if value:
        response.set_cookie(
            variant.cookie,
            value,
            max_age=settings.SESSION_COOKIE_AGE,
            secure=settings.SESSION_COOKIE_SECURE,
            httponly=True,
            samesite="Lax",
        )
    elif variant.cookie in request.COOKIES:
        response.delete_cookie(variant.cookie, samesite="Lax")
