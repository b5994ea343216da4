"""The pages of "Email me when it's back": the part page's form posts here, and the link
mailed to a visitor opens the confirmation page.

The part page is kept for visitors (core.caching.pages), so its form carries no CSRF token
for them and no personal data for anyone: a visitor's POST needs no token (all it can do is
mail a link to the address given, limited per client address; the session cookie is
SameSite=Lax, so a post from another site arrives as a visitor's), while a signed-in rider's
page is rendered for them and its form carries the token, checked here.
"""

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.views.decorators.csrf import csrf_exempt, csrf_protect
from django.views.decorators.http import require_POST

from core.api import get_or_404
from core.errors import ShopError
from core.page_forms import validate
from core.throttles import VisitorWriteThrottle, page_wait

from . import alerts
from .alerts_api import AlertInputSerializer
from .models import Part
from .throttles import AlertThrottle

TOO_MANY_ASKED = "Too many alerts asked from your address in a short time. Please try again later."


@csrf_exempt
@require_POST
def part_alert(request, pk):
    """ "Email me when it's back": back to the part's page with a message (STARTED for a
    signed-in rider, CHECK_MAIL for a visitor); a bad e-mail goes back with its message too."""
    if request.user.is_authenticated:
        return _checked_alert(request, pk)
    return _alert(request, pk)


@csrf_protect
def _checked_alert(request, pk):
    """A signed-in rider's page carries the CSRF token: checked as any form's."""
    return _alert(request, pk)


def _alert(request, pk):
    part = get_or_404(Part.objects.only("pk"), pk)
    signed_in = request.user.is_authenticated
    back = redirect(part.get_absolute_url() + "#back-in-stock")
    if any(page_wait(request, limit()) for limit in (AlertThrottle, VisitorWriteThrottle)):
        messages.error(request, TOO_MANY_ASKED)
        return back
    email = ""
    if not signed_in:
        data, errors = validate(AlertInputSerializer, request.POST)
        if data is None:
            messages.error(request, f"Email: {errors['email'][0]}")
            return back
        email = data["email"]
    try:
        alerts.stock_alert_ask(part_id=part.pk, user=request.user, email=email)
    except ShopError as refusal:
        messages.error(request, refusal.message)
    except ValidationError as refusal:
        messages.error(request, f"Email: {refusal.message_dict['email'][0]}")
    else:
        messages.success(request, alerts.STARTED if signed_in else alerts.CHECK_MAIL)
    return back


SAID = {
    alerts.Confirmed.LIVE: ("Alert started", "We will e-mail you once when it is back in stock."),
    alerts.Confirmed.IN_STOCK: ("It is back already", "Good news: it is in stock now."),
    alerts.Confirmed.ENDED: ("Alert done", "Its mail went out already: the part is back."),
    alerts.Confirmed.EXPIRED: (
        "This link has expired",
        "Ask again on the part's page: we will mail you a new link.",
    ),
    alerts.Confirmed.INVALID: (
        "This link does not work",
        "It may have been cut short, or the part is no longer sold. Ask again on the part's "
        "page: we will mail you a new link.",
    ),
}


def confirm_alert(request, token):
    """The link mailed to a visitor: opening it starts the alert; a friendly page whatever
    the link holds (never a 500)."""
    outcome, part = alerts.stock_alert_confirm(token=token)
    title, text = SAID[outcome]
    context = {"title": title, "text": text, "part": part, "outcome": outcome}
    response = render(request, "catalog/alert_confirm.html", context)
    response["Cache-Control"] = "private, no-store"
    return response
