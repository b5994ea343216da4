"""PageCacheMiddleware: answers learned pages before the middleware after it, and keeps what
the decorated views render (core.caching.pages)."""

from . import variants
from .keys import NOTE, for_visitors, session_key
from .sessions import keep_for_session, sessions_page
from .visitors import keep_for_visitors, visitor_sessions_page, visitors_page


class PageCacheMiddleware:
    """Put it right after core.middleware.PrivateAnswerMiddleware (after SecurityMiddleware:
    the HTTPS redirect comes first)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if for_visitors(request):
            kept = visitors_page(request)
        else:
            key = session_key(request)
            kept = sessions_page(request, key) if key else None
            if kept is None and key and variants.in_cookies(request):
                kept = visitor_sessions_page(request, key)
        if kept is not None:
            return kept
        response = self.get_response(request)
        variants.mirror(request, response)
        note = getattr(request, NOTE, None)
        if note is not None and response.status_code == 200 and not response.streaming:
            if note.session_key is None:
                keep_for_visitors(request, note, response)
            else:
                keep_for_session(request, note, response)
        return response
