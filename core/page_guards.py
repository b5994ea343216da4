"""Guards of the pages: signed-in pages and admin pages."""

from functools import wraps

from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.views import redirect_to_login
from django.shortcuts import redirect

__all__ = ["ENTRANCE_TAG", "LOG_IN_TO_CONTINUE", "ADMINS_ONLY", "shop_admin_required"]

# Why a guard sent someone to /login: the sign-in page shows it above its form (not as a toast).
ENTRANCE_TAG = "entrance"
LOG_IN_TO_CONTINUE = "Please log in to continue."
ADMINS_ONLY = "That page is for shop admins."


def shop_admin_required(view):
    """Admin pages: a visitor goes to /login (remembering the page); a non-admin is signed
    out and sent to /login."""

    @wraps(view)
    def guarded(request, *args, **kwargs):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not request.user.is_shop_admin:
            logout(request)
            # After logout: the message lives in its cookie, not in the flushed session.
            messages.warning(request, ADMINS_ONLY, extra_tags=ENTRANCE_TAG)
            return redirect("login")
        return view(request, *args, **kwargs)

    return guarded
