"""`{% entrance as entrance %}`: what the sign-in and sign-up pages need besides their form.

A template tag rather than view context, because allauth's own routes (/accounts/login/, …)
render the same templates through allauth's views.
"""

from allauth.account.utils import get_next_redirect_url, passthrough_next_redirect_url
from django import template
from django.contrib.auth import REDIRECT_FIELD_NAME
from django.urls import reverse

from accounts.selectors import google_sign_in_configured

register = template.Library()


@register.simple_tag(takes_context=True)
def entrance(context) -> dict:
    """The safe ?next= (never another site), /login and /signup keeping it, Google's state."""
    request = context["request"]
    return {
        "next": get_next_redirect_url(request, REDIRECT_FIELD_NAME) or "",
        "login_url": passthrough_next_redirect_url(request, reverse("login"), REDIRECT_FIELD_NAME),
        "signup_url": passthrough_next_redirect_url(
            request, reverse("signup"), REDIRECT_FIELD_NAME
        ),
        "google": google_sign_in_configured(request),
    }
