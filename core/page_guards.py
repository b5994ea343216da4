"""Guards of the pages (SPEC §4): signed-in pages and admin pages."""

from functools import wraps

from django.contrib.auth import logout
from django.contrib.auth.views import redirect_to_login
from django.shortcuts import redirect

__all__ = ["shop_admin_required"]


def shop_admin_required(view):
    """Admin pages: a visitor goes to /login (remembering the page); a non-admin is signed
    out and sent to /login."""

    @wraps(view)
    def guarded(request, *args, **kwargs):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not request.user.is_shop_admin:
            logout(request)
            return redirect("login")
        return view(request, *args, **kwargs)

    return guarded
