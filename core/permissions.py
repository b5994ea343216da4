"""Who may call what: the API's permission classes, decided in one place."""

from rest_framework.exceptions import PermissionDenied
from rest_framework.permissions import BasePermission

from core.emails import normalize_email

NOT_ADMIN = "Only shop admins can do this."
NOT_YOURS = "You can only do this for your own account."


def is_shop_admin(user) -> bool:
    """Whether `user` is signed in and a shop admin (any user object with `is_shop_admin`)."""
    return bool(user and user.is_authenticated and user.is_shop_admin)


class IsShopAdmin(BasePermission):
    message = NOT_ADMIN

    def has_permission(self, request, view):
        return is_shop_admin(request.user)


def require_self_or_admin(request, email: str) -> None:
    """Raise 403 unless `email` is the caller's own address or the caller is an admin."""
    if normalize_email(email) != request.user.email and not is_shop_admin(request.user):
        raise PermissionDenied(NOT_YOURS)


__all__ = ["NOT_ADMIN", "NOT_YOURS", "IsShopAdmin", "is_shop_admin", "require_self_or_admin"]
