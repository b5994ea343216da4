"""The shop's own middleware: a friendly 503 while the database is out of reach, Retry-After on
every 429, the shop's 404 and 400 answers, and `Cache-Control: private, no-store` on personal
answers."""

import logging
import sys

from django.conf import settings
from django.contrib.sessions.exceptions import SessionInterrupted
from django.contrib.sessions.middleware import SessionMiddleware as DjangoSessionMiddleware
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent
from django.core.signals import got_request_exception
from django.db import InterfaceError, OperationalError
from django.http import Http404, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.urls import get_resolver
from django.utils.cache import get_max_age, patch_cache_control

from .caching.pages.keys import MESSAGES_COOKIE

logger = logging.getLogger(__name__)

DATABASE_ERRORS = (OperationalError, InterfaceError)
API_UNAVAILABLE = "The service is temporarily unavailable. Please try again shortly."
PAGE_UNAVAILABLE = "The shop is temporarily unavailable. Please try again in a minute."
RETRY_AFTER_SECONDS = "30"
_MARK = "_shop_database_error"


def database_error_in(exc: BaseException | None) -> BaseException | None:
    """The database failure behind `exc`: itself, or one it was raised from or while handling."""
    seen = set()
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, DATABASE_ERRORS):
            return exc
        seen.add(id(exc))
        exc = exc.__cause__ or exc.__context__
    return None


def is_database_error(exc: BaseException | None) -> bool:
    return database_error_in(exc) is not None


def database_unavailable(request, exc: BaseException) -> HttpResponse:
    """Log the failure in one line (no traceback: it says nothing new) and answer 503."""
    logger.warning("Database unavailable: %s %s (%s)", request.method, request.path, exc)
    return unavailable_response(request)


def unavailable_response(request) -> HttpResponse:
    """503 without touching the database or the session: JSON under /api/, else a page."""
    if request.path.startswith("/api/"):
        response = JsonResponse({"detail": API_UNAVAILABLE}, status=503)
    else:
        response = HttpResponse(_unavailable_page(), status=503)
    response["Retry-After"] = RETRY_AFTER_SECONDS
    response["Cache-Control"] = "no-store"
    return response


def _unavailable_page() -> str:
    """templates/503.html rendered without a request, so no context processor runs."""
    try:
        return render_to_string(
            "503.html", {"SHOP_NAME": settings.SHOP_NAME, "message": PAGE_UNAVAILABLE}
        )
    except Exception:  # the page about a failure must not fail itself
        logger.exception("The 503 page could not be rendered")
        return f"<!DOCTYPE html><title>We'll be right back</title><p>{PAGE_UNAVAILABLE}</p>"


def _remember_database_error(sender, request=None, **kwargs):
    """got_request_exception receiver: Django is turning an exception into a 500 (in a view,
    a middleware or an error handler); note it on the request when it is a database failure."""
    if request is not None and is_database_error(sys.exc_info()[1]):
        setattr(request, _MARK, True)


class DatabaseUnavailableMiddleware:
    """Answer 503 (page or JSON) instead of 500 when the database can't be reached.

    Put it before the sessions and authentication middleware: a failure in a view arrives in process_exception; one in a
    middleware further in (sessions, authentication) or in an error handler has already been
    turned into a 500 by Django, which marked the request (got_request_exception), and the
    500 is replaced here. Django drops the broken connection at the end of the request
    (CONN_HEALTH_CHECKS and close_old_connections), so the next request connects afresh and
    the shop recovers by itself when the database is back.
    """

    def __init__(self, get_response):
        self.get_response = get_response
        got_request_exception.connect(
            _remember_database_error, dispatch_uid="core.middleware.database_error"
        )

    def __call__(self, request):
        try:
            response = self.get_response(request)
        except DATABASE_ERRORS as exc:  # only with DEBUG_PROPAGATE_EXCEPTIONS
            return database_unavailable(request, exc)
        if response.status_code == 500 and getattr(request, _MARK, False):
            return unavailable_response(request)
        return response

    def process_exception(self, request, exception):
        if is_database_error(exception):
            return database_unavailable(request, exception)
        return None


class SessionMiddleware(DjangoSessionMiddleware):
    """Django's, except when saving the session fails because the database is out of reach:
    Django reports that as SessionInterrupted (a 400 meant for a log-out in a concurrent
    request); here the database error goes on, so the visitor gets the 503 page."""

    def process_response(self, request, response):
        try:
            return super().process_response(request, response)
        except SessionInterrupted as exc:
            cause = database_error_in(exc)
            if cause is None:
                raise
            raise cause from exc


class ErrorPageMiddleware:
    """The shop's own answers to a view's Http404 (handler404: the shop's 404 page; the API
    answers its own JSON 404s before this is reached) and to a body Django refuses to read
    (handler400: JSON under /api/, else a page), with DEBUG on too: Django's debug pages
    would list the site's URLs and settings."""

    HANDLED = (
        (Http404, 404),
        ((RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent), 400),
    )

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        for kinds, status in self.HANDLED:
            if isinstance(exception, kinds):
                return get_resolver().resolve_error_handler(status)(request, exception)
        return None


PAGE_RETRY_AFTER_SECONDS = "60"


class RetryAfterMiddleware:
    """Every 429 says when to come back: allauth's rate-limit page and the sign-in form's 429
    carry no Retry-After of their own, so they get one (the API's throttles set theirs)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if response.status_code == 429 and not response.has_header("Retry-After"):
            response["Retry-After"] = PAGE_RETRY_AFTER_SECONDS
        return response


READS = ("GET", "HEAD", "OPTIONS")


def is_personal(request, response) -> bool:
    """Whether the answer may depend on who asked: anything but a read; a read by a caller who
    says who they are (a session cookie, an Authorization header) or has messages pending; an
    answer that sets a cookie (a new session, a CSRF token made for that browser's cookie)."""
    return (
        request.method not in READS
        or "HTTP_AUTHORIZATION" in request.META
        or settings.SESSION_COOKIE_NAME in request.COOKIES
        or MESSAGES_COOKIE in request.COOKIES
        or bool(response.cookies)
    )


def is_public(response) -> bool:
    """An answer that says itself it is the same for everyone (static files, uploaded images)."""
    return "public" in response.get("Cache-Control", "").lower()


class PrivateAnswerMiddleware:
    """`Cache-Control: private, no-store` on every answer that depends on who is asking: no
    shared cache keeps it, no browser writes it to disk.

    Put it right after SecurityMiddleware, before the page caches: a page served from a
    session's own cache (core.caching.pages) gets it too, and a page kept for visitors
    (core.caching.pages: no session, no Authorization header, no cookie set) keeps what it had.
    The rule reads only the request's headers and the response, never the session: deciding
    costs no round trip.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if is_personal(request, response) and not is_public(response):
            # Any max-age of the answer's own goes down to 0 (patch_cache_control keeps the
            # smaller): with no-store it could only mislead.
            fresh_for = {"max_age": 0} if (get_max_age(response) or 0) > 0 else {}
            patch_cache_control(response, private=True, no_store=True, **fresh_for)
        return response
