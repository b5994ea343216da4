"""Whole pages kept in the shared cache, answered before the rest of the middleware runs: the
pages of visitors, and a signed-in person's own pages, kept per session.

A view says what its page shows with one of two decorators (names may hold the view's URL
arguments: "item:{pk}"):

- `cache_page_for_visitors(*names)` (visitors.py): a page that is the same for every visitor
  with the same variant (variants.py: what an app registers, say a choice kept in a visitor's
  session; nothing by default). Kept under its scheme, host and path and that variant at the
  versions of `names` (core.caching.versions: the service that writes bumps them, on every
  app server at once). Its absolute links come from SITE_URL (core.links), never from the
  request, so what one visitor's headers said reaches nobody else. Served to requests without
  a session cookie, and to visitors whose session (not signed in, no pending message) shows
  the variant their cookie names; kept only when the answer sets no cookie. With
  `everyone=True` (the search box's suggestions) the page is the same for everyone: the one
  kept page is served to signed-in people too, and no session is read.
- `cache_page_per_session(*names)` (sessions.py), under @login_required: a page of one
  person's data, kept for the session that saw it and served again only while the session,
  the person's row (read live from the database) and the versions of what it shows hold. A
  page that changes with time alone (minutes left on a clock) says how long it holds with
  `keep_page_for`.

Neither is kept nor served for anything but a GET or HEAD without a query string (but a page
number, or an API list's `limit` and `offset`, or one of the form a visitors' view names with
`query=`: say a search box's words, each query string then its own page), a bearer token or a pending message in a
cookie (keys.py). `PageCacheMiddleware` (middleware.py), right after
core.middleware.PrivateAnswerMiddleware (which marks the per-session pages `private,
no-store`, answered from here too), keeps what the decorated views render and learns which
paths they are; the next request for a learned path is answered before sessions,
authentication, CSRF, messages and the Content-Security-Policy run.
"""

from .keys import MESSAGES_COOKIE, PAGES
from .middleware import PageCacheMiddleware
from .sessions import ACCOUNTS, cache_page_per_session, keep_page_for, person_fields_not_shown
from .variants import Variant, vary_visitors_pages_on
from .visitors import cache_page_for_visitors

__all__ = [
    "ACCOUNTS",
    "MESSAGES_COOKIE",
    "PAGES",
    "PageCacheMiddleware",
    "Variant",
    "cache_page_for_visitors",
    "cache_page_per_session",
    "keep_page_for",
    "person_fields_not_shown",
    "vary_visitors_pages_on",
]
