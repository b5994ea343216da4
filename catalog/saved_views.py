"""Saved parts' page, /saved: the caller's saved parts with "Add to cart", "Price dropped" and
"Remove"; and the plain-form round trips of "Save" (cards, part pages) and "Remove".

It works without JavaScript: a POST of `save` or `remove` (a part's id) changes the list and
comes back here with a message. The "Save" forms sit on pages kept for every visitor, so they
carry no CSRF token (one person's token must never reach another): a POST without a valid
token changes nothing and shows the page with a button to confirm it, which carries this
browser's token. With JavaScript (site.js, lib/saved.js) the buttons go by the API instead.
"""

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.utils.cache import patch_cache_control
from django.views.decorators.csrf import csrf_exempt, csrf_protect

from core.throttles import VISITOR_WRITES_REFUSED, VisitorWriteThrottle, page_wait

from . import saved
from .models import Part
from .saved_api import keep_hint

PART_SAVED = "Part saved"
PART_REMOVED = "Removed from your saved parts"
ACTIONS = ("save", "remove")


def _asked(data) -> tuple[str, int] | None:
    """The action asked ("save" or "remove") and its part's id (0: not a whole number)."""
    for action in ACTIONS:
        if action in data:
            value = str(data[action]).strip()
            return action, int(value) if value.isdigit() and len(value) < 20 else 0
    return None


@csrf_exempt  # the token is checked by _change: without it the page asks to confirm
def saved_page(request):
    """GET: the saved parts. POST `save` or `remove` (a part's id): done, back here with a
    message; a visitor's posts are limited as the API's writes are (THROTTLE_VISITOR_WRITES):
    past it, the page with a message, 429, nothing changed."""
    if request.method != "POST":
        return _render(request)
    wait = page_wait(request, VisitorWriteThrottle())
    if wait is not None:
        response = _render(request, error=VISITOR_WRITES_REFUSED, status=429)
        response["Retry-After"] = str(wait)
        return response
    asked = _asked(request.POST)
    if asked is None:
        return redirect("saved")
    action, part_id = asked
    response = _change(request, action, part_id)
    if response.status_code != 403:
        return response
    # Refused by Django's CSRF check (the form of a page kept for everyone): ask to confirm.
    part = Part.objects.only("id", "name").filter(pk=part_id).first() if part_id else None
    if part is None:
        return _render(request, error=saved.UNKNOWN_PART, status=400)
    return _render(request, confirm={"action": action, "part": part})


@csrf_protect  # within the exempt page: its refusal (403) is the page's question
def _change(request, action: str, part_id: int):
    """Save or remove the part, back to the page with a message; 400: the page with why."""
    caller = {"user": request.user, "session": request.session}
    try:
        if action == "save":
            saved.saved_part_add(**caller, part_id=part_id)
            messages.success(request, PART_SAVED)
        else:
            saved.saved_part_remove(**caller, part_id=part_id)
            messages.success(request, PART_REMOVED)
    except ValidationError as refusal:
        return _render(request, error=refusal.messages[0], status=400)
    return redirect("saved")


def _render(request, *, error: str = "", confirm: dict | None = None, status: int = 200):
    parts = saved.saved_parts_read(user=request.user, session=request.session)
    context = {"parts": parts, "error": error, "confirm": confirm, "max_saved": saved.MAX_SAVED}
    response = render(request, "catalog/saved.html", context, status=status)
    patch_cache_control(response, private=True, no_store=True)
    keep_hint(request, response, len(parts))
    return response
