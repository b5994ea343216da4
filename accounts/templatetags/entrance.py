"""`{% entrance as entrance %}`: what the sign-in and sign-up pages need besides their form.

A template tag rather than view context, because allauth's own routes (/accounts/login/, …)
render the same templates through allauth's views.
"""

from allauth.account.utils import get_next_redirect_url, passthrough_next_redirect_url
from django import template
from django.contrib.auth import REDIRECT_FIELD_NAME
from django.contrib.messages import get_messages
from django.urls import reverse

from accounts.selectors import google_sign_in_configured
from core.page_guards import ENTRANCE_TAG, LOG_IN_TO_CONTINUE

register = template.Library()


@register.simple_tag(takes_context=True)
def entrance(context) -> dict:
    """The safe ?next= (never another site), /login and /signup keeping it, Google's state."""
    request = context["request"]
    next_url = get_next_redirect_url(request, REDIRECT_FIELD_NAME) or ""
    return {
        "next": next_url,
        "reason": sign_in_reason(request, next_url),
        "login_url": passthrough_next_redirect_url(request, reverse("login"), REDIRECT_FIELD_NAME),
        "signup_url": passthrough_next_redirect_url(
            request, reverse("signup"), REDIRECT_FIELD_NAME
        ),
        "google": google_sign_in_configured(request),
    }


def sign_in_reason(request, next_url: str) -> str:
    """Why a guard sent the visitor here: its message, or "Please log in to continue." when a
    signed-in page sent them with ?next=; "" when they came of their own accord."""
    for message in get_messages(request):
        if ENTRANCE_TAG in message.extra_tags.split():
            return str(message)
    return LOG_IN_TO_CONTINUE if next_url and not request.user.is_authenticated else ""
